import Foundation
import KFeed

/// Serves a replay scenario (`Fixtures/replay/<scenario>/routes.json`) from the loopback server: the same status,
/// headers and body for the same path and query values, so live tests see exactly what replay tests see.
///
/// Routes are tried in order and the first whose `path` and every `query` value match answers; a request that no
/// route matches gets a 404 whose body names it (a live test never gets an empty result by accident).
public struct RecordedRoutes: Sendable {
    /// One route: where it applies and what it answers.
    public struct Route: Sendable {
        /// The request path, e.g. `/2/tweets/search/recent`.
        public var path: String
        /// Query values the request must carry (percent-decoded).
        public var query: [String: String]
        /// The answer.
        public var response: LoopbackServer.Response

        /// Creates a route.
        public init(path: String, query: [String: String] = [:], response: LoopbackServer.Response) {
            self.path = path
            self.query = query
            self.response = response
        }
    }

    private struct File: Decodable {
        struct Entry: Decodable {
            var path: String
            var query: [String: String]?
            var status: Int?
            var headers: [String: String]?
            var body: String?
        }
        var routes: [Entry]
    }

    /// The routes, in the order they are tried.
    public var routes: [Route]

    /// Creates a table from explicit routes.
    public init(_ routes: [Route]) {
        self.routes = routes
    }

    /// Loads `Fixtures/replay/<scenario>/routes.json` with its bodies (host-specific routes are left out).
    /// - Throws: when the file or a body cannot be read or decoded.
    public init(scenario: String) throws {
        let directory = Fixture.replay(scenario)
        let file = try JSONDecoder().decode(
            File.self,
            from: Data(contentsOf: directory.appendingPathComponent("routes.json"))
        )
        routes = try file.routes.map { entry in
            let headers = (entry.headers ?? [:]).sorted { $0.key < $1.key }.map { HTTPHeader($0.key, $0.value) }
            let body = try entry.body.map { try Data(contentsOf: directory.appendingPathComponent($0)) } ?? Data()
            return Route(
                path: entry.path,
                query: entry.query ?? [:],
                response: LoopbackServer.Response(status: entry.status ?? 200, headers: headers, body: body)
            )
        }
    }

    /// The recorded answer of the scenario's last route (the one without query conditions).
    /// - Throws: when the scenario cannot be loaded or has no route.
    public static func response(_ scenario: String) throws -> LoopbackServer.Response {
        guard let route = try RecordedRoutes(scenario: scenario).routes.last else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: Fixture.replay(scenario).path])
        }
        return route.response
    }

    /// The answer for `request`: the first matching route's, else a 404 naming the request.
    public func response(for request: LoopbackServer.Request) -> LoopbackServer.Response {
        let match = routes.first { route in
            route.path == request.path && route.query.allSatisfy { request.queryValue($0.key) == $0.value }
        }
        return match?.response ?? .text("no recorded route for \(request.target)", status: 404)
    }

    /// A loopback handler answering from this table.
    public var handler: @Sendable (LoopbackServer.Request) -> LoopbackServer.Response {
        { [self] request in response(for: request) }
    }
}

extension LoopbackServer {
    /// A handler giving the n-th request the n-th response, and every later request the last one.
    /// - Parameter responses: at least one response.
    /// - Returns: a handler for `with(_:_:)` or `withServer(_:_:)`.
    public static func sequence(_ responses: [Response]) -> @Sendable (Request) -> Response {
        let counter = RequestCounter()
        return { _ in
            let index = counter.next()
            return responses.isEmpty ? .text("no response", status: 500) : responses[min(index, responses.count - 1)]
        }
    }
}

/// Counts calls across server threads. `@unchecked Sendable`: `count` is only touched under `lock`.
private final class RequestCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    /// The number of earlier calls.
    func next() -> Int {
        lock.withLock {
            defer { count += 1 }
            return count
        }
    }
}

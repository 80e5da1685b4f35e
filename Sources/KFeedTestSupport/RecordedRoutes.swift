import Foundation
import KFeed
import KFeedBase
import KFeedHTTP

/// Serves a replay scenario (`Fixtures/replay/<scenario>/routes.json`) from the loopback server: the same status,
/// headers and body for the same path and query values, so live tests see exactly what replay tests see.
///
/// The matching is `ReplayTransport`'s own (routes in order; path, host and query values); a request that no route
/// matches gets a 404 whose body names it (a live test never gets an empty result by accident).
package struct RecordedRoutes: Sendable {
    private let replay: ReplayTransport

    /// Loads `Fixtures/replay/<scenario>/routes.json`.
    /// - Throws: `KFeedError` `.replay` when the scenario has no routes file.
    package init(scenario: String) throws {
        replay = try ReplayTransport(directory: Fixture.replay(scenario))
    }

    /// The scenario's answer to a plain search request (no `next_token`).
    /// - Throws: when the scenario cannot be loaded or has no such route.
    package static func response(_ scenario: String) throws -> LoopbackServer.Response {
        try RecordedRoutes(scenario: scenario).answer(target: RecentSearchRequest.path)
    }

    /// The answer for `request`: the first matching route's, else a 404 naming the request.
    package func response(for request: LoopbackServer.Request) -> LoopbackServer.Response {
        (try? answer(target: request.target)) ?? .text("no recorded route for \(request.target)", status: 404)
    }

    /// A loopback handler answering from this table.
    package var handler: @Sendable (LoopbackServer.Request) -> LoopbackServer.Response {
        { [self] request in response(for: request) }
    }

    /// A loopback handler for a scenario that also serves its pictures: the search pages' `pbs.twimg.com` URLs point
    /// at the loopback server, and the requests for them are answered by the scenario's `pbs.twimg.com` routes.
    package var handlerServingImages: @Sendable (LoopbackServer.Request) -> LoopbackServer.Response {
        { [self] request in
            let host = request[header: "Host"] ?? "127.0.0.1"
            if request.path == PostLookupRequest.path { return LoopbackServer.everyPostPresent(request) }
            guard request.path != RecentSearchRequest.path else {
                var response = response(for: request)
                response.body = Data(
                    String(decoding: response.body, as: UTF8.self)
                        .replacingOccurrences(of: "https://pbs.twimg.com", with: "http://\(host)").utf8
                )
                return response
            }
            // Off pbs.twimg.com a photo's URL is asked as given, with its extension; the routes name it without.
            let target =
                request.target.hasPrefix("/media/")
                ? request.target.replacingOccurrences(of: ".jpg", with: "") : request.target
            return (try? answer(target: target, origin: "https://pbs.twimg.com"))
                ?? .text("no recorded route for \(request.target)", status: 404)
        }
    }

    /// Asks the replay what it answers `target` (path and query) on `origin`.
    private func answer(target: String, origin: String = "http://127.0.0.1") throws -> LoopbackServer.Response {
        guard let url = URL(string: "\(origin)\(target)") else {
            throw KFeedError(.replay, "not a request target: \(target)")
        }
        let recorded = try replay.response(to: HTTPRequest(url: url, maxBodyBytes: .max))
        return LoopbackServer.Response(status: recorded.status, headers: recorded.headers, body: recorded.body)
    }
}

extension LoopbackServer {
    /// A handler giving the n-th request the n-th response, and every later request the last one.
    /// - Parameter responses: at least one response.
    /// - Returns: a handler for `with(_:_:)` or `withServer(_:_:)`.
    package static func sequence(_ responses: [Response]) -> @Sendable (Request) -> Response {
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

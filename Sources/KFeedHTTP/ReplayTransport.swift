package import Foundation
import KFeedBase

/// Answers requests from a recorded directory instead of the network; its format is in `Fixtures/README.md`.
///
/// `DIR/routes.json` lists routes, tried in order; the first whose `host` (optional), `path` and every listed
/// `query` parameter match answers with its `status`, `headers` and the file `body` (relative to `DIR`).
/// A request no route matches is an error, never an empty answer.
package struct ReplayTransport: HTTPTransport {
    struct Route: Decodable, Sendable {
        var host: String?
        var path: String
        var query: [String: String]?
        var status: Int?
        var headers: [String: String]?
        var body: String?
    }

    private struct Routes: Decodable {
        var routes: [Route]
    }

    /// The recorded directory.
    package let directory: URL
    private let routes: [Route]

    /// Loads `DIR/routes.json`.
    /// - Throws: `KFeedError` with code `.replay` when the directory or its routes file is missing or malformed.
    package init(directory: URL) throws {
        self.directory = directory
        let file = directory.appendingPathComponent("routes.json")
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw KFeedError(
                .replay,
                "cannot read \(file.path): give --replay a directory with a routes.json (see Fixtures/README.md)"
            )
        }
        do {
            routes = try JSONDecoder().decode(Routes.self, from: data).routes
        } catch {
            throw KFeedError(
                .replay,
                "\(file.path) is not a valid routes file: see Fixtures/README.md",
                underlying: error
            )
        }
    }

    package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try response(to: request)
    }

    /// The recorded answer to `request`, without suspending (the tests' loopback server answers from it too).
    /// - Throws: `KFeedError` `.replay` when no route matches or its body cannot be read.
    package func response(to request: HTTPRequest) throws -> HTTPResponse {
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        let path = components?.path ?? ""
        let host = components?.host
        let parameters = Self.parameters(of: request.url)
        guard
            let route = routes.first(where: { route in
                (route.host == nil || route.host == host) && route.path == path
                    && (route.query ?? [:]).allSatisfy { parameters[$0.key] == $0.value }
            })
        else {
            let token = parameters["next_token"].map { " (next_token \($0))" } ?? ""
            throw KFeedError(
                .replay,
                "the replay directory \(directory.path) has no answer for \(host ?? "")\(path)\(token): add a route to its routes.json"
            )
        }
        var body = Data()
        if let name = route.body {
            let file = directory.appendingPathComponent(name)
            do {
                body = try Data(contentsOf: file)
            } catch {
                throw KFeedError(.replay, "the replay body \(file.path) cannot be read: fix routes.json")
            }
            guard body.count <= request.maxBodyBytes else {
                throw KFeedError(.transport, "the replay body \(name) exceeds \(request.maxBodyBytes) bytes")
            }
        }
        let headers = (route.headers ?? [:]).sorted { $0.key < $1.key }.map { HTTPHeader($0.key, $0.value) }
        return HTTPResponse(status: route.status ?? 200, headers: headers, body: body, url: request.url)
    }

    /// The request's query parameters, percent-decoded (`+` stays `+`).
    package static func parameters(of url: URL) -> [String: String] {
        guard let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery else {
            return [:]
        }
        var result: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = PercentEncoding.decode(parts[0]) else { continue }
            result[name] = parts.count > 1 ? PercentEncoding.decode(parts[1]) : ""
        }
        return result
    }
}

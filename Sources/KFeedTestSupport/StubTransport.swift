package import Foundation
import KFeed
package import KFeedBase
package import KFeedHTTP
import KFeedImages

/// An `HTTPTransport` that answers from a closure, a script or a recorded scenario, and records every request
/// (for library tests; integration tests use `CurlTransport` with `LoopbackServer`).
package final class StubTransport: HTTPTransport, @unchecked Sendable {
    /// One scripted answer.
    package enum Step: Sendable {
        /// Answer with this status, headers and body.
        case respond(Int, [HTTPHeader], Data)
        /// Fail with this error.
        case fail(KFeedError)
    }

    // `@unchecked Sendable`: `recorded` and `steps` are only touched under `lock`; `handler` is immutable and
    // `@Sendable`.
    private let lock = NSLock()
    private var recorded: [HTTPRequest] = []
    private var steps: [Step] = []
    private var handler: (@Sendable (HTTPRequest) async throws -> HTTPResponse)?

    /// Creates a transport answering with `handler`.
    package init(_ handler: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse) {
        self.handler = handler
    }

    /// Creates a transport answering request *n* with step *n*; a request past the script fails.
    package init(script: [Step]) {
        self.steps = script
    }

    /// A transport answering from the recorded scenario `Fixtures/replay/<scenario>`.
    package static func replaying(_ scenario: String) throws -> StubTransport {
        let replay = try ReplayTransport(directory: Fixture.directory.appendingPathComponent("replay/\(scenario)"))
        return StubTransport { try await replay.send($0) }
    }

    /// Every request received, in order.
    package var requests: [HTTPRequest] { lock.withLock { recorded } }

    /// The query parameters of every request received, in order.
    package func parameters() -> [[String: String]] {
        requests.map { ReplayTransport.parameters(of: $0.url) }
    }

    package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let step: Step? = lock.withLock {
            recorded.append(request)
            return handler == nil ? (steps.isEmpty ? nil : steps.removeFirst()) : nil
        }
        if let handler { return try await handler(request) }
        switch step {
        case .respond(let status, let headers, let body):
            return HTTPResponse(status: status, headers: headers, body: body, url: request.url)
        case .fail(let error):
            throw error
        case nil:
            throw KFeedError(.transport, "the script has no step for request \(requests.count)")
        }
    }
}

extension StubTransport {
    /// The kpop search fixture (`recent-search.kpop.json`); each of its photos (`/media/GkP00<id>…`) answered by
    /// `photo(id, request)`, anything else (avatars) with a 96×96 JPEG.
    package static func kpop(
        photo: @escaping @Sendable (Int, HTTPRequest) throws -> HTTPResponse
    ) throws -> StubTransport {
        let search = try Fixture.data("recent-search.kpop.json")
        let avatar = JPEGThumbnailer.placeholder(size: ImageSize(width: 96, height: 96))
        return StubTransport { request in
            let path = request.url.path
            if path == RecentSearchRequest.path { return HTTPResponse(status: 200, body: search, url: request.url) }
            guard path.hasPrefix("/media/GkP00"), let id = Int(path.dropFirst("/media/GkP00".count).prefix(3)) else {
                return HTTPResponse(status: 200, body: avatar, url: request.url)
            }
            return try photo(id, request)
        }
    }
}

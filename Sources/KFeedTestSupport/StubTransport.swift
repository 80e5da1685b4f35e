import Foundation
public import KFeed

/// An `HTTPTransport` that answers from a closure and records every request (for library tests; integration
/// tests use `CurlTransport` with `LoopbackServer`).
public final class StubTransport: HTTPTransport, @unchecked Sendable {
    // `@unchecked Sendable`: `recorded` is only touched under `lock`; `handler` is immutable and `@Sendable`.
    private let lock = NSLock()
    private var recorded: [HTTPRequest] = []
    private let handler: @Sendable (HTTPRequest) async throws -> HTTPResponse

    /// Creates a transport answering with `handler`.
    public init(_ handler: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse) {
        self.handler = handler
    }

    /// Every request received, in order.
    public var requests: [HTTPRequest] { lock.withLock { recorded } }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        lock.withLock { recorded.append(request) }
        return try await handler(request)
    }
}

import KFeedBase

/// Sends HTTP requests: `CurlTransport` in production, `ReplayTransport` offline, the loopback server in tests.
package protocol HTTPTransport: Sendable {
    /// Sends one request and returns its whole response, whatever its status.
    /// - Throws: `KFeedError` with code `.transport` for network failures, timeouts and bodies over the cap.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

import KFeedBase

/// The production `HTTPTransport`: libcurl's multi interface, driven by one dedicated thread.
///
/// Many requests can be in flight at once without occupying the cooperative thread pool; each `send` suspends
/// until its transfer ends. Connections are reused for the transport's whole life, so share one instance.
/// Only `http` and `https` are fetched, redirects included, and every limit comes from the `HTTPRequest`.
package final class CurlTransport: HTTPTransport {
    private let multi: CurlMulti

    /// Creates a transport and starts its driver thread; the thread ends when the transport is released.
    /// - Throws: `KFeedError` with code `.transport` when libcurl cannot initialize.
    package init() throws {
        multi = try CurlMulti()
    }

    deinit {
        multi.stop()
    }

    /// Sends one request and returns its whole response, whatever its status.
    ///
    /// A 3xx is returned as is when `maxRedirects` is 0, else followed up to `maxRedirects` times; the response
    /// then carries the final URL and the final response's headers. `Authorization` is not sent to another host.
    /// - Throws: `CancellationError` when the task is cancelled; `KFeedError` with code `.transport` for
    ///   network failures, timeouts, too many redirects, a non-HTTP redirect and bodies over `maxBodyBytes`.
    package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try Task.checkCancellation()
        let easy = try CurlEasy(request: request)
        return try await multi.perform(easy)
    }
}

public import Foundation

/// A complete HTTP response: status, headers and the whole body (within the request's byte cap).
public struct HTTPResponse: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// The headers of the final response (after redirects), in the order received.
    public var headers: [HTTPHeader]
    /// The body, decoded if it was compressed.
    public var body: Data
    /// The URL that answered (differs from the request's after a redirect).
    public var url: URL

    /// Creates a response.
    public init(status: Int, headers: [HTTPHeader] = [], body: Data = Data(), url: URL) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
    }

    /// The first header with this name, compared case-insensitively.
    public subscript(header name: String) -> String? { headers.value(named: name) }
}

extension [HTTPHeader] {
    /// The value of the first header named `name`, compared case-insensitively.
    package func value(named name: String) -> String? {
        first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

package import Foundation

/// A complete HTTP response: status, headers and the whole body (within the request's byte cap).
package struct HTTPResponse: Sendable {
    /// The HTTP status code.
    package var status: Int
    /// The headers of the final response (after redirects), in the order received.
    package var headers: [HTTPHeader]
    /// The body, decoded if it was compressed.
    package var body: Data
    /// The URL that answered (differs from the request's after a redirect).
    package var url: URL

    /// Creates a response.
    package init(status: Int, headers: [HTTPHeader] = [], body: Data = Data(), url: URL) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
    }

    /// The first header with this name, compared case-insensitively.
    package subscript(header name: String) -> String? { headers.value(named: name) }
}

extension [HTTPHeader] {
    /// The value of the first header named `name`, compared case-insensitively.
    package func value(named name: String) -> String? {
        first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

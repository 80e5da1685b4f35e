package import Foundation

/// One HTTP GET as kfeed sends it: the URL, headers, and the limits that bound its cost.
package struct HTTPRequest: Sendable, Hashable {
    /// The absolute `http` or `https` URL.
    package var url: URL
    /// Extra request headers, sent in this order.
    package var headers: [HTTPHeader]
    /// The largest body accepted, in decoded bytes; a larger one aborts the transfer.
    package var maxBodyBytes: Int
    /// How many redirects to follow (0 for API requests), only to `http`/`https`.
    package var maxRedirects: Int
    /// How long establishing the connection may take.
    package var connectTimeout: Duration
    /// The whole transfer's limit, connection included.
    package var totalTimeout: Duration
    /// Abort when fewer than `lowSpeedBytesPerSecond` arrive for `lowSpeedTime`.
    package var lowSpeedBytesPerSecond: Int
    /// See `lowSpeedBytesPerSecond`.
    package var lowSpeedTime: Duration

    /// Creates a request; the defaults suit an API page.
    package init(
        url: URL,
        headers: [HTTPHeader] = [],
        maxBodyBytes: Int = 4 << 20,
        maxRedirects: Int = 0,
        connectTimeout: Duration = .seconds(10),
        totalTimeout: Duration = .seconds(30),
        lowSpeedBytesPerSecond: Int = 1_024,
        lowSpeedTime: Duration = .seconds(10)
    ) {
        self.url = url
        self.headers = headers
        self.maxBodyBytes = maxBodyBytes
        self.maxRedirects = maxRedirects
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.lowSpeedBytesPerSecond = lowSpeedBytesPerSecond
        self.lowSpeedTime = lowSpeedTime
    }
}

/// A header name and value.
package struct HTTPHeader: Sendable, Hashable {
    /// The header's name, as sent or received.
    package var name: String
    /// The header's value.
    package var value: String

    /// Creates a header.
    package init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

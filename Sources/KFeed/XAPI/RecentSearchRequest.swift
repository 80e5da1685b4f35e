public import Foundation

/// One page request of `GET /2/tweets/search/recent`, with exactly the fields and expansions kfeed reads.
public struct RecentSearchRequest: Sendable, Hashable {
    /// The validated query.
    public var query: RecentSearchQuery
    /// Posts per page, 10…100 (X's limits).
    public var maxResults: Int
    /// The page to continue from (`meta.next_token` of the previous page).
    public var nextToken: String?
    /// Only posts newer than this id (kept the same while following `nextToken`).
    public var sinceID: String?

    /// The API path.
    public static let path = "/2/tweets/search/recent"

    /// The parameters kfeed always sends, in order: expansions and fields for the join.
    public static let fieldParameters: [(String, String)] = [
        ("expansions", "attachments.media_keys,author_id"),
        ("tweet.fields", "attachments,author_id,created_at,possibly_sensitive,lang"),
        ("media.fields", "url,preview_image_url,type,width,height,alt_text"),
        ("user.fields", "name,username,profile_image_url"),
    ]

    /// Creates a request; `maxResults` is clamped to 10…100.
    public init(query: RecentSearchQuery, maxResults: Int, nextToken: String? = nil, sinceID: String? = nil) {
        self.query = query
        self.maxResults = min(100, max(10, maxResults))
        self.nextToken = nextToken
        self.sinceID = sinceID
    }

    /// The page size for a timeline of `entries`: the entries plus half again as margin for unusable posts,
    /// clamped to 10…100 (search bills per post read).
    public static func pageSize(forEntries entries: Int) -> Int {
        min(100, max(10, entries + (entries + 1) / 2))
    }

    /// The query parameters in the order they are sent (unencoded).
    public var parameters: [(String, String)] {
        var parameters = [("query", query.text), ("max_results", String(maxResults))] + Self.fieldParameters
        if let sinceID { parameters.append(("since_id", sinceID)) }
        if let nextToken { parameters.append(("next_token", nextToken)) }
        return parameters
    }

    /// The full URL on `baseURL` (for example `https://api.x.com`), every value percent-encoded
    /// so that `+`, `&`, `=`, `#`, quotes and non-ASCII reach the server exactly as written.
    public func url(baseURL: URL) -> URL {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        let query = parameters.map { "\($0.0)=\(PercentEncoding.encode($0.1))" }.joined(separator: "&")
        // Every character outside the unreserved set is escaped, so this string is always a valid URL.
        return URL(string: "\(base)\(Self.path)?\(query)") ?? baseURL
    }
}

/// Strict percent-encoding for query values (RFC 3986 unreserved characters and `,` stay literal).
public enum PercentEncoding {
    private static let hexDigits = Array("0123456789ABCDEF".unicodeScalars)

    /// Encodes every byte of `value`'s UTF-8 form except `A-Z a-z 0-9 - . _ ~ ,`.
    public static func encode(_ value: String) -> String {
        var result = ""
        result.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: ","):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result.unicodeScalars.append("%")
                result.unicodeScalars.append(hexDigits[Int(byte >> 4)])
                result.unicodeScalars.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return result
    }

    /// Decodes `%XX` escapes (and nothing else: `+` stays `+`); nil when an escape or the UTF-8 is malformed.
    public static func decode(_ value: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = value.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

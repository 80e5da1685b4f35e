package import Foundation
import KFeedHTTP

/// One page request of `GET /2/tweets/search/recent`, with exactly the fields and expansions kfeed reads.
package struct RecentSearchRequest: Sendable, Hashable {
    /// The validated query.
    package var query: RecentSearchQuery
    /// Posts per page, 10…100 (X's limits).
    package var maxResults: Int
    /// The page to continue from (`meta.next_token` of the previous page).
    package var nextToken: String?
    /// Only posts newer than this id (kept the same while following `nextToken`).
    package var sinceID: String?
    /// Only posts older than this id (kept the same while following `nextToken`).
    package var untilID: String?

    /// The API path.
    package static let path = "/2/tweets/search/recent"

    /// The parameters kfeed always sends, in order: expansions and fields for the join.
    package static let fieldParameters: [(String, String)] = [
        ("expansions", "attachments.media_keys,author_id"),
        ("tweet.fields", "attachments,author_id,created_at,possibly_sensitive,lang"),
        ("media.fields", "url,preview_image_url,type,width,height,alt_text"),
        ("user.fields", "name,username,profile_image_url"),
    ]

    /// The fewest posts a page can ask for (X's lower bound of `max_results`).
    package static let minimumPageSize = 10

    /// Creates a request; `maxResults` is clamped to 10…100.
    package init(
        query: RecentSearchQuery,
        maxResults: Int,
        nextToken: String? = nil,
        sinceID: String? = nil,
        untilID: String? = nil
    ) {
        self.query = query
        self.maxResults = min(100, max(10, maxResults))
        self.nextToken = nextToken
        self.sinceID = sinceID
        self.untilID = untilID
    }

    /// The page size for `entries` usable posts: the entries plus a quarter again as margin for unusable posts,
    /// less the `spare` usable posts the caller already holds, clamped to 10…100 (search bills per post read).
    package static func pageSize(forEntries entries: Int, spare: Int = 0) -> Int {
        min(100, max(10, entries + max(0, (entries + 3) / 4 - max(0, spare))))
    }

    /// The query parameters in the order they are sent (unencoded).
    package var parameters: [(String, String)] {
        var parameters = [("query", query.text), ("max_results", String(maxResults))] + Self.fieldParameters
        if let sinceID { parameters.append(("since_id", sinceID)) }
        if let untilID { parameters.append(("until_id", untilID)) }
        if let nextToken { parameters.append(("next_token", nextToken)) }
        return parameters
    }

    /// The full URL on `baseURL` (for example `https://api.x.com`), every value percent-encoded
    /// so that `+`, `&`, `=`, `#`, quotes and non-ASCII reach the server exactly as written.
    package func url(baseURL: URL) -> URL {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        let query = parameters.map { "\($0.0)=\(PercentEncoding.encode($0.1))" }.joined(separator: "&")
        // Every character outside the unreserved set is escaped, so this string is always a valid URL.
        return URL(string: "\(base)\(Self.path)?\(query)") ?? baseURL
    }
}

import Foundation
import KFeedX

/// A recent-search page as X sent it, decoded once: what a refresh keeps in `candidates.json` and what later
/// refreshes choose from.
struct ReadPage: Sendable {
    /// How far back recent search reaches.
    static let searchWindow: TimeInterval = 7 * 86_400

    /// The body, exactly as received.
    var body: Data
    /// Its posts joined with its includes.
    var items: [FeedItem]
    /// The ids of all its posts, usable or not.
    var postIDs: [String]

    /// Decodes `body` (a page kept from an earlier run); a page that does not decode holds no posts.
    init(_ body: Data) {
        var results = SearchResults()
        try? results.append(responseBody: body)
        self.init(body: body, results: results)
    }

    /// A page this run read, already decoded and joined by the client.
    init(body: Data, results: SearchResults) {
        self.body = body
        self.items = results.feedItems
        self.postIDs = results.posts.map(\.id)
    }

    /// The pages of a search, as the client decoded them.
    static func pages(of outcome: XClient.Outcome?) -> [ReadPage] {
        guard let outcome else { return [] }
        return outcome.pages.map { ReadPage(body: $0.body, results: $0.results) }
    }

    /// The joined posts that recent search would still return at `now`.
    func items(at now: Date) -> [FeedItem] {
        items.filter { ($0.post.createdAt ?? now) > now.addingTimeInterval(-Self.searchWindow) }
    }
}

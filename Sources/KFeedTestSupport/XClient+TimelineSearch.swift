package import KFeed

extension XClient {
    /// What the refresher asks of the client, and what it makes of the answer.
    package struct TimelineSearch: Sendable {
        /// The merged pages.
        package var results: SearchResults
        /// The timeline's choice from them.
        package var selection: Selection
        /// The last response's rate-limit figures.
        package var rateLimit: RateLimit?
    }

    /// Searches the way `Refresher` does: pages while `builder`'s timeline is not full, then selects.
    package func search(
        _ query: RecentSearchQuery,
        for builder: TimelineBuilder,
        sinceID: String? = nil
    ) async throws -> TimelineSearch {
        let outcome = try await search(query, wanting: builder.entryCount, sinceID: sinceID) {
            builder.postsStillWanted(after: $0.feedItems)
        }
        return TimelineSearch(
            results: outcome.results,
            selection: builder.selection(from: outcome.results.feedItems, isExhausted: true),
            rateLimit: outcome.rateLimit
        )
    }
}

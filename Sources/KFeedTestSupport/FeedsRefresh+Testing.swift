package import Foundation
package import KFeed
package import KFeedHTTP

extension FeedsRefresh {
    /// The feeds the tests and the economy benchmark refresh together: one per name over `root/feeds/NAME/`, each
    /// searching `NAME has:images -is:retweet` (a topic of its own on `SimulatedX`) through `transport`, 24 entries.
    /// - Throws: when a name does not make a valid query.
    package static func testing(
        _ names: [String],
        in root: URL,
        transport: any HTTPTransport,
        budget: Budget,
        maxTries: Int = 1
    ) throws -> FeedsRefresh {
        let feeds = try names.map { name in
            Feed(
                name: name,
                refresher: Refresher.testing(
                    in: CacheRoot(directory: root).feedDirectory(named: name),
                    transport: transport,
                    settings: .init(
                        query: try RecentSearchQuery(raw: "\(name) has:images -is:retweet"),
                        builder: TimelineBuilder(),
                        size: .small
                    ),
                    maxTries: maxTries
                )
            )
        }
        return FeedsRefresh(root: root, feeds: feeds, budget: budget)
    }
}

package import Foundation
package import KFeed
package import KFeedHTTP

extension Refresher {
    /// The refresher the unit tests drive: over the cache at `directory`, its client and image fetcher both on
    /// `transport`, the client never waiting between tries.
    /// - Parameters:
    ///   - directory: the cache directory.
    ///   - transport: answers the search and the images (a stub, a replay or the simulated X).
    ///   - settings: what to search, how to lay out the timeline and what to render.
    ///   - maxTries: tries per request.
    ///   - pageBudget: pages one search may read at most.
    ///   - deadline: the longest the whole refresh may take.
    ///   - clock: what the deadline is measured on.
    ///   - checksPosts: whether the posts shown are looked up on X (deleted within a day).
    /// - Returns: the refresher.
    package static func testing(
        in directory: URL,
        transport: any HTTPTransport,
        settings: FeedSettings,
        maxTries: Int = 1,
        pageBudget: Int = 3,
        deadline: Duration = .seconds(300),
        clock: some Clock<Duration> = ContinuousClock(),
        checksPosts: Bool = true
    ) -> Refresher {
        Refresher(store: CacheStore(directory: directory), settings: settings, deadline: deadline, clock: clock) {
            Refresher.Connection(
                client: XClient(
                    configuration: .init(pageBudget: pageBudget, maxTries: maxTries),
                    transport: transport,
                    sleep: { _ in }
                ),
                images: ImageFetcher(transport: transport),
                checksPosts: checksPosts
            )
        }
    }
}

package import Foundation
package import KFeed
package import KFeedHTTP

extension Refresher {
    /// The refresher the unit tests drive: over the cache at `directory`, its client and image fetcher both on
    /// `transport`, the client never waiting between tries.
    /// - Parameters:
    ///   - directory: the cache directory.
    ///   - transport: answers the search and the images (a stub, a replay or the simulated X).
    ///   - plan: what to search and how to lay out the timeline.
    ///   - maxTries: tries per request.
    ///   - pageBudget: pages one search may read at most.
    ///   - deadline: the longest the whole refresh may take.
    ///   - clock: what the deadline is measured on.
    /// - Returns: the refresher.
    package static func testing(
        in directory: URL,
        transport: any HTTPTransport,
        plan: Plan,
        maxTries: Int = 1,
        pageBudget: Int = 3,
        deadline: Duration = .seconds(300),
        clock: some Clock<Duration> = ContinuousClock()
    ) -> Refresher {
        Refresher(store: CacheStore(directory: directory), plan: plan, deadline: deadline, clock: clock) {
            Refresher.Connection(
                client: XClient(
                    configuration: .init(pageBudget: pageBudget, maxTries: maxTries),
                    transport: transport,
                    sleep: { _ in }
                ),
                images: ImageFetcher(transport: transport)
            )
        }
    }
}

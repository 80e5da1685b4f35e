package import Foundation
import KFeedBase
import Synchronization

/// Refreshes the feeds of a feeds file (`kfeed refresh` with `kfeed.toml`): every due feed, or those named, in one
/// run, one token and one view of X's limits, under one spend cap (`docs/feeds.md`).
///
/// The run holds the spending lock (`DIR/ledger.lock`) besides each feed's own lock, so that two runs never share
/// out the same budget. Before each due feed's search, what the cap leaves today is shared evenly between the due
/// feeds not yet refreshed (what one leaves unread goes to the next); every post a page holds is counted in the
/// ledger as soon as the page is in. A feed whose share is less than a page makes no request: its timeline is filled
/// from the posts in hand and the last timeline's, as repeats, until the cap renews. A rate limit or a usage cap
/// for one feed stops the others until its reset.
package struct FeedsRefresh: Sendable {
    /// One feed: its name (`[feeds.NAME]`) and its refresher over `DIR/feeds/NAME/`.
    package struct Feed: Sendable {
        package var name: String
        package var refresher: Refresher

        package init(name: String, refresher: Refresher) {
            self.name = name
            self.refresher = refresher
        }
    }

    /// What the run did with one feed.
    package enum Result: Sendable {
        /// The refresher's outcome (not due, refreshed, or no usable post).
        case done(Refresher.Outcome)
        /// It failed; its last good timeline stays.
        case failed(KFeedError)
        /// Not asked: X's rate limit or usage cap, met by this feed or another, holds until the instant.
        case paused(until: Date, reason: String)
    }

    /// The cache root (`DIR`): the ledger and `feeds/`.
    package var root: URL
    /// The feeds to refresh when due, in the file's order.
    package var feeds: [Feed]
    /// The spend cap.
    package var budget: Budget

    package init(root: URL, feeds: [Feed], budget: Budget) {
        self.root = root
        self.feeds = feeds
        self.budget = budget
    }

    /// The ledger as last written (a fresh one when there is none or it cannot be read).
    package func ledger() -> Ledger {
        CacheDirectory(url: root).read(Ledger.fileName).flatMap {
            try? InstantFormat.jsonDecoder().decode(Ledger.self, from: $0)
        } ?? Ledger()
    }

    /// Refreshes every due feed (every feed with `force`).
    /// - Returns: each feed's result, in order.
    /// - Throws: `KFeedError` `.lockHeld` when another run is spending, `.cacheUnwritable` for the root.
    package func refresh(now: Date, force: Bool = false) async throws -> [(name: String, result: Result)] {
        let directory = CacheDirectory(url: root)
        try directory.prepare(subdirectories: [])
        let lock = try directory.lock(Ledger.lockName)
        defer { withExtendedLifetime(lock) {} }
        let book = Mutex(ledger())
        var results: [(name: String, result: Result)] = []
        var due: [Feed] = []
        for feed in feeds {
            let dueness = feed.refresher.dueness(now: now)
            if force || dueness.isDue {
                due.append(feed)
            } else {
                results.append((feed.name, .done(.notDue(until: dueness.until))))
            }
        }
        for (index, feed) in due.enumerated() {
            if let pause = book.withLock({ $0.pausedUntil.map { ($0, $0 > now) } }), pause.1, !force {
                let reason = book.withLock { $0.pauseReason } ?? "X asked to wait"
                results.append((feed.name, .paused(until: pause.0, reason: reason)))
                continue
            }
            let left = budget.isLimited ? book.withLock { budget.postsLeft(in: $0, at: now) } : Int.max
            let share = budget.isLimited ? left / (due.count - index) : Int.max
            let postBudget = Refresher.PostBudget(posts: share, renewsAt: Ledger.nextDay(after: now)) { ids in
                book.withLock { _ = $0.record(ids, by: feed.name, at: now) }
            }
            do {
                let outcome = try await feed.refresher.refresh(now: now, force: force, budget: postBudget)
                results.append((feed.name, .done(outcome)))
            } catch let error as KFeedError {
                results.append((feed.name, .failed(error)))
                if [.rateLimited, .usageCapped, .creditsDepleted].contains(error.code) {
                    let until = error.retryNotBefore ?? now.addingTimeInterval(TimelineBuilder.minimumWait)
                    book.withLock {
                        $0.pausedUntil = until
                        $0.pauseReason = error.message
                    }
                }
            }
            try write(book.withLock { $0 }, in: directory)
        }
        try write(book.withLock { $0 }, in: directory)
        return results.sorted { lhs, rhs in
            (feeds.firstIndex { $0.name == lhs.name } ?? 0) < (feeds.firstIndex { $0.name == rhs.name } ?? 0)
        }
    }

    private func write(_ ledger: Ledger, in directory: CacheDirectory) throws {
        try directory.write(InstantFormat.jsonEncoder().encode(ledger), to: Ledger.fileName)
    }
}

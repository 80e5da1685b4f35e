package import Foundation
import KFeedBase
import Synchronization

/// Refreshes the feeds of a feeds file (`kfeed refresh` with `kfeed.toml`): every due feed, or those named, in one
/// run, one token and one view of X's limits, under one spend cap (`docs/feeds.md`).
///
/// The run holds the spending lock (`DIR/ledger.lock`, ``CacheRoot``) besides each feed's own lock, so that two runs never share
/// out the same budget. Before each due feed's search, what the cap leaves today is shared evenly between the due
/// feeds not yet refreshed (what one leaves unread goes to the next); every post a page holds is counted in the
/// ledger, and the ledger written (``LedgerWrites``), as soon as the page is in. A feed whose share is less than a
/// page makes no request: its timeline is filled from the posts in hand and the last timeline's, as repeats, until
/// the cap renews. A rate limit or a usage cap for one feed stops the others until its reset.
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

    /// The cache root (`DIR`): the ledger and `feeds/`, named by ``CacheRoot``.
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
        CacheRoot(directory: root).ledger()
    }

    /// Refreshes every due feed (every feed with `force`). When none is due, nothing is locked, read or written
    /// beyond each feed's due-ness (the cron tick that has nothing to do).
    /// - Returns: each feed's result, in order.
    /// - Throws: `KFeedError` `.lockHeld` when another run is spending, `.cacheUnwritable` for the root.
    package func refresh(now: Date, force: Bool = false) async throws -> [(name: String, result: Result)] {
        let dueness = feeds.map { force ? Refresher.Dueness(isDue: true) : $0.refresher.dueness(now: now) }
        var waiting = dueness.filter(\.isDue).count
        guard waiting > 0 else { return zip(feeds, dueness).map { ($0.name, .done(.notDue(until: $1.until))) } }
        // The first due feed's connection is made while the root is locked and the ledger read (the search waits
        // for it: libcurl and its libraries take some milliseconds to load).
        let first = zip(feeds, dueness).first { $1.isDue }?.0.refresher
        first?.beginConnecting()
        defer { first?.discardEarlyConnection() }
        let cache = CacheRoot(directory: root)
        let lock = try cache.lockSpending()
        defer { withExtendedLifetime(lock) {} }
        let book = Mutex(cache.ledger())
        let writes = LedgerWrites(cache)
        defer { writes.wait() }
        var results: [(name: String, result: Result)] = []
        for (feed, due) in zip(feeds, dueness) {
            guard due.isDue else {
                results.append((feed.name, .done(.notDue(until: due.until))))
                continue
            }
            defer { waiting -= 1 }
            let (pausedUntil, reason) = book.withLock { ($0.pausedUntil, $0.pauseReason) }
            // A deleted-post lookup alone is not held back: X's 24 hours do not wait for a search's reset (a lookup
            // X refuses leaves the posts it cannot check to expire).
            if let pausedUntil, pausedUntil > now, !force, !due.lookupOnly {
                results.append((feed.name, .paused(until: pausedUntil, reason: reason ?? "X asked to wait")))
                continue
            }
            // The deleted-post checks of the timelines on screen come first: a lookup alone takes what is left; a
            // refresh (its searches, and the lookups of the repeats it would show) leaves ``lookupReserve`` posts a
            // feed of it for them.
            let left = budget.isLimited ? book.withLock { budget.postsLeft(in: $0, at: now) } : Int.max
            let reserved = min(left, Self.lookupReserve * feeds.count)
            let share = !budget.isLimited ? Int.max : due.lookupOnly ? left : (left - reserved) / waiting
            let postBudget = Refresher.PostBudget(
                posts: share,
                lookupReserve: budget.isLimited && !due.lookupOnly ? reserved / feeds.count : 0,
                renewsAt: Ledger.nextDay(after: now),
                read: { read in
                    book.withLock {
                        _ = $0.record(read.posts, users: read.users, lookup: read.lookup, by: feed.name, at: now)
                        writes.write($0)
                    }
                }
            )
            let result = try await Self.refresh(feed, within: postBudget, now: now, force: force)
            if case .failed(let error) = result, [.rateLimited, .usageCapped, .creditsDepleted].contains(error.code) {
                // X's limit holds for the account: every feed waits for its reset.
                let until = error.retryNotBefore ?? now.addingTimeInterval(TimelineBuilder.minimumWait)
                book.withLock {
                    $0.pausedUntil = until
                    $0.pauseReason = error.message
                }
            }
            results.append((feed.name, result))
            try writes.finish(book.withLock { $0 })
        }
        return results
    }

    /// The posts a day's cap keeps per feed for the deleted-post lookups: a timeline the cap cut short stays on
    /// screen until the cap renews, and its last entry is looked up once if that is more than a day after its read
    /// (`docs/feeds.md`, the spend cap).
    static let lookupReserve = 2

    /// One due feed's refresh within `budget`: its outcome, or its error (the last good timeline stays).
    private static func refresh(
        _ feed: Feed,
        within budget: Refresher.PostBudget,
        now: Date,
        force: Bool
    ) async throws -> Result {
        do {
            return .done(try await feed.refresher.refresh(now: now, force: force, budget: budget))
        } catch let error as KFeedError {
            return .failed(error)
        }
    }
}

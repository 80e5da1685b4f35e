package import Foundation
package import KFeedX

/// What `kfeed status` prints and `/healthz` carries for the feeds of a feeds file: per feed, its last refresh and
/// when the next is due, the posts it read today and this month; for all, the budget and the month's cost.
package struct FeedsStatus: Codable, Sendable, Hashable {
    /// One feed's figures.
    package struct Feed: Codable, Sendable, Hashable {
        package var name: String
        /// When its timeline was made.
        package var lastRefresh: Date?
        /// When a refresh is next due (nil: due now, or never without `--force`).
        package var nextDue: Date?
        /// Whether one is due now.
        package var isDue: Bool
        package var postsToday: Int
        package var postsThisMonth: Int
        /// The budget cut its last refresh short; more is allowed from then.
        package var budgetSpentUntil: Date?
        /// The last refresh's failure, if it failed.
        package var lastError: String?
        /// The quiet hours hold until this instant: no search before it (nil: not quiet now).
        package var quietUntil: Date?
        /// `quietUntil` on the feed's wall clock, `HH:MM` (what the table prints).
        package var quietUntilLocal: String?

        private enum CodingKeys: String, CodingKey {
            case name
            case lastRefresh = "last_refresh"
            case nextDue = "next_due"
            case isDue = "due"
            case postsToday = "posts_today"
            case postsThisMonth = "posts_this_month"
            case budgetSpentUntil = "budget_spent_until"
            case lastError = "last_error"
            case quietUntil = "quiet_until"
            case quietUntilLocal = "quiet_until_local"
        }
    }

    /// The figures of all feeds together.
    package struct Spending: Codable, Sendable, Hashable {
        package var postsToday: Int
        package var postsThisMonth: Int
        /// Users read (the expanded authors of searches, counted as X's user reads).
        package var usersToday: Int
        package var usersThisMonth: Int
        /// Posts looked up (the deleted-post checks; part of the posts read).
        package var lookupsToday: Int
        package var lookupsThisMonth: Int
        /// What this month's posts and users cost so far, in US dollars.
        package var monthCostUSD: Double
        /// The month's cost if the rest of it reads as it has so far.
        package var projectedMonthCostUSD: Double
        package var postsPerDay: Int?
        package var usdPerMonth: Double?
        package var usdPerPost: Double
        package var usdPerUser: Double
        /// Posts the budget still allows today (nil: no cap).
        package var postsLeftToday: Int?
        /// No feed asks X before this instant (a rate limit or usage cap met by one of them).
        package var pausedUntil: Date?

        private enum CodingKeys: String, CodingKey {
            case postsToday = "posts_today"
            case postsThisMonth = "posts_this_month"
            case usersToday = "users_today"
            case usersThisMonth = "users_this_month"
            case lookupsToday = "lookups_today"
            case lookupsThisMonth = "lookups_this_month"
            case usdPerUser = "usd_per_user"
            case monthCostUSD = "month_cost_usd"
            case projectedMonthCostUSD = "projected_month_cost_usd"
            case postsPerDay = "posts_per_day"
            case usdPerMonth = "usd_per_month"
            case usdPerPost = "usd_per_post"
            case postsLeftToday = "posts_left_today"
            case pausedUntil = "paused_until"
        }
    }

    /// X's own count of the posts read (`GET /2/usage/tweets`) beside the ledger's.
    package struct XCount: Codable, Sendable, Hashable {
        /// Whether X was asked and answered.
        package var checked: Bool
        /// Why not, or what to make of a difference.
        package var note: String?
        /// X's posts today and this month (its days in the ledger's month), when it answered.
        package var postsToday: Int?
        package var postsThisMonth: Int?
        /// The ledger's.
        package var ledgerToday: Int
        package var ledgerThisMonth: Int
        /// The days (UTC) whose counts differ.
        package var differingDays: [String] = []

        private enum CodingKeys: String, CodingKey {
            case checked, note
            case postsToday = "posts_today"
            case postsThisMonth = "posts_this_month"
            case ledgerToday = "ledger_today"
            case ledgerThisMonth = "ledger_this_month"
            case differingDays = "differing_days"
        }

        /// Whether X's count and the ledger's differ.
        package var differs: Bool { !differingDays.isEmpty }
    }

    package var now: Date
    package var feeds: [Feed]
    package var budget: Spending
    /// X's count beside the ledger's (nil: not asked, as with `--json` before it was set).
    package var xCount: XCount?

    private enum CodingKeys: String, CodingKey {
        case now, feeds, budget
        case xCount = "x_count"
    }

    /// Sets X's count (`report`) beside the ledger's; without a report, `note` says why there is none.
    package mutating func reconcile(with report: UsageReport?, ledger: Ledger, note: String? = nil) {
        var count = XCount(
            checked: report != nil,
            note: note,
            ledgerToday: ledger.postsToday(at: now),
            ledgerThisMonth: ledger.postsThisMonth(at: now)
        )
        if let report {
            let today = Ledger.dayName(now)
            let month = String(today.prefix(7))
            count.postsToday = report.days[today] ?? 0
            count.postsThisMonth = report.total(from: month)
            let days = Set(report.days.keys).union(ledger.days.keys).filter { $0.hasPrefix(month) && $0 <= today }
            count.differingDays = days.sorted().filter { (report.days[$0] ?? 0) != (ledger.days[$0] ?? 0) }
            if count.differs {
                count.note =
                    "X counts every app of the project, and posts read before the ledger was kept or by another "
                    + "cache directory"
            }
        }
        xCount = count
    }

    /// The status of `feeds` at `now`, read from their caches and the ledger alone (no token, no request).
    package init(of refresh: FeedsRefresh, at now: Date) {
        let ledger = refresh.ledger()
        let budget = refresh.budget
        self.now = now
        feeds = refresh.feeds.map { feed in
            // Each file read once: the due-ness is decided from the same manifest and state.
            let manifest = (try? feed.refresher.store.manifest()) ?? nil
            let state = feed.refresher.store.state()
            let due = feed.refresher.dueness(manifest: manifest, state: state, now: now)
            let settings = feed.refresher.settings
            let quiet = settings.quietHours?.end(ofQuietAt: now, in: settings.timeZone)
            return Feed(
                name: feed.name,
                lastRefresh: manifest?.generatedAt,
                nextDue: due.isDue ? nil : due.until,
                isDue: due.isDue,
                postsToday: ledger.postsToday(at: now, feed: feed.name),
                postsThisMonth: ledger.postsThisMonth(at: now, feed: feed.name),
                budgetSpentUntil: state?.budgetSpentUntil.flatMap { $0 > now ? $0 : nil },
                lastError: state?.lastError?.message,
                quietUntil: quiet,
                quietUntilLocal: quiet.map { QuietHours.clockTime($0, in: settings.timeZone) }
            )
        }
        let month = ledger.postsThisMonth(at: now)
        let lookups = ledger.lookups(at: now)
        self.budget = Spending(
            postsToday: ledger.postsToday(at: now),
            postsThisMonth: month,
            usersToday: ledger.usersToday(at: now),
            usersThisMonth: ledger.usersThisMonth(at: now),
            lookupsToday: lookups.today,
            lookupsThisMonth: lookups.month,
            monthCostUSD: budget.monthCost(ledger, at: now),
            projectedMonthCostUSD: budget.projectedMonthCost(ledger, at: now),
            postsPerDay: budget.postsPerDay,
            usdPerMonth: budget.usdPerMonth,
            usdPerPost: budget.usdPerPost,
            usdPerUser: budget.usdPerUser,
            postsLeftToday: budget.isLimited ? budget.postsLeft(in: ledger, at: now) : nil,
            pausedUntil: ledger.pausedUntil.flatMap { $0 > now ? $0 : nil }
        )
    }

    /// The JSON `kfeed status --json` prints.
    package func jsonData() throws -> Data {
        try InstantFormat.jsonEncoder().encode(self)
    }
}

package import Foundation

/// `DIR/ledger.json`, at the root of a cache that holds several feeds (`DIR/feeds/NAME/`): what X billed for all of
/// them together (each post read, by a search or a post lookup, and each user read, once per UTC day however many
/// feeds read it; the expanded authors of a search are counted as users read, since X does not say whether it
/// bills them), and when a rate limit or a usage cap
/// stops every feed. Read and written through ``CacheRoot``, only under the spending lock (`DIR/ledger.lock`), by
/// ``FeedsRefresh``.
package struct Ledger: Codable, Sendable, Hashable {
    /// The schema version.
    package var schema = 1
    /// Posts read per UTC day (`2026-11-25`), the last ``keptDays`` days.
    package var days: [String: Int] = [:]
    /// The same per feed (a post two feeds read is billed once, to the first).
    package var feeds: [String: [String: Int]] = [:]
    /// The UTC day ``idsRead`` belongs to.
    package var day: String?
    /// The post ids read that day: X bills a post once per UTC day.
    package var idsRead: Set<String> = []
    /// Users read per UTC day (the expanded authors of searches), the last ``keptDays`` days.
    package var users: [String: Int] = [:]
    /// The same per feed.
    package var feedUsers: [String: [String: Int]] = [:]
    /// The user ids read on ``day``.
    package var userIDsRead: Set<String> = []
    /// Posts looked up per UTC day (part of ``days``: what the deleted-post checks cost).
    package var lookups: [String: Int] = [:]
    /// No request for any feed before this instant (a rate limit's reset, a usage cap's period).
    package var pausedUntil: Date?
    /// Why (the error's one-line message).
    package var pauseReason: String?

    /// How many days of counts are kept (two months, for the month's figures and the one before).
    package static let keptDays = 62

    /// An empty ledger.
    package init() {}

    private enum CodingKeys: String, CodingKey {
        case schema, days, day, feeds, users, lookups
        case idsRead = "ids_read"
        case feedUsers = "feed_users"
        case userIDsRead = "user_ids_read"
        case pausedUntil = "paused_until"
        case pauseReason = "pause_reason"
    }

    /// Counts `ids` (posts) and `userIDs` read at `now`: a post or user already read that UTC day is not billed
    /// again. `lookup`: the posts were read by a post lookup. Returns the posts billed.
    @discardableResult
    package mutating func record(
        _ ids: [String],
        users userIDs: [String] = [],
        lookup: Bool = false,
        by feed: String? = nil,
        at now: Date
    ) -> Int {
        let today = Self.dayName(now)
        if day != today {
            day = today
            idsRead = []
            userIDsRead = []
        }
        let new = ids.filter { idsRead.insert($0).inserted }.count
        let newUsers = userIDs.filter { userIDsRead.insert($0).inserted }.count
        days[today, default: 0] += new
        if newUsers > 0 { users[today, default: 0] += newUsers }
        if lookup && new > 0 { lookups[today, default: 0] += new }
        if let feed {
            feeds[feed, default: [:]][today, default: 0] += new
            if newUsers > 0 { feedUsers[feed, default: [:]][today, default: 0] += newUsers }
        }
        let oldest = days.keys.sorted().dropLast(Self.keptDays).last ?? ""
        days = days.filter { $0.key > oldest }
        users = users.filter { $0.key > oldest }
        lookups = lookups.filter { $0.key > oldest }
        feeds = feeds.mapValues { $0.filter { $0.key > oldest } }
        feedUsers = feedUsers.mapValues { $0.filter { $0.key > oldest } }
        return new
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schema = try container.decodeIfPresent(Int.self, forKey: .schema) ?? 1
        days = try container.decodeIfPresent([String: Int].self, forKey: .days) ?? [:]
        feeds = try container.decodeIfPresent([String: [String: Int]].self, forKey: .feeds) ?? [:]
        day = try container.decodeIfPresent(String.self, forKey: .day)
        idsRead = try container.decodeIfPresent(Set<String>.self, forKey: .idsRead) ?? []
        users = try container.decodeIfPresent([String: Int].self, forKey: .users) ?? [:]
        feedUsers = try container.decodeIfPresent([String: [String: Int]].self, forKey: .feedUsers) ?? [:]
        userIDsRead = try container.decodeIfPresent(Set<String>.self, forKey: .userIDsRead) ?? []
        lookups = try container.decodeIfPresent([String: Int].self, forKey: .lookups) ?? [:]
        pausedUntil = try container.decodeIfPresent(Date.self, forKey: .pausedUntil)
        pauseReason = try container.decodeIfPresent(String.self, forKey: .pauseReason)
    }

    /// Users billed on `now`'s UTC day (by `feed`, or by all).
    package func usersToday(at now: Date, feed: String? = nil) -> Int {
        (feed.map { feedUsers[$0] ?? [:] } ?? users)[Self.dayName(now)] ?? 0
    }

    /// Users billed in `now`'s UTC month (by `feed`, or by all).
    package func usersThisMonth(at now: Date, feed: String? = nil) -> Int {
        let month = String(Self.dayName(now).prefix(7))
        return (feed.map { feedUsers[$0] ?? [:] } ?? users).filter { $0.key.hasPrefix(month) }.values.reduce(0, +)
    }

    /// Posts looked up (the deleted-post checks) on `now`'s UTC day and in its month.
    package func lookups(at now: Date) -> (today: Int, month: Int) {
        let today = Self.dayName(now)
        return (lookups[today] ?? 0, lookups.filter { $0.key.hasPrefix(today.prefix(7)) }.values.reduce(0, +))
    }

    /// Posts billed on `now`'s UTC day (by `feed`, or by all).
    package func postsToday(at now: Date, feed: String? = nil) -> Int {
        counts(feed)[Self.dayName(now)] ?? 0
    }

    /// Posts billed in `now`'s UTC month, today included (by `feed`, or by all).
    package func postsThisMonth(at now: Date, feed: String? = nil) -> Int {
        let month = String(Self.dayName(now).prefix(7))
        return counts(feed).filter { $0.key.hasPrefix(month) }.values.reduce(0, +)
    }

    private func counts(_ feed: String?) -> [String: Int] {
        feed.map { feeds[$0] ?? [:] } ?? days
    }

    /// `date`'s UTC day as `YYYY-MM-DD`.
    package static func dayName(_ date: Date) -> String {
        String(InstantFormat.string(from: date).prefix(10))
    }

    /// The UTC calendar, for days and months.
    package static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar
    }()

    /// The start of the UTC day after `now`'s: when a day's budget renews.
    package static func nextDay(after now: Date) -> Date {
        let start = utc.startOfDay(for: now)
        return utc.date(byAdding: .day, value: 1, to: start) ?? start.addingTimeInterval(86_400)
    }
}

/// The spend cap (`[budget]` in the feeds file): posts per UTC day and/or dollars per month, at a price per post
/// and per user read (X's pay-per-use bills each post and each user read, once per UTC day).
package struct Budget: Sendable, Hashable {
    /// The most posts all feeds together may read in a UTC day.
    package var postsPerDay: Int?
    /// The most all feeds together may cost in a UTC month, in US dollars (posts and users).
    package var usdPerMonth: Double?
    /// What X bills per post read, in US dollars.
    package var usdPerPost: Double
    /// What X bills per user read, in US dollars.
    package var usdPerUser: Double

    /// X's pay-per-use price of a post read, in US dollars.
    package static let defaultPrice = 0.005
    /// X's pay-per-use price of a user read, in US dollars.
    package static let defaultUserPrice = 0.010

    /// Creates a cap; nil limits do not limit.
    package init(
        postsPerDay: Int? = nil,
        usdPerMonth: Double? = nil,
        usdPerPost: Double = Self.defaultPrice,
        usdPerUser: Double = Self.defaultUserPrice
    ) {
        self.postsPerDay = postsPerDay
        self.usdPerMonth = usdPerMonth
        self.usdPerPost = usdPerPost
        self.usdPerUser = usdPerUser
    }

    /// What `posts` and `users` read cost, in US dollars.
    package func cost(posts: Int, users: Int) -> Double {
        Double(posts) * usdPerPost + Double(users) * usdPerUser
    }

    /// What `now`'s UTC month cost so far, in US dollars.
    package func monthCost(_ ledger: Ledger, at now: Date) -> Double {
        cost(posts: ledger.postsThisMonth(at: now), users: ledger.usersThisMonth(at: now))
    }

    /// Whether anything is capped.
    package var isLimited: Bool { postsPerDay != nil || usdPerMonth != nil }

    /// The posts all feeds may still read on `now`'s UTC day: the day's cap less what was read, and the month's
    /// money spread evenly over the days left in it (so that an early busy day cannot spend the whole month). The
    /// money left buys posts at their worst cost: each with an author read with it (a post and a user).
    package func postsLeft(in ledger: Ledger, at now: Date) -> Int {
        let today = ledger.postsToday(at: now)
        var left = postsPerDay.map { $0 - today } ?? Int.max
        if let usdPerMonth, usdPerPost + usdPerUser > 0 {
            let spentToday = cost(posts: today, users: ledger.usersToday(at: now))
            let before = monthCost(ledger, at: now) - spentToday
            let daysLeft = Self.daysLeftInMonth(at: now)
            let todayMoney = (usdPerMonth - before) / Double(daysLeft) - spentToday
            left = min(left, Int((todayMoney / (usdPerPost + usdPerUser)).rounded(.down)))
        }
        return max(0, left)
    }

    /// The month's projected cost at `now`: what was read so far this month, at its daily rate, over the whole month.
    package func projectedMonthCost(_ ledger: Ledger, at now: Date) -> Double {
        let (day, days) = Self.dayOfMonth(now)
        return monthCost(ledger, at: now) / Double(day) * Double(days)
    }

    /// The days of `now`'s UTC month from its day to the last, both included.
    static func daysLeftInMonth(at now: Date) -> Int {
        let (day, days) = dayOfMonth(now)
        return max(1, days - day + 1)
    }

    /// `now`'s day of its UTC month (from 1), and how many days the month has.
    private static func dayOfMonth(_ now: Date) -> (day: Int, days: Int) {
        (max(1, Ledger.utc.component(.day, from: now)), Ledger.utc.range(of: .day, in: .month, for: now)?.count ?? 30)
    }
}

package import Foundation

/// `DIR/ledger.json`, at the root of a cache that holds several feeds (`DIR/feeds/NAME/`): what X billed for all of
/// them together (each post read, once per UTC day however many feeds read it), and when a rate limit or a usage cap
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
    /// No request for any feed before this instant (a rate limit's reset, a usage cap's period).
    package var pausedUntil: Date?
    /// Why (the error's one-line message).
    package var pauseReason: String?

    /// How many days of counts are kept (two months, for the month's figures and the one before).
    package static let keptDays = 62

    /// An empty ledger.
    package init() {}

    private enum CodingKeys: String, CodingKey {
        case schema, days, day, feeds
        case idsRead = "ids_read"
        case pausedUntil = "paused_until"
        case pauseReason = "pause_reason"
    }

    /// Counts `ids` read at `now`: a post already read that UTC day is not billed again. Returns the posts billed.
    @discardableResult
    package mutating func record(_ ids: [String], by feed: String? = nil, at now: Date) -> Int {
        let today = Self.dayName(now)
        if day != today {
            day = today
            idsRead = []
        }
        let new = ids.filter { idsRead.insert($0).inserted }.count
        days[today, default: 0] += new
        if let feed { feeds[feed, default: [:]][today, default: 0] += new }
        let oldest = days.keys.sorted().dropLast(Self.keptDays).last ?? ""
        days = days.filter { $0.key > oldest }
        feeds = feeds.mapValues { $0.filter { $0.key > oldest } }
        return new
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
/// (X's pay-per-use bills each post read, once per UTC day).
package struct Budget: Sendable, Hashable {
    /// The most posts all feeds together may read in a UTC day.
    package var postsPerDay: Int?
    /// The most all feeds together may cost in a UTC month, in US dollars.
    package var usdPerMonth: Double?
    /// What X bills per post read, in US dollars.
    package var usdPerPost: Double

    /// X's pay-per-use price of a post read, in US dollars.
    package static let defaultPrice = 0.005

    /// Creates a cap; nil limits do not limit.
    package init(postsPerDay: Int? = nil, usdPerMonth: Double? = nil, usdPerPost: Double = Self.defaultPrice) {
        self.postsPerDay = postsPerDay
        self.usdPerMonth = usdPerMonth
        self.usdPerPost = usdPerPost
    }

    /// Whether anything is capped.
    package var isLimited: Bool { postsPerDay != nil || usdPerMonth != nil }

    /// The posts all feeds may still read on `now`'s UTC day: the day's cap less what was read, and the month's
    /// money spread evenly over the days left in it (so that an early busy day cannot spend the whole month).
    package func postsLeft(in ledger: Ledger, at now: Date) -> Int {
        let today = ledger.postsToday(at: now)
        var left = postsPerDay.map { $0 - today } ?? Int.max
        if let usdPerMonth, usdPerPost > 0 {
            let monthCap = Int((usdPerMonth / usdPerPost).rounded(.down))
            let before = ledger.postsThisMonth(at: now) - today
            let daysLeft = Self.daysLeftInMonth(at: now)
            left = min(left, (monthCap - before) / daysLeft - today)
        }
        return max(0, left)
    }

    /// The month's projected cost at `now`: what was read so far this month, at its daily rate, over the whole month.
    package func projectedMonthCost(_ ledger: Ledger, at now: Date) -> Double {
        let (day, days) = Self.dayOfMonth(now)
        return Double(ledger.postsThisMonth(at: now)) / Double(day) * Double(days) * usdPerPost
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

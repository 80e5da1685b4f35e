import Foundation
import KFeedTestSupport
import Testing

@testable import KFeed

/// The ledger counts what X bills (each post once per UTC day, all feeds together and per feed), and the budget
/// says how many posts are left from it.
struct LedgerTests {
    private static let t0 = Date(timeIntervalSince1970: 1_795_338_000)  // 2026-11-22T09:00:00Z

    @Test func aPostIsBilledOncePerUTCDayWhicheverFeedReadsIt() {
        var ledger = Ledger()
        #expect(ledger.record(["1", "2", "3"], by: "kpop", at: Self.t0) == 3)
        #expect(ledger.record(["2", "3", "4"], by: "pets", at: Self.t0.addingTimeInterval(3_600)) == 1)
        #expect(ledger.postsToday(at: Self.t0) == 4)
        #expect(ledger.postsToday(at: Self.t0, feed: "kpop") == 3)
        #expect(ledger.postsToday(at: Self.t0, feed: "pets") == 1)
        // The next UTC day bills the same post again.
        let tomorrow = Self.t0.addingTimeInterval(15 * 3_600)
        #expect(ledger.record(["1"], by: "kpop", at: tomorrow) == 1)
        #expect(ledger.postsToday(at: tomorrow) == 1)
        #expect(ledger.postsThisMonth(at: tomorrow) == 5)
        #expect(ledger.postsThisMonth(at: tomorrow, feed: "kpop") == 4)
    }

    @Test func countsOlderThanTwoMonthsGo() {
        var ledger = Ledger()
        for day in 0..<70 {
            ledger.record(["\(day)"], by: "kpop", at: Self.t0.addingTimeInterval(Double(day) * 86_400))
        }
        #expect(ledger.days.count == Ledger.keptDays)
        #expect(ledger.feeds["kpop"]?.count == Ledger.keptDays)
        #expect(ledger.idsRead == ["69"])
    }

    @Test func theDailyCapLeavesWhatIsUnread() {
        var ledger = Ledger()
        ledger.record((0..<45).map(String.init), at: Self.t0)
        #expect(Budget(postsPerDay: 60).postsLeft(in: ledger, at: Self.t0) == 15)
        #expect(Budget(postsPerDay: 40).postsLeft(in: ledger, at: Self.t0) == 0)
        #expect(Budget().postsLeft(in: ledger, at: Self.t0) == Int.max)
        #expect(!Budget().isLimited)
    }

    @Test func theMonthlyCapIsSpreadOverTheDaysLeft() {
        // $9 a month at $0.005 a post (users free) is 1,800 posts; on 22 November, 9 days are left (22…30).
        let postsOnly = Budget(usdPerMonth: 9, usdPerUser: 0)
        var ledger = Ledger()
        #expect(postsOnly.postsLeft(in: ledger, at: Self.t0) == 200)
        // 900 posts read earlier in the month leave 900 for 9 days; 50 read today leave 50.
        ledger.days["2026-11-05"] = 900
        ledger.record((0..<50).map(String.init), at: Self.t0)
        #expect(postsOnly.postsLeft(in: ledger, at: Self.t0) == 50)
        // The stricter of the two caps holds.
        #expect(Budget(postsPerDay: 60, usdPerMonth: 9, usdPerUser: 0).postsLeft(in: ledger, at: Self.t0) == 10)
        #expect(postsOnly.projectedMonthCost(ledger, at: Self.t0) > 6.3)
    }

    @Test func usersAreBilledBesidePostsOncePerDayAndTheCapCountsBoth() {
        var ledger = Ledger()
        #expect(ledger.record(["1", "2"], users: ["u1", "u2"], by: "kpop", at: Self.t0) == 2)
        ledger.record(["2", "3"], users: ["u2", "u3"], by: "pets", at: Self.t0)
        ledger.record(["1"], lookup: true, by: "kpop", at: Self.t0)
        ledger.record(["9"], lookup: true, by: "kpop", at: Self.t0)
        #expect(ledger.postsToday(at: Self.t0) == 4)
        #expect(ledger.usersToday(at: Self.t0) == 3)
        #expect(ledger.usersToday(at: Self.t0, feed: "pets") == 1)
        // A lookup of a post read earlier that day is not billed again; a new one is.
        #expect(ledger.lookups(at: Self.t0) == (1, 1))
        let budget = Budget()
        #expect(budget.cost(posts: 4, users: 3) == 4 * 0.005 + 3 * 0.010)
        #expect(abs(budget.monthCost(ledger, at: Self.t0) - 0.05) < 1e-9)
        // $9 a month, nothing spent: $1 a day for the 9 days left, each post at worst with its author ($0.015).
        #expect(Budget(usdPerMonth: 9).postsLeft(in: Ledger(), at: Self.t0) == 66)
        // Today's $0.05 comes off today's dollar.
        #expect(Budget(usdPerMonth: 9).postsLeft(in: ledger, at: Self.t0) == 63)
    }

    @Test func theBudgetRenewsAtTheNextUTCMidnight() {
        #expect(InstantFormat.string(from: Ledger.nextDay(after: Self.t0)) == "2026-11-23T00:00:00Z")
        let midnight = Ledger.nextDay(after: Self.t0)
        #expect(Ledger.nextDay(after: midnight) == midnight.addingTimeInterval(86_400))
    }

    @Test func theLedgerRoundTripsThroughItsJSON() throws {
        var ledger = Ledger()
        ledger.record(["7", "8"], users: ["u7"], lookup: true, by: "kpop", at: Self.t0)
        ledger.pausedUntil = Self.t0.addingTimeInterval(900)
        ledger.pauseReason = "rate limited"
        let data = try InstantFormat.jsonEncoder().encode(ledger)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"paused_until\" : \"2026-11-22T09:15:00Z\""))
        #expect(try InstantFormat.jsonDecoder().decode(Ledger.self, from: data) == ledger)
    }
}

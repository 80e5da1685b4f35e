import Foundation
import KFeedBase
import KFeedTestSupport
import Testing

@testable import KFeed

/// Several feeds under one spend cap, against a simulated X that gives each query its own posts (the worst case for
/// the bill): never over the cap on any UTC day, every screen with a picture every hour, the ledger agreeing with
/// what X counted, and a rate limit for one feed holding the others.
struct FeedsRefreshTests {
    private static let t0 = Date(timeIntervalSince1970: 1_795_338_000)  // 2026-11-22T09:00:00Z

    private static let three = ["kpop", "pets", "frame"]

    @Test func aWeekOfThreeFeedsNeverGoesOverSixtyPostsADayAndNoScreenIsEverBlank() async throws {
        try await TemporaryDirectory.withAsync { root in
            let x = SimulatedX(start: Self.t0, postsPerDay: 400)
            let refresh = try FeedsRefresh.testing(Self.three, in: root, transport: x, budget: Budget(postsPerDay: 60))
            var blank: [String] = []
            for quarter in 0..<(7 * 96) {
                let now = Self.t0.addingTimeInterval(Double(quarter) * 900)
                x.now = now
                for (name, result) in try await refresh.refresh(now: now) {
                    if case .failed(let error) = result { Issue.record("\(name) failed at \(now): \(error)") }
                }
                for feed in refresh.feeds {
                    let manifest = try feed.refresher.store.manifest()
                    if manifest?.currentEntryIndex(at: now) == nil { blank.append("\(feed.name) at \(now)") }
                }
            }
            let days = x.days
            #expect(days.allSatisfy { $0.postsBilled <= 60 }, "\(days.map(\.postsBilled))")
            // The cap is used, not hoarded: every full day reads close to it.
            #expect(days.dropFirst().dropLast().allSatisfy { $0.postsBilled >= 40 }, "\(days.map(\.postsBilled))")
            // Every screen has an entry for every hour: a timeline the cap cut short is followed by repeats its
            // reads still cover, and its last entry is looked up from the posts the cap keeps for that.
            #expect(blank.isEmpty, "\(blank.prefix(5)) (\(blank.count) quarter hours without a picture)")
            let ledger = refresh.ledger()
            let lastDay = Ledger.dayName(Self.t0.addingTimeInterval(7 * 86_400 - 900))
            #expect(ledger.days[lastDay] == days.last?.postsBilled)
            #expect(ledger.postsThisMonth(at: Self.t0) == days.prefix(9).reduce(0) { $0 + $1.postsBilled })
            // Fair shares: no feed read more than twice another's posts over the week.
            let perFeed = ["kpop", "pets", "frame"].map { ledger.feeds[$0]?.values.reduce(0, +) ?? 0 }
            #expect((perFeed.max() ?? 0) <= 2 * (perFeed.min() ?? 0), "\(perFeed)")
        }
    }

    @Test func aSpentBudgetMakesNoRequestAndTheTimelinesKeepTheirPictures() async throws {
        try await TemporaryDirectory.withAsync { root in
            let x = SimulatedX(start: Self.t0, postsPerDay: 400)
            let first = try FeedsRefresh.testing(["kpop", "pets"], in: root, transport: x, budget: Budget())
            let feeds = first.feeds
            _ = try await first.refresh(now: Self.t0)
            let requests = x.searchParameters.count
            // Today's cap is already spent: forced refreshes make none, yet each feed has a whole timeline.
            let capped = FeedsRefresh(
                root: root,
                feeds: feeds,
                budget: Budget(postsPerDay: 10)
            )
            let later = Self.t0.addingTimeInterval(3_600)
            x.now = later
            for (name, result) in try await capped.refresh(now: later, force: true) {
                guard case .done(.refreshed(let manifest, _)) = result else {
                    Issue.record("\(name) did not refresh")
                    continue
                }
                // Made of the posts in hand: the first search's candidates, then its shown posts as repeats.
                #expect(manifest.entries.count == 24)
                let read = Set(x.postsReturned)
                #expect(manifest.entries.allSatisfy { SimulatedX.post(ofID: $0.tweetID).map(read.contains) ?? false })
                #expect(manifest.reloadAfter == Ledger.nextDay(after: later))
                let state = try #require(feeds.first { $0.name == name }?.refresher.store.state())
                #expect(state.budgetSpentUntil == Ledger.nextDay(after: later))
                #expect(state.lastError == nil)
            }
            #expect(x.searchParameters.count == requests)
        }
    }

    @Test func aRateLimitForOneFeedHoldsTheOthersUntilItsReset() async throws {
        try await TemporaryDirectory.withAsync { root in
            let x = SimulatedX(start: Self.t0, postsPerDay: 400)
            let reset = Self.t0.addingTimeInterval(600)
            x.rateLimitedUntil = reset
            let refresh = try FeedsRefresh.testing(Self.three, in: root, transport: x, budget: Budget())
            let results = try await refresh.refresh(now: Self.t0)
            guard case .failed(let error) = results[0].result else {
                Issue.record("\(results[0].name) did not fail")
                return
            }
            #expect(error.code == .rateLimited)
            for (_, result) in results.dropFirst() {
                guard case .paused(let until, _) = result else {
                    Issue.record("not paused")
                    continue
                }
                #expect(until == reset)
            }
            #expect(x.searchParameters.count == 1)
            #expect(refresh.ledger().pausedUntil == reset)
            // After the reset the feeds it held are asked again; the one that met it waits out its own back-off.
            x.now = reset
            let after = try await refresh.refresh(now: reset)
            for (name, result) in after {
                switch result {
                case .done(.refreshed): #expect(name != "kpop")
                case .done(.notDue(let until)): #expect(name == "kpop" && (until ?? .distantFuture) >= reset)
                default: Issue.record("\(name) after the reset: not refreshed")
                }
            }
        }
    }
}

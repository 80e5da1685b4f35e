import Foundation
import KFeedBase
import KFeedTestSupport
import Testing

@testable import KFeed

/// Deleted within a day: a post read at C is off every screen before C + 24 h, either because the timeline's hours
/// (and the refresh due at its end) take it off in time, with no lookup, or because a lookup confirmed it again; a post
/// gone from X leaves the timeline and the cache at the run that learns it; repeats are looked up before they are shown
/// again; a post that cannot be checked is not shown once its confirmation is 23.5 hours old.
struct RefresherChecksTests {
    private static let t0 = Date(timeIntervalSince1970: 1_795_338_000)  // 2026-11-22T09:00:00Z
    private static let hour: TimeInterval = 3_600

    private static func refresher(_ directory: URL, x: SimulatedX, entries: Int = 24) -> Refresher {
        Refresher.testing(
            in: directory,
            transport: x,
            settings: .init(query: .default, builder: TimelineBuilder(entryCount: entries), size: .small)
        )
    }

    private static func refreshed(_ outcome: Refresher.Outcome) throws -> Manifest {
        guard case .refreshed(let manifest, _) = outcome else { throw KFeedError(.io, "expected a refresh") }
        return manifest
    }

    /// Runs the refresher from cron every 15 minutes from `start` (exclusive) to `end` (inclusive).
    private static func cron(
        _ refresher: Refresher,
        x: SimulatedX,
        from start: TimeInterval,
        through end: TimeInterval
    ) async {
        var at = start + 900
        while at <= end {
            let now = Self.t0.addingTimeInterval(at)
            x.now = now
            _ = try? await refresher.refresh(now: now)
            at += 900
        }
    }

    @Test func aHealthyDayLooksNothingUpTheTimelinesHoursTakeEveryPostOffInTime() async throws {
        try await TemporaryDirectory.withAsync { directory in
            let x = SimulatedX(start: Self.t0, postsPerDay: 400)
            let refresher = Self.refresher(directory, x: x)
            let first = try Self.refreshed(try await refresher.refresh(now: Self.t0))
            // Every entry ends before its read plus 23.5 hours: the last one by the refresh due at its date, made by a
            // cron run within 20 minutes.
            #expect(first.reloadAfter == Self.t0.addingTimeInterval(23 * Self.hour))
            let lastEnd = refresher.lastEnd(of: first, state: try #require(refresher.store.state()), now: Self.t0)
            #expect(lastEnd == Self.t0.addingTimeInterval(23 * Self.hour + 20 * 60))
            let checks = try #require(refresher.store.checks())
            #expect(checks.nextLookup(for: first, lastEnd: lastEnd) == nil)
            #expect(refresher.store.state()?.lookupDue == nil)
            // Two days of cron: one search a day, no lookup at all.
            await Self.cron(refresher, x: x, from: 0, through: 47 * Self.hour)
            #expect(x.lookupRequests.isEmpty)
            #expect(x.searchParameters.count == 3)
            let now = try #require(try refresher.store.manifest())
            #expect(now.generatedAt == Self.t0.addingTimeInterval(46 * Self.hour))
        }
    }

    @Test func aFailedRefreshAtTheEndLooksUpThePostsItKeepsOnScreenAndKeepsThemWhenThere() async throws {
        try await TemporaryDirectory.withAsync { directory in
            let x = SimulatedX(start: Self.t0, postsPerDay: 400)
            let refresher = Self.refresher(directory, x: x)
            let first = try Self.refreshed(try await refresher.refresh(now: Self.t0))
            // The search due at 23 h is refused (a rate limit for three hours); lookups still answer.
            let end = Self.t0.addingTimeInterval(23 * Self.hour)
            x.rateLimitedUntil = end.addingTimeInterval(3 * Self.hour)
            x.now = end
            await #expect(throws: KFeedError.self) { try await refresher.refresh(now: end) }
            // The last entry now stays until the retry, past its read plus 23.5 hours: looked up at the next run.
            #expect(refresher.store.state()?.lookupDue == end.addingTimeInterval(900))
            let next = end.addingTimeInterval(900)
            x.now = next
            guard case .notDue = try await refresher.refresh(now: next) else {
                Issue.record("the lookup made a new timeline")
                return
            }
            #expect(x.lookupRequests == [[try #require(first.entries.last?.tweetID)]])
            #expect(try refresher.store.manifest() == first)
            // Confirmed again at 23.25 h: it may stay until the retry's refresh (26 h and 20 min) with no other lookup.
            #expect(refresher.store.state()?.lookupDue == nil)
        }
    }

    @Test func aPostDeletedOnXLeavesTheTimelineAndItsFilesTheCacheAtTheNextRun() async throws {
        try await TemporaryDirectory.withAsync { directory in
            let x = SimulatedX(start: Self.t0, postsPerDay: 400)
            let refresher = Self.refresher(directory, x: x)
            let first = try Self.refreshed(try await refresher.refresh(now: Self.t0))
            let victim = try #require(first.entries.last)
            let image = try #require(victim.image)
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(image).path))
            x.deleted = [try #require(SimulatedX.post(ofID: victim.tweetID))]
            // The refresh due at 23 h fails: the lookup at the next run finds the post on screen gone, and, with the
            // search held back by the rate limit, the timeline is committed without it.
            let end = Self.t0.addingTimeInterval(23 * Self.hour)
            x.rateLimitedUntil = end.addingTimeInterval(3 * Self.hour)
            x.now = end
            await #expect(throws: KFeedError.self) { try await refresher.refresh(now: end) }
            let next = end.addingTimeInterval(900)
            x.now = next
            _ = try await refresher.refresh(now: next)
            let second = try #require(try refresher.store.manifest())
            #expect(!second.entries.contains { $0.tweetID == victim.tweetID })
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(image).path))
            let checks = try #require(refresher.store.checks())
            #expect(checks.gone[victim.tweetID]?.reason == .deleted)
            #expect(x.searchParameters.count == 2)
            // The entry before it is back on screen: confirmed at t0, it goes at 23.5 h unless a lookup confirms it.
            #expect(second.lastEntryIndex(at: next) == second.entries.count - 1)
        }
    }

    @Test func aPostDeletedDuringTheDayIsOffTheScreenAtItsHoursEndWithoutALookup() async throws {
        try await TemporaryDirectory.withAsync { directory in
            let x = SimulatedX(start: Self.t0, postsPerDay: 400)
            let refresher = Self.refresher(directory, x: x)
            let first = try Self.refreshed(try await refresher.refresh(now: Self.t0))
            // A post of the middle of the day is deleted at 1 h: it is off the screen at its hour's end (12 h, within
            // 24 h of its read and of its deletion) and never shown again.
            let victim = first.entries[11]
            x.deleted = [try #require(SimulatedX.post(ofID: victim.tweetID))]
            await Self.cron(refresher, x: x, from: 0, through: 23 * Self.hour)
            let second = try #require(try refresher.store.manifest())
            #expect(second.generatedAt == Self.t0.addingTimeInterval(23 * Self.hour))
            #expect(!second.entries.contains { $0.tweetID == victim.tweetID })
        }
    }

    @Test func repeatsAreLookedUpBeforeTheyAreShownAgainAndAGoneOneIsPassedOver() async throws {
        try await TemporaryDirectory.withAsync { directory in
            // A quiet topic: six new posts a day for twelve entries, so a day later repeats fill the timeline.
            let x = SimulatedX(start: Self.t0, postsPerDay: 6)
            let refresher = Self.refresher(directory, x: x, entries: 12)
            let first = try Self.refreshed(try await refresher.refresh(now: Self.t0))
            let later = Self.t0.addingTimeInterval(86_400)
            x.now = later
            let firstIDs = Set(first.entries.map(\.tweetID))
            let deleted = try #require(first.entries.first?.tweetID)
            x.deleted = [try #require(SimulatedX.post(ofID: deleted))]
            let second = try Self.refreshed(try await refresher.refresh(now: later, force: true))
            let repeats = second.entries.filter(\.isRepeat)
            #expect(!repeats.isEmpty)
            let asked = Set(x.lookupRequests.joined())
            #expect(repeats.allSatisfy { asked.contains($0.tweetID) })
            #expect(!second.entries.contains { $0.tweetID == deleted })
            #expect(asked.isSubset(of: firstIDs.union(second.entries.map(\.tweetID))))
        }
    }

    @Test func theLastEntrysEndCountsFromTheQuietHoursEndAndALookupRunsInTheNight() async throws {
        try await TemporaryDirectory.withAsync { directory in
            let x = SimulatedX(start: Self.t0, postsPerDay: 400)
            var settings = FeedSettings(query: .default, builder: TimelineBuilder(entryCount: 8), size: .small)
            settings.quietHours = try QuietHours(parsing: "23:00-07:00")
            let refresher = Refresher.testing(in: directory, transport: x, settings: settings)
            // Made at 22:30 UTC (the eve): eight hours reload at 05:30, in the night, so the refresh waits until 07:00.
            let eve = Self.t0.addingTimeInterval(13.5 * Self.hour)
            x.now = eve
            let manifest = try Self.refreshed(try await refresher.refresh(now: eve, force: true))
            let morning = Self.t0.addingTimeInterval(22 * Self.hour)
            let state = try #require(refresher.store.state())
            #expect(refresher.lastEnd(of: manifest, state: state, now: eve) == morning.addingTimeInterval(20 * 60))
            let night = Self.t0.addingTimeInterval(17 * Self.hour)
            #expect(refresher.lastEnd(of: manifest, state: state, now: night) == morning.addingTimeInterval(20 * 60))
            // Read at 22:30 and off by 07:20: no lookup.
            #expect(state.lookupDue == nil)
            // A lookup that falls due in the night runs (it is no search); a search due then waits for 07:00.
            var due = state
            due.lookupDue = night.addingTimeInterval(-Self.hour)
            let lookup = refresher.dueness(manifest: manifest, state: due, now: night)
            #expect(lookup.isDue && lookup.lookupOnly)
            due.lookupDue = nil
            due.retryAfter = night.addingTimeInterval(-Self.hour)
            #expect(refresher.dueness(manifest: manifest, state: due, now: night).isDue == false)
            #expect(refresher.searchHeldBack(due, now: night))
        }
    }

    @Test func aPostThatCannotBeCheckedGoesWhenItsConfirmationIsTwentyThreeAndAHalfHoursOld() async throws {
        try await TemporaryDirectory.withAsync { directory in
            let x = SimulatedX(start: Self.t0, postsPerDay: 400)
            let refresher = Self.refresher(directory, x: x, entries: 24)
            let first = try Self.refreshed(try await refresher.refresh(now: Self.t0))
            // From 23 h X fails (searches and lookups): the timeline on screen keeps its last entry for now.
            x.isFailing = true
            await Self.cron(refresher, x: x, from: 22.75 * Self.hour, through: 23.25 * Self.hour)
            #expect(try refresher.store.manifest() == first)
            // At 23.5 h the lookup fails too, and no post read at t0 may still be shown: the timeline's remaining
            // entries go, and with nothing confirmed since the timeline is empty, saying why.
            await Self.cron(refresher, x: x, from: 23.25 * Self.hour, through: 23.5 * Self.hour)
            #expect(!x.lookupRequests.isEmpty)
            let manifest = try #require(try refresher.store.manifest())
            #expect(manifest.entries.isEmpty)
            #expect(manifest.emptyReason != nil)
            #expect(
                !FileManager.default.fileExists(
                    atPath: directory.appendingPathComponent(first.entries[23].image ?? "-").path
                )
            )
        }
    }
}

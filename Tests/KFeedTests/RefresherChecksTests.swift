import Foundation
import KFeedBase
import KFeedTestSupport
import Testing

@testable import KFeed

/// Deleted within a day: the posts still on screen 20 hours after they were read are looked up (no search), a post
/// gone from X leaves the timeline and the cache at that run, repeats are looked up before they are shown again, and
/// a post that cannot be checked is not shown once its confirmation is 23 hours old.
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

    @Test func postsShownTwentyHoursAfterTheirReadAreLookedUpWithoutASearch() async throws {
        try await TemporaryDirectory.withAsync { directory in
            let x = SimulatedX(start: Self.t0, postsPerDay: 400)
            let refresher = Self.refresher(directory, x: x)
            let first = try Self.refreshed(try await refresher.refresh(now: Self.t0))
            #expect(x.lookupRequests.isEmpty)  // everything was read just now
            let state = try #require(refresher.store.state())
            #expect(state.lookupDue == Self.t0.addingTimeInterval(20 * Self.hour))
            // Not due before: the cron run reads state.json and asks nothing.
            let early = Self.t0.addingTimeInterval(19 * Self.hour)
            x.now = early
            guard case .notDue(let until) = try await refresher.refresh(now: early) else {
                Issue.record("due at 19 h")
                return
            }
            #expect(until == Self.t0.addingTimeInterval(20 * Self.hour))
            // At 20 h: one lookup of the four posts still to be shown, no search, nothing committed but the state.
            let searches = x.searchParameters.count
            let due = Self.t0.addingTimeInterval(20 * Self.hour)
            x.now = due
            guard case .notDue = try await refresher.refresh(now: due) else {
                Issue.record("a lookup with every post present made a new timeline")
                return
            }
            #expect(x.searchParameters.count == searches)
            #expect(x.lookupRequests == [first.entries.suffix(4).map(\.tweetID)])
            #expect(try refresher.store.manifest() == first)
            // Next: the last entry (on screen until a timeline replaces it) 20 h after this lookup.
            #expect(refresher.store.state()?.lookupDue == due.addingTimeInterval(20 * Self.hour))
        }
    }

    @Test func aPostDeletedOnXLeavesTheTimelineAndItsFilesTheCacheAtTheNextRun() async throws {
        try await TemporaryDirectory.withAsync { directory in
            let x = SimulatedX(start: Self.t0, postsPerDay: 400)
            let refresher = Self.refresher(directory, x: x)
            let first = try Self.refreshed(try await refresher.refresh(now: Self.t0))
            let victim = first.entries[21]
            let image = try #require(victim.image)
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(image).path))
            x.deleted = [try #require(SimulatedX.post(ofID: victim.tweetID))]
            let due = Self.t0.addingTimeInterval(20 * Self.hour)
            x.now = due
            let second = try Self.refreshed(try await refresher.refresh(now: due))
            #expect(!second.entries.contains { $0.tweetID == victim.tweetID })
            #expect(second.entries.count == 24)
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(image).path))
            let checks = try #require(refresher.store.checks())
            #expect(checks.gone[victim.tweetID]?.reason == .deleted)
            // The entry on screen at 20 h is the new timeline's first: a picture every hour.
            #expect(second.currentEntryIndex(at: due) == 0)
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

    @Test func aPostThatCannotBeCheckedGoesWhenItsConfirmationIsTwentyThreeHoursOld() async throws {
        try await TemporaryDirectory.withAsync { directory in
            let x = SimulatedX(start: Self.t0, postsPerDay: 400)
            let refresher = Self.refresher(directory, x: x, entries: 24)
            let first = try Self.refreshed(try await refresher.refresh(now: Self.t0))
            // From 20 h on the spend cap allows nothing: the lookup is not made, the posts stay for now.
            let spent = Refresher.PostBudget(posts: 0, renewsAt: Self.t0.addingTimeInterval(86_400)) { _ in }
            let due = Self.t0.addingTimeInterval(20 * Self.hour)
            x.now = due
            guard case .notDue = try await refresher.refresh(now: due, budget: spent) else {
                Issue.record("the unchecked posts were taken out before their time")
                return
            }
            #expect(x.lookupRequests.isEmpty)
            #expect(try refresher.store.manifest() == first)
            // Asked again within the hour.
            #expect(refresher.store.state()?.lookupDue == due.addingTimeInterval(Self.hour))
            // At 23 h no post read at t0 may still be shown: the timeline's remaining entries go, and with nothing
            // else in hand the timeline is empty, saying why.
            let expiry = Self.t0.addingTimeInterval(23 * Self.hour)
            x.now = expiry
            _ = try await refresher.refresh(now: expiry, budget: spent)
            let manifest = try #require(try refresher.store.manifest())
            #expect(manifest.entries.isEmpty)
            #expect(manifest.emptyReason != nil)
            #expect(
                !FileManager.default.fileExists(
                    atPath: directory.appendingPathComponent(first.entries[23].image ?? "-").path
                )
            )
            #expect(x.searchParameters.count == 1)
        }
    }
}

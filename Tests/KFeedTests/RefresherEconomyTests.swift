import Foundation
import KFeedBase
import KFeedTestSupport
import Testing

@testable import KFeed
@testable import KFeedHTTP
@testable import KFeedImages

/// What a refresh reads from X: a later refresh continues from `since_id`, asks for fewer posts when earlier pages
/// left usable candidates, and on a quiet topic fills the timeline from those candidates and from older posts never
/// read before, never from what was shown.
struct RefresherEconomyTests {
    private static let t0 = Date(timeIntervalSince1970: 1_795_338_000)  // 2026-11-22T09:00:00Z

    private static func refresher(_ directory: URL, x: SimulatedX, entries: Int, maxTries: Int = 1) -> Refresher {
        Refresher.testing(
            in: directory,
            transport: x,
            settings: .init(query: .default, builder: TimelineBuilder(entryCount: entries), size: .small),
            maxTries: maxTries
        )
    }

    private static func refreshed(_ outcome: Refresher.Outcome) throws -> Manifest {
        guard case .refreshed(let manifest, _) = outcome else { throw KFeedError(.io, "expected a refresh") }
        return manifest
    }

    /// The posts a timeline showed before its reload: the last entry begins as the next timeline replaces it.
    private static func shown(_ manifest: Manifest) -> [String] {
        manifest.entries.filter { $0.date < manifest.reloadAfter ?? .distantFuture }.map(\.tweetID)
    }

    @Test func theNextRefreshContinuesFromTheNewestPostRead() async throws {
        try await TemporaryDirectory.withAsync { directory in
            let x = SimulatedX(start: Self.t0, postsPerDay: 400)
            let refresher = Self.refresher(directory, x: x, entries: 24)
            let first = try Self.refreshed(try await refresher.refresh(now: Self.t0))
            #expect(first.entries.count == 24)
            let firstSearch = try #require(x.searchParameters.first)
            #expect(firstSearch["since_id"] == nil)
            #expect(firstSearch["max_results"] == "30")
            let newestRead = try #require(refresher.store.state()?.sinceID)

            let reload = try #require(first.reloadAfter)
            x.now = reload
            let second = try Self.refreshed(try await refresher.refresh(now: reload))
            #expect(second.entries.count == 24)
            let later = Array(x.searchParameters.dropFirst(x.searchParameters.count > 2 ? 2 : 1))
            #expect(later.first?["since_id"] == newestRead)
            // Usable posts the first refresh read and did not show stand in for the margin.
            #expect(Int(later.first?["max_results"] ?? "") ?? 100 < 30)
            #expect(Set(second.entries.map(\.tweetID)).isDisjoint(with: Self.shown(first)))
            #expect(x.days.last?.postsRead ?? 100 <= 30)
        }
    }

    @Test func sparePicturesAreKeptForTheNextRefreshAndNotFetchedAgain() async throws {
        try await TemporaryDirectory.withAsync { directory in
            // Eight new posts a day for six entries: each refresh fetches a spare picture (a sixth of the entries)
            // beyond what it shows, in case a picture turns out to be one shown before; it stays in the cache.
            let x = SimulatedX(start: Self.t0, postsPerDay: 8)
            let refresher = Self.refresher(directory, x: x, entries: 6)
            var now = Self.t0
            var spares: Set<Int> = []
            var reusedSpares = 0
            for _ in 0..<4 {
                x.now = now
                let before = x.picturesServed.count
                let manifest = try Self.refreshed(try await refresher.refresh(now: now))
                // The spares the last refresh kept are never downloaded again while they are candidates.
                let fetched = Set(
                    x.picturesServed.dropFirst(before).compactMap { Int($0.dropFirst("/media/SIM".count)) }
                )
                let posts = Set(manifest.entries.compactMap { SimulatedX.post(ofID: $0.tweetID) })
                #expect(fetched.isDisjoint(with: spares), "spares \(spares.sorted()) fetched again")
                reusedSpares += spares.filter(posts.contains).count
                let images = try FileManager.default.contentsOfDirectory(
                    atPath: directory.appendingPathComponent("images").path
                )
                let shown = Set(manifest.entries.compactMap { $0.image?.dropFirst("images/".count) })
                spares = Set(
                    images.filter { !shown.contains(Substring($0)) }.compactMap { name in
                        SimulatedX.post(ofID: String(name.prefix { $0 != "-" }))
                    }
                )
                now = try #require(manifest.reloadAfter)
            }
            #expect(reusedSpares > 0, "no spare picture was shown by a later refresh")
        }
    }

    @Test func aQuietTopicIsFilledFromCandidatesAndMarkedRepeatsInTwoRequestsLookupsIncluded() async throws {
        try await TemporaryDirectory.withAsync { directory in
            // Eight new posts a day for a timeline of six entries an hour apart.
            let x = SimulatedX(start: Self.t0, postsPerDay: 8)
            let refresher = Self.refresher(directory, x: x, entries: 6)
            var shown: Set<String> = []
            var now = Self.t0
            for _ in 0..<4 {
                x.now = now
                let manifest = try Self.refreshed(try await refresher.refresh(now: now))
                #expect(manifest.entries.count == 6)
                // New posts first; the rest, when too few are new, are repeats and marked.
                #expect(Set(manifest.entries.filter { !$0.isRepeat }.map(\.tweetID)).isDisjoint(with: shown))
                shown.formUnion(Self.shown(manifest))
                now = try #require(manifest.reloadAfter)
            }
            // Days after the first read no further back than the entries and a quarter allow (10 for 6), in at most
            // two searches a refresh: no post is read twice.
            #expect(
                x.days.dropFirst().allSatisfy { $0.postsRead <= 10 && $0.requests + $0.lookups <= 2 },
                "\(x.days)"
            )
            #expect(x.postsReturned.count == Set(x.postsReturned).count)
            #expect(refresher.store.data(at: CacheStore.candidatesName) != nil)
        }
    }

    @Test func postsReadWithoutAUsableOneAreNotReadAgain() async throws {
        try await TemporaryDirectory.withAsync { directory in
            // Every post flagged sensitive: billed, unusable.
            var object = try #require(
                try JSONSerialization.jsonObject(with: try Fixture.data("recent-search.kpop.json")) as? [String: Any]
            )
            let posts = try #require(object["data"] as? [[String: Any]])
            object["data"] = posts.map { post in post.merging(["possibly_sensitive": true]) { $1 } }
            let page = try JSONSerialization.data(withJSONObject: object)
            let transport = StubTransport { HTTPResponse(status: 200, body: page, url: $0.url) }
            let refresher = Refresher.testing(
                in: directory,
                transport: transport,
                settings: .init(query: .default, builder: TimelineBuilder(entryCount: 4), size: .small)
            )
            guard case .noUsablePost = try await refresher.refresh(now: Self.t0) else {
                Issue.record("expected no usable post")
                return
            }
            let newest = try #require(posts.first?["id"] as? String)
            #expect(refresher.store.state()?.sinceID == newest)
            _ = try? await refresher.refresh(now: Self.t0.addingTimeInterval(3_600), force: true)
            #expect(transport.parameters().last?["since_id"] == newest)
        }
    }

    @Test func aFailingAPIIsAskedOncePerRunAfterTheFirstFailure() async throws {
        try await TemporaryDirectory.withAsync { directory in
            let x = SimulatedX(start: Self.t0, postsPerDay: 400)
            x.isFailing = true
            let refresher = Self.refresher(directory, x: x, entries: 24, maxTries: 3)
            var now = Self.t0
            var runs = 0
            while now < Self.t0.addingTimeInterval(86_400) {
                x.now = now
                if case .notDue = try? await refresher.refresh(now: now) {} else { runs += 1 }
                now.addTimeInterval(900)
            }
            // 15 min doubling to 6 h: runs at 0, 15 min, 45 min, 1 h 45, 3 h 45, 7 h 45, 13 h 45, 19 h 45.
            #expect(runs == 8)
            // Three tries in the first run, one in each run after it.
            #expect(x.days.reduce(0) { $0 + $1.requests } == runs + 2)
        }
    }
}

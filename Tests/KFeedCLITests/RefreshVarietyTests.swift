import Foundation
import KFeed
import KFeedBase
import KFeedHTTP
import KFeedImages
import KFeedTestSupport
import Testing

/// `kfeed refresh` with the no-repeat rule on (`--no-repeat-days 7`, `docs/timeline.md`), through the built binary
/// against a loopback X that serves the bundled sample's pages and pictures: distinct pictures of one layout are all
/// shown, too few unshown posts are filled with repeats (marked), and whatever a search finds, the next request is
/// at least 15 minutes away.
@Suite(.timeLimit(.minutes(3)))
struct RefreshVarietyTests {
    private static let environment = ["X_BEARER_TOKEN": "AAAAvarietyToken0123456789", "NO_PROXY": "*"]
    private static let t0 = "2026-11-22T09:00:00Z"
    private static let t0Date = Date(timeIntervalSince1970: 1_795_338_000)

    private static func at(_ seconds: TimeInterval) -> String {
        InstantFormat.string(from: t0Date.addingTimeInterval(seconds))
    }

    /// Runs `kfeed refresh` with the rule on, against `server`, at `now`.
    private static func refresh(
        _ server: LoopbackServer,
        cache: URL,
        now: String,
        _ extra: [String] = []
    ) async throws -> KFeedProcess.Result {
        try await KFeedProcess.run(
            ["refresh", "--api-base", server.baseURL.absoluteString, "--cache", cache.path, "--now", now]
                + ["--no-repeat-days", "7"] + extra,
            environment: environment
        )
    }

    private static func searches(_ server: LoopbackServer) -> Int {
        server.requests.filter { $0.path == RecentSearchRequest.path }.count
    }

    /// Day one: the sample's search and pictures from a loopback X, at t0.
    private static func refreshFromTheSample(_ cache: URL) async throws {
        try await LoopbackServer.withServer(try RecordedRoutes(scenario: "sample").handlerServingImages) { server in
            let run = try await refresh(server, cache: cache, now: t0)
            #expect(run.status == 0, "\(run.stderr)")
        }
    }

    private static func manifest(_ cache: URL) throws -> Manifest {
        try #require(try CacheStore(directory: cache).manifest())
    }

    @Test func theSamplesDistinctPicturesOfOneLayoutMakeAFullDayAndADayLaterRepeatsFillIt() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = directory.url.appendingPathComponent("cache")
        try await LoopbackServer.withServer(try RecordedRoutes(scenario: "sample").handlerServingImages) { server in
            let first = try await Self.refresh(server, cache: cache, now: Self.t0)
            #expect(first.status == 0, "\(first.stderr)")
            let day1 = try Self.manifest(cache)
            #expect(day1.entries.count == 24)
            #expect(day1.entries.allSatisfy { !$0.isRepeat })
            let history = try #require(CacheStore(directory: cache).history())
            #expect(history.records.filter { $0.detail != nil }.count == 23)  // all but the placeholder

            // A day later the search has 7 posts not shown yet: they come first, then the posts shown longest ago.
            let second = try await Self.refresh(server, cache: cache, now: Self.at(86_400))
            #expect(second.status == 0, "\(second.stderr)")
            let day2 = try Self.manifest(cache)
            #expect(day2.entries.count == 24)
            let fresh = day2.entries.prefix { !$0.isRepeat }
            #expect(fresh.count == 7)
            #expect(day2.entries.dropFirst(fresh.count).allSatisfy { $0.isRepeat })
            #expect(Set(fresh.map(\.tweetID)).isDisjoint(with: day1.entries.map(\.tweetID)))
            #expect(Set(day2.entries.map(\.tweetID)).count == 24)
            #expect(Set(day2.entries.map(\.media.key)).count == 24)
            // Longest ago first: yesterday's first hours come back first.
            #expect(day2.entries[7].tweetID == day1.entries.first { !$0.placeholder }?.tweetID)
            let json = try String(contentsOf: cache.appendingPathComponent("timeline.json"), encoding: .utf8)
            #expect(json.components(separatedBy: "\"repeat\" : true").count - 1 == 17)

            let timeline = try await KFeedProcess.run(
                ["timeline", "--cache", cache.path, "--now", Self.at(86_400), "--no-repeat-days", "7"],
                environment: Self.environment
            )
            #expect(timeline.status == 0)
            #expect(timeline.stdout.components(separatedBy: "\n").filter { $0.hasSuffix("(again)") }.count == 17)
        }
    }

    @Test func newPostsThatAllRepostShownPicturesStillGiveAFullTimelineAndNoLoop() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = directory.url.appendingPathComponent("cache")
        try await Self.refreshFromTheSample(cache)
        // Tomorrow four new posts, each another rendition of a picture shown today under a new media key.
        let search = try Fixture.data("recent-search.kpop.json")
        let repost = try JPEGThumbnailer().thumbnail(
            of: try Fixture.data("images/stage-1.jpg"),
            size: ImageSize(width: 480, height: 600)
        )
        try await LoopbackServer.withServer(LoopbackServer.searching(search, pictures: repost)) { server in
            let run = try await Self.refresh(server, cache: cache, now: Self.at(86_400))
            #expect(run.status == 0, "\(run.stderr)")
            let manifest = try Self.manifest(cache)
            #expect(manifest.entries.count == 24)
            #expect(Set(manifest.entries.map(\.tweetID)).count == 24)
            // The reposts are not new pictures: only the 7 posts of yesterday's pages not shown yet are; the rest
            // repeats, and the day-1 post of stage-1 and its four reposts give one entry between them at most.
            let reposts = Set([
                "1859170000000000101", "1859170000000000102", "1859170000000000103", "1859170000000000104",
            ])
            let fresh = manifest.entries.prefix { !$0.isRepeat }
            #expect(fresh.count == 7)
            #expect(!fresh.contains { reposts.contains($0.tweetID) })
            #expect(manifest.entries.dropFirst(7).allSatisfy { $0.isRepeat })
            #expect(
                manifest.entries.filter { reposts.contains($0.tweetID) || $0.tweetID == "1859170000000000001" }.count
                    <= 1
            )
            #expect(try #require(manifest.reloadAfter) > Self.t0Date.addingTimeInterval(86_400 + 15 * 60))

            // The next cron run asks nothing.
            let searches = Self.searches(server)
            let again = try await Self.refresh(server, cache: cache, now: Self.at(86_400 + 20 * 60))
            #expect(again.status == 0)
            #expect(Self.searches(server) == searches)
        }
    }

    @Test func anEmptySearchKeepsTheLastTimelineAndWaitsAtLeastFifteenMinutes() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = directory.url.appendingPathComponent("cache")
        try await Self.refreshFromTheSample(cache)
        // No post in hand either: the pages read before are gone (read more than 7 days ago, say).
        try FileManager.default.removeItem(at: cache.appendingPathComponent("candidates.json"))
        let shown = try Self.manifest(cache)
        #expect(shown.entries.count == 24)
        // The refresh due at the last entry's date (23 h), while every post read at t0 may still be shown (until
        // 23.5 h after its read).
        let due = 82_800.0
        try await LoopbackServer.withServer(try RecordedRoutes(scenario: "empty").handler) { server in
            let run = try await Self.refresh(server, cache: cache, now: Self.at(due))
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try Self.manifest(cache) == shown)
            let state = try #require(CacheStore(directory: cache).state())
            #expect(try #require(state.retryAfter) >= Self.t0Date.addingTimeInterval(due + 15 * 60))
            // A quiet topic reads further back too: at most two searches a run.
            let perRun = Self.searches(server)
            #expect((1...2).contains(perRun))
            for minutes in [1.0, 5, 14] {
                let tick = try await Self.refresh(server, cache: cache, now: Self.at(due + minutes * 60))
                #expect(tick.status == 0)
            }
            #expect(Self.searches(server) == perRun)
            _ = try await Self.refresh(server, cache: cache, now: Self.at(due + 15 * 60))
            #expect(Self.searches(server) > perRun)
        }
    }

    @Test func aOneEntryTimelineIsNotDueAgainForFifteenMinutes() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = directory.url.appendingPathComponent("cache")
        try await LoopbackServer.withServer(try RecordedRoutes(scenario: "sample").handlerServingImages) { server in
            #expect(try await Self.refresh(server, cache: cache, now: Self.t0, ["--entries", "1"]).status == 0)
            let manifest = try Self.manifest(cache)
            #expect(manifest.entries.count == 1)
            // atEnd would say the first entry's date, now: never a reload already due when written.
            #expect(manifest.reloadAfter == Self.t0Date.addingTimeInterval(15 * 60))
            let searches = Self.searches(server)
            _ = try await Self.refresh(server, cache: cache, now: Self.at(14 * 60), ["--entries", "1"])
            #expect(Self.searches(server) == searches)
        }
    }
}

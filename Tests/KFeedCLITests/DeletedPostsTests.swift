import Foundation
import KFeed
import KFeedBase
import KFeedTestSupport
import Testing

/// Deleted within a day and the whole bill, through the built binary against a loopback X that answers search, post
/// lookup and usage (`SimulatedX` over `LoopbackServer`): a post deleted between two runs is gone from the
/// timeline, the cache and a running `kfeed serve` within the next run that would keep it on screen, and within 24
/// hours of its deletion; the ledger and `kfeed status` show the bill
/// and X's own count beside it.
@Suite(.timeLimit(.minutes(3)))
struct DeletedPostsTests {
    private static let environment = ["X_BEARER_TOKEN": "AAAAdeletedPostsToken0123456789", "NO_PROXY": "*"]
    private static let t0 = Date(timeIntervalSince1970: 1_795_338_000)  // 2026-11-22T09:00:00Z

    private static func at(_ hours: Double) -> String {
        InstantFormat.string(from: t0.addingTimeInterval(hours * 3_600))
    }

    private static func refresh(
        _ server: LoopbackServer,
        cache: URL,
        hours: Double
    ) async throws
        -> KFeedProcess.Result
    {
        try await KFeedProcess.run(
            ["refresh", "--api-base", server.baseURL.absoluteString, "--cache", cache.path, "--now", at(hours)],
            environment: environment
        )
    }

    @Test func aPostDeletedBetweenTwoRunsIsGoneFromTheTimelineTheCacheAndTheServer() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = directory.url.appendingPathComponent("cache")
        let x = SimulatedX(start: Self.t0, postsPerDay: 400)
        try await LoopbackServer.withServer(LoopbackServer.simulating(x)) { server in
            let first = try await Self.refresh(server, cache: cache, hours: 0)
            #expect(first.status == 0, "\(first.stderr)")
            let day = try #require(try CacheStore(directory: cache).manifest())
            #expect(day.entries.count == 24)
            // The post on screen at the end of the day: its hour begins at 23 h.
            let victim = try #require(day.entries.last)
            let image = try #require(victim.image)
            let served = try await RunningServer.start(
                ["--cache", cache.path, "--listen", "127.0.0.1:0", "--now", Self.at(23.1)]
            )
            let before = try await RawHTTP.request("GET", "/\(image)", port: served.port)
            #expect(before.status == 200)
            let shown = try await RawHTTP.request("GET", "/current.json", port: served.port)
            #expect(shown.text.contains(victim.tweetID))

            // 19 hours later nothing is due: no request at all (the day's hours take every post off in time).
            x.now = Self.t0.addingTimeInterval(19 * 3_600)
            let requests = server.requests.count
            let quiet = try await Self.refresh(server, cache: cache, hours: 19)
            #expect(quiet.status == 0, "\(quiet.stderr)")
            #expect(server.requests.count == requests)

            // The post is deleted on X at 19 h. The refresh due at 23 h is refused (a rate limit): the post stays on
            // screen past its read plus 23.5 hours unless looked up, so the next run looks it up, finds it gone and,
            // with the search held back, commits the timeline without it, 4.25 hours after the deletion.
            x.deleted = [try #require(SimulatedX.post(ofID: victim.tweetID))]
            x.rateLimitedUntil = Self.t0.addingTimeInterval(26 * 3_600)
            x.now = Self.t0.addingTimeInterval(23 * 3_600)
            let refused = try await Self.refresh(server, cache: cache, hours: 23)
            #expect(refused.status != 0)
            #expect(x.lookupRequests.isEmpty)
            x.now = Self.t0.addingTimeInterval(23.25 * 3_600)
            let second = try await Self.refresh(server, cache: cache, hours: 23.25)
            #expect(second.status == 0, "\(second.stderr)")
            #expect(x.lookupRequests == [[victim.tweetID]])
            let after = try #require(try CacheStore(directory: cache).manifest())
            #expect(!after.entries.contains { $0.tweetID == victim.tweetID })
            #expect(!after.entries.isEmpty)
            let json = try String(contentsOf: cache.appendingPathComponent("timeline.json"), encoding: .utf8)
            #expect(!json.contains(victim.tweetID))
            #expect(!FileManager.default.fileExists(atPath: cache.appendingPathComponent(image).path))
            let gone = try await RawHTTP.request("GET", "/\(image)", port: served.port)
            #expect(gone.status == 404)
            let current = try await RawHTTP.request("GET", "/current.json", port: served.port)
            #expect(current.status == 200)
            #expect(!current.text.contains(victim.tweetID))
            _ = await served.stop()

            // The bill: the searches' posts and authors, and the lookup's posts, in the ledger and in kfeed status,
            // beside X's own count (which the simulated X keeps as X would: a post once a UTC day).
            let ledger = CacheRoot(directory: cache).ledger()
            // The lookup asked about the deleted post only: X returns it in `errors`, and bills no post for it.
            #expect(ledger.lookups.values.reduce(0, +) == 0)
            #expect(ledger.users.values.reduce(0, +) > 0)
            let status = try await KFeedProcess.run(
                [
                    "status", "--api-base", server.baseURL.absoluteString, "--cache", cache.path, "--now",
                    Self.at(23.25),
                ],
                environment: Self.environment
            )
            #expect(status.status == 0, "\(status.stderr)")
            #expect(status.stdout.contains("looked up"), "\(status.stdout)")
            #expect(status.stdout.contains("users"), "\(status.stdout)")
            #expect(status.stdout.contains("X's count:"), "\(status.stdout)")
            #expect(status.stdout.contains("matches"), "\(status.stdout)")
            let asJSON = try await KFeedProcess.run(
                ["status", "--json", "--api-base", server.baseURL.absoluteString, "--cache", cache.path]
                    + ["--now", Self.at(23.25)],
                environment: Self.environment
            )
            let object = try JSONSerialization.jsonObject(with: Data(asJSON.stdout.utf8)) as? [String: Any]
            let count = try #require(object?["x_count"] as? [String: Any])
            #expect(count["checked"] as? Bool == true)
            #expect((count["differing_days"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func statusWithoutATokenOrWithXFailingSaysSoInOneLineAndExitsZero() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = directory.url.appendingPathComponent("cache")
        let noToken = try await KFeedProcess.run(["status", "--cache", cache.path], environment: ["NO_PROXY": "*"])
        #expect(noToken.status == 0, "\(noToken.stderr)")
        #expect(noToken.stdout.contains("X's count: not asked: no token"), "\(noToken.stdout)")
        try await LoopbackServer.withServer(responding: .text("down", status: 503)) { server in
            let failing = try await KFeedProcess.run(
                ["status", "--api-base", server.baseURL.absoluteString, "--cache", cache.path],
                environment: Self.environment
            )
            #expect(failing.status == 0, "\(failing.stderr)")
            let lines = failing.stdout.split(separator: "\n").filter { $0.hasPrefix("X's count:") }
            #expect(lines.count == 1)
            #expect(lines.first?.contains("X did not answer") == true, "\(failing.stdout)")
        }
        // A ledger that differs from X's count is flagged.
        let x = SimulatedX(start: Self.t0, postsPerDay: 400)
        var ledger = Ledger()
        ledger.record(["1", "2", "3"], at: Self.t0)
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        try InstantFormat.jsonEncoder().encode(ledger).write(to: cache.appendingPathComponent(CacheRoot.ledgerName))
        try await LoopbackServer.withServer(LoopbackServer.simulating(x)) { server in
            let differs = try await KFeedProcess.run(
                ["status", "--api-base", server.baseURL.absoluteString, "--cache", cache.path, "--now", Self.at(1)],
                environment: Self.environment
            )
            #expect(differs.status == 0, "\(differs.stderr)")
            #expect(differs.stdout.contains("DIFFERS on 2026-11-22"), "\(differs.stdout)")
        }
    }
}

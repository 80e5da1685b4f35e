import Foundation
import KFeed
import KFeedBase
import KFeedImages
import KFeedTestSupport
import Testing

/// `kfeed hide`, `kfeed unhide` and the accounts a feed allows or denies, through the built binary against a
/// loopback X that answers the recorded search (8 posts, 4 usable: 101, 103, 107 and 108) every day.
@Suite(.timeLimit(.minutes(4)))
struct HideCommandTests {
    private static let start = Date(timeIntervalSince1970: 1_795_338_000)  // 2026-11-22T09:00:00Z
    private static func post(_ n: Int) -> String { "18591700000000001\(String(format: "%02d", n))" }

    /// A loopback X with the recorded search and a photo per picture; `body` gets the cache directory and a function
    /// that runs kfeed at an instant with the server's API and the cache added.
    private static func withX(
        _ body: (_ cache: URL, _ run: ([String], Date) async throws -> KFeedProcess.Result) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = directory.url.appendingPathComponent("cache")
        let search = try Fixture.data("recent-search.kpop.json")
        // A photo of its own for every picture URL: the repost check must not take one post's for another's.
        let photos = LoopbackServer.searching(search) { path in
            let seed = path.unicodeScalars.reduce(7) { $0 &* 31 &+ Int($1.value) }
            return (try? TestJPEG.jpeg(TestJPEG.blocks(seed: seed, width: 480, height: 360), width: 480, height: 360))
                ?? Data()
        }
        try await LoopbackServer.withServer(photos) { server in
            try await body(cache) { arguments, now in
                try await KFeedProcess.run(
                    arguments + [
                        "--cache", cache.path, "--now", InstantFormat.string(from: now),
                    ]
                        + (["refresh", "timeline"].contains(arguments.first)
                            ? ["--api-base", server.baseURL.absoluteString] : []),
                    environment: ["X_BEARER_TOKEN": "AAAAhideCommandToken0123456789", "NO_PROXY": "*"]
                )
            }
        }
    }

    private static func current(
        _ run: ([String], Date) async throws -> KFeedProcess.Result,
        at now: Date
    )
        async throws -> String
    {
        let result = try await run(["current", "--field", "url"], now)
        #expect(result.status == 0, "\(result.stderr)")
        return String(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "/").last ?? "")
    }

    @Test func aHiddenPostLeavesTheScreenAndTheServerAtOnceAndNeverReturns() async throws {
        try await Self.withX { cache, run in
            let refreshed = try await run(["refresh"], Self.start)
            #expect(refreshed.status == 0, "\(refreshed.stderr)")
            let halfPast = Self.start.addingTimeInterval(1_800)
            #expect(try await Self.current(run, at: halfPast) == Self.post(1))

            let server = try await RunningServer.start([
                "--cache", cache.path, "--listen", "127.0.0.1:0", "--now", InstantFormat.string(from: halfPast),
            ])
            let before = try await RawHTTP.request("GET", "/current.json", port: server.port).json()
            #expect(before["tweet_id"] as? String == Self.post(1))

            // Hidden by its URL: the next post takes the hour at once, on the command line and on the server.
            let hidden = try await run(["hide", "https://x.com/seoul_lens/status/\(Self.post(1))?s=20"], halfPast)
            #expect(hidden.status == 0, "\(hidden.stderr)")
            #expect(
                hidden.stderr.contains("post \(Self.post(1)) hidden; 1 entry left the timeline"),
                "\(hidden.stderr)"
            )
            #expect(try await Self.current(run, at: halfPast) == Self.post(3))
            let after = try await RawHTTP.request("GET", "/current.json", port: server.port).json()
            #expect(after["tweet_id"] as? String == Self.post(3))
            let manifest = try #require(try CacheStore(directory: cache).manifest())
            #expect(manifest.entries.map(\.tweetID) == [Self.post(3), Self.post(7), Self.post(8)])
            #expect(manifest.entries.first?.date == Self.start)

            // An account too; then the list.
            #expect(try await run(["hide", "@MV_Stills"], halfPast).status == 0)
            let listed = try await run(["hide"], halfPast)
            #expect(listed.stdout == "post \(Self.post(1)), @mv_stills\n", "\(listed.stdout)")

            // The days after: the search returns both again, and the repeat fill (every post was shown) still never
            // picks them.
            for day in 1...3 {
                let now = Self.start.addingTimeInterval(Double(day) * 86_400)
                let next = try await run(["refresh"], now)
                #expect(next.status == 0, "day \(day): \(next.stderr)")
                let ids = try #require(try CacheStore(directory: cache).manifest()).entries.map(\.tweetID)
                #expect(!ids.isEmpty)
                #expect(!ids.contains(Self.post(1)) && !ids.contains(Self.post(7)), "day \(day): \(ids)")
            }

            // Unhidden, the post may come back; the current timeline is left as it is.
            let unhidden = try await run(
                ["unhide", Self.post(1), "@mv_stills"],
                Self.start.addingTimeInterval(4 * 86_400)
            )
            #expect(unhidden.status == 0 && unhidden.stderr.contains("shown again"), "\(unhidden.stderr)")
            #expect(try await run(["refresh", "--force"], Self.start.addingTimeInterval(4 * 86_400)).status == 0)
            let ids = try #require(try CacheStore(directory: cache).manifest()).entries.map(\.tweetID)
            #expect(ids.contains(Self.post(1)) && ids.contains(Self.post(7)), "\(ids)")
        }
    }

    @Test func aDeniedAccountStaysOutForAWeekAndAnAllowListKeepsOnlyItsAccounts() async throws {
        try await Self.withX { cache, run in
            for day in 0..<8 {
                let now = Self.start.addingTimeInterval(Double(day) * 86_400)
                // The loopback X ignores the query's -from:, as a query cut at 512 characters would: the filter holds.
                let result = try await run(["refresh", "--deny", "@stage_photo_kr", "--deny", "concert_diary"], now)
                #expect(result.status == 0, "day \(day): \(result.stderr)")
                let ids = try #require(try CacheStore(directory: cache).manifest()).entries.map(\.tweetID)
                #expect(ids.count == 2, "day \(day): \(ids)")
                #expect(!ids.contains(Self.post(3)) && !ids.contains(Self.post(8)), "day \(day): \(ids)")
            }
            let allowed = try await run(
                ["refresh", "--allow", "@mv_stills"],
                Self.start.addingTimeInterval(8 * 86_400)
            )
            #expect(allowed.status == 0, "\(allowed.stderr)")
            let ids = try #require(try CacheStore(directory: cache).manifest()).entries.map(\.tweetID)
            #expect(ids == [Self.post(7)])
        }
    }

    @Test(arguments: ["https://example.com/u/status/1", "x.com/u/status/12", "@", "12a", "https://x.com/u/likes"])
    func aTargetThatIsNeitherAPostNorAnAccountExits64(target: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let result = try await KFeedProcess.run(["hide", target, "--cache", directory.url.path])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("hidden.json").path))
    }

    @Test func minimumsAreSentInTheQuery() async throws {
        let result = try await KFeedProcess.run(["query", "--min-likes", "100", "--min-replies", "3"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("min_likes%3A100%20min_replies%3A3"), "\(result.stdout)")
        let wrong = try await KFeedProcess.run(["query", "--min-likes", "-5"])
        #expect(wrong.status == 64, "\(wrong.stderr)")
    }
}

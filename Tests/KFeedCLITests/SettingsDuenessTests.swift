import Foundation
import KFeed
import KFeedBase
import KFeedHTTP
import KFeedImages
import KFeedTestSupport
import Testing

/// A feed is due when a setting that shapes its timeline changes (the timeline records their fingerprint), and a
/// change of what the renders show re-renders with no search: through the built binary, against a loopback X that
/// counts its searches.
@Suite(.timeLimit(.minutes(3)))
struct SettingsDuenessTests {
    private static let start = Date(timeIntervalSince1970: 1_795_338_000)  // 2026-11-22T09:00:00Z

    /// The recorded search and a photo for every picture, on a loopback server; `body` gets the cache directory (in a
    /// temporary directory of the test's own), the server and a run function that runs kfeed at `now` with
    /// `arguments`, the server's API and the cache added.
    private static func withX(
        _ body: (
            _ cache: URL, LoopbackServer, _ run: ([String], Date) async throws -> KFeedProcess.Result
        ) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = directory.url.appendingPathComponent("cache")
        let search = try Fixture.data("recent-search.kpop.json")
        let photo = try TestJPEG.jpeg(TestJPEG.gradient(width: 800, height: 600), width: 800, height: 600)
        try await LoopbackServer.withServer(LoopbackServer.searching(search, pictures: photo)) { server in
            try await body(cache, server) { arguments, now in
                try await KFeedProcess.run(
                    arguments + [
                        "--api-base", server.baseURL.absoluteString, "--cache", cache.path,
                        "--now", InstantFormat.string(from: now),
                    ],
                    environment: ["X_BEARER_TOKEN": "AAAAsettingsDuenessToken0123456789", "NO_PROXY": "*"]
                )
            }
        }
    }

    private static func searches(_ server: LoopbackServer) -> Int {
        server.requests.filter { $0.path == RecentSearchRequest.path }.count
    }

    @Test func aChangedSettingMakesTheFeedDueAndTheSameSettingsDoNot() async throws {
        let later = Self.start.addingTimeInterval(3_600)
        try await Self.withX { cache, server, run in
            let first = try await run(["refresh", "--no-repeat-days", "0"], Self.start)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(Self.searches(server) == 1)
            let made = try #require(try CacheStore(directory: cache).manifest())
            #expect(made.entries.count == 4)

            // The same settings an hour later: not due, nothing asked.
            let same = try await run(["refresh", "--no-repeat-days", "0", "-v"], later)
            #expect(same.status == 0)
            #expect(same.stderr.contains("not due until"), "\(same.stderr)")
            #expect(Self.searches(server) == 1)

            // Each setting that shapes the timeline, changed in turn: due at once, a new timeline.
            var expected = 1
            for change in [
                ["--entries", "2"], ["--interval", "2h"], ["--size", "medium"], ["--allow-sensitive"],
                ["--video-previews"], ["--deny", "@nobody_here"], ["--policy", "never"],
            ] {
                let changed = try await run(["refresh", "--no-repeat-days", "0"] + change, later)
                #expect(changed.status == 0, "\(change): \(changed.stderr)")
                expected += 1
                #expect(Self.searches(server) == expected, "\(change) did not make the feed due")
                // And the same again: not due.
                let again = try await run(["refresh", "--no-repeat-days", "0"] + change, later)
                #expect(again.status == 0)
                #expect(Self.searches(server) == expected, "\(change) twice refreshed twice")
            }
            let last = try #require(try CacheStore(directory: cache).manifest())
            #expect(last.policy == .never)
        }
    }

    @Test func aCaptionChangeReRendersWithNoSearchAndStatusComparesTheSameSettings() async throws {
        let later = Self.start.addingTimeInterval(3_600)
        try await Self.withX { cache, server, run in
            let base = ["--no-repeat-days", "0", "--profile", "grey4"]
            let first = try await run(["refresh"] + base, Self.start)
            #expect(first.status == 0, "\(first.stderr)")
            let captioned = try #require(try CacheStore(directory: cache).manifest())
            let before = captioned.entries.compactMap { $0.renders?["grey4"] }
            #expect(before.count == 4)

            let bare = try await run(["refresh", "--no-caption", "-v"] + base, later)
            #expect(bare.status == 0, "\(bare.stderr)")
            #expect(Self.searches(server) == 1, "a caption change searched again")
            let uncaptioned = try #require(try CacheStore(directory: cache).manifest())
            let after = uncaptioned.entries.compactMap { $0.renders?["grey4"] }
            #expect(after.count == 4)
            #expect(Set(after).isDisjoint(with: before), "the renders were not made again")
            #expect(uncaptioned.entries.map(\.tweetID) == captioned.entries.map(\.tweetID))

            // kfeed status compares the settings it is given as refresh does.
            let status = { (arguments: [String]) async throws -> Bool in
                let result = try await KFeedProcess.run(
                    ["status", "--json", "--cache", cache.path, "--now", InstantFormat.string(from: later)] + arguments
                )
                #expect(result.status == 0, "\(result.stderr)")
                let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
                let feeds = try #require(json?["feeds"] as? [[String: Any]])
                return try #require(feeds.first?["due"] as? Bool)
            }
            #expect(try await status(base + ["--no-caption"]) == false)
            #expect(try await status(base + ["--no-caption", "--entries", "3"]) == true)
        }
    }

    @Test func aFeedsFileTableChangedMakesThatFeedDue() async throws {
        let later = Self.start.addingTimeInterval(3_600)
        let file = { (entries: Int) in
            """
            [feeds.kpop]
            contexts = ["55.888105153038958593"]
            no_repeat_days = 0
            entries = \(entries)

            [feeds.pets]
            query = "(cat OR dog) has:images -is:retweet"
            no_repeat_days = 0
            """
        }
        try await Self.withX { cache, server, run in
            let config = cache.deletingLastPathComponent().appendingPathComponent("kfeed.toml")
            try file(24).write(to: config, atomically: true, encoding: .utf8)
            let first = try await run(["refresh", "--config", config.path], Self.start)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(Self.searches(server) == 2)
            let unchanged = try await run(["refresh", "--config", config.path], later)
            #expect(unchanged.status == 0)
            #expect(Self.searches(server) == 2)

            try file(3).write(to: config, atomically: true, encoding: .utf8)
            let changed = try await run(["refresh", "--config", config.path, "-v"], later)
            #expect(changed.status == 0, "\(changed.stderr)")
            #expect(Self.searches(server) == 3, "only kpop's table changed: \(changed.stderr)")
            #expect(changed.stderr.contains("kpop: refreshed 3 entries"), "\(changed.stderr)")
            #expect(changed.stderr.contains("pets: not due until"), "\(changed.stderr)")
        }
    }
}

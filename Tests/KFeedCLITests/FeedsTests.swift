import Foundation
import KFeed
import KFeedBase
import KFeedHTTP
import KFeedImages
import KFeedTestSupport
import Testing

/// Without a feeds file the flags make a feeds file of one feed, run through the same code as a file's feeds: its
/// files stay where a widget reads them (`DIR/timeline.json`, …), its ledger sits beside them so that `kfeed status`
/// counts what X billed, and its messages name no feed.
@Suite(.timeLimit(.minutes(2)))
struct FeedsTests {
    private static let environment = ["X_BEARER_TOKEN": "AAAAoneFeedToken0123456789", "NO_PROXY": "*"]

    @Test func theFeedOfTheFlagsKeepsItsLayoutAndCountsItsPostsInALedgerBesideIt() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = directory.url.appendingPathComponent("cache")
        let search = try Fixture.data("recent-search.kpop.json")
        let photo = try TestJPEG.jpeg(TestJPEG.gradient(width: 640, height: 480), width: 640, height: 480)
        try await LoopbackServer.withServer(LoopbackServer.searching(search, pictures: photo)) { server in
            let now = ["--now", "2026-11-22T09:00:00Z"]
            let refresh = try await KFeedProcess.run(
                [
                    "refresh", "--api-base", server.baseURL.absoluteString, "--cache", cache.path, "--no-repeat-days",
                    "0",
                ]
                    + now,
                environment: Self.environment
            )
            #expect(refresh.status == 0, "\(refresh.stderr)")
            for name in ["timeline.json", "state.json", "ledger.json"] {
                #expect(FileManager.default.fileExists(atPath: cache.appendingPathComponent(name).path), "\(name)")
            }
            #expect(!FileManager.default.fileExists(atPath: cache.appendingPathComponent("feeds").path))

            let status = try await KFeedProcess.run(
                ["status", "--json", "--cache", cache.path, "--no-repeat-days", "0"] + now
            )
            #expect(status.status == 0, "\(status.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
            let feeds = try #require(json["feeds"] as? [[String: Any]])
            #expect(feeds.map { $0["name"] as? String } == ["default"])
            #expect(feeds.first?["posts_today"] as? Int == 8)  // every post the page held, as X bills them
            #expect(feeds.first?["due"] as? Bool == false)
            #expect((json["budget"] as? [String: Any])?["posts_today"] as? Int == 8)
        }
    }

    @Test func aFailureOfTheFeedOfTheFlagsNamesNoFeed() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await LoopbackServer.with(responding: .text("down", status: 503)) { base in
            let result = try await KFeedProcess.run(
                [
                    "refresh", "--api-base", base.absoluteString, "--cache", directory.url.path,
                    "--now", "2026-11-22T09:00:00Z",
                ],
                environment: Self.environment
            )
            #expect(result.status == 75, "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(result.stderr.hasPrefix("kfeed: error: "), "\(result.stderr)")
            #expect(!result.stderr.contains("feed default"), "\(result.stderr)")
        }
    }
}

import Foundation
import KFeed
import KFeedBase
import KFeedImages
import KFeedTestSupport
import Testing

/// `kfeed current` and `kfeed timeline` on a warm cache: what a widget, a display script or a person reads.
@Suite(.timeLimit(.minutes(3)))
struct CurrentCommandTests {

    @Test func currentPrintsTheEntryCoveringNowWithAbsolutePaths() async throws {
        let cache = try await KFeedProcess.sampleCache()
        defer { cache.remove() }
        let result = try await KFeedProcess.run([
            "current", "--cache", cache.url.path, "--now", "2026-11-22T10:30:00+01:00",
        ])
        #expect(result.status == 0)
        let entry = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(entry?["date"] as? String == "2026-11-22T09:00:00Z")
        let image = try #require(entry?["image"] as? String)
        #expect(image.hasPrefix(cache.url.path + "/images/"))
        #expect(FileManager.default.fileExists(atPath: image))
        let author = try #require(entry?["author"] as? [String: Any])
        #expect((author["avatar"] as? String)?.hasPrefix(cache.url.path + "/avatars/") == true)
    }

    @Test(arguments: [
        ("image", "2026-11-22T11:59:59Z", "/images/3_1859170000000100004-340x340.jpg"),
        ("username", "2026-11-22T11:00:00Z", "photocard_club"),
        ("date", "2026-11-22T14:59:00Z", "2026-11-22T14:00:00Z"),
        ("image", "2026-11-22T13:00:00Z", "/placeholder-340x340.jpg"),
    ])
    func fieldPrintsOneValue(field: String, now: String, expected: String) async throws {
        let cache = try await KFeedProcess.sampleCache()
        defer { cache.remove() }
        let result = try await KFeedProcess.run(["current", "--cache", cache.url.path, "--now", now, "--field", field])
        #expect(result.status == 0)
        #expect(result.stdout.trimmingCharacters(in: .newlines).hasSuffix(expected))
    }

    @Test(arguments: ["2026-11-22T08:59:59Z", "2026-11-22T15:00:00Z"])
    func noEntryCoveringTheTimeExits69(now: String) async throws {
        let cache = try await KFeedProcess.sampleCache()
        defer { cache.remove() }
        let result = try await KFeedProcess.run(["current", "--cache", cache.url.path, "--now", now])
        #expect(result.status == 69)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("no entry covers \(now)"))
    }

    @Test(arguments: [
        ("2026-11-23T09:00:00Z", "2026-11-22T14:00:00Z", true),
        ("2026-11-22T10:30:00Z", "2026-11-22T10:00:00Z", false),
    ])
    func orLastPrintsTheLastEntryWhoseHourPassedMarkedStale(now: String, date: String, isStale: Bool) async throws {
        let cache = try await KFeedProcess.sampleCache()
        defer { cache.remove() }
        let result = try await KFeedProcess.run(["current", "--cache", cache.url.path, "--now", now, "--or-last"])
        #expect(result.status == 0, "\(result.stderr)")
        let entry = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(entry["date"] as? String == date)
        #expect(entry["stale"] as? Bool == (isStale ? true : nil))
        #expect((entry["image"] as? String)?.hasPrefix(cache.url.path + "/") == true)
        let field = try await KFeedProcess.run([
            "current", "--cache", cache.url.path, "--now", now, "--or-last", "--field", "date",
        ])
        #expect(field.status == 0 && field.stdout == "\(date)\n")
    }

    @Test func currentWithoutATimelineExits69() async throws {
        let empty = try TemporaryDirectory()
        defer { empty.remove() }
        let result = try await KFeedProcess.run(["current", "--cache", empty.url.path])
        #expect(result.status == 69)
        #expect(result.stderr.contains("run kfeed refresh"))
    }

    @Test func timelineReadsTheCacheWithAgesTheCurrentEntryAndPlaceholders() async throws {
        let cache = try await KFeedProcess.sampleCache()
        defer { cache.remove() }
        let result = try await KFeedProcess.run([
            "timeline", "--cache", cache.url.path, "--now", "2026-11-22T12:10:00Z",
        ])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("made     2026-11-22 09:00 +00:00 (3 h ago)"))
        #expect(lines.contains("reload   atEnd, after 2026-11-22 14:00 +00:00 (in 1 h)"))
        let current = lines.filter { $0.hasPrefix("▶") }
        #expect(current.count == 1)
        #expect(current.first?.hasPrefix("▶ 2026-11-22 12:00 +00:00") == true)
        #expect(lines.contains { $0.contains("[placeholder: not a JPEG]") })
        let due = try await KFeedProcess.run(["timeline", "--cache", cache.url.path, "--now", "2026-11-22T16:00:00Z"])
        #expect(due.stdout.contains("(due now)"))
    }

    @Test func timelineWithNoTimelineYetRefreshesFromTheReplayFirst() async throws {
        let cache = try TemporaryDirectory()
        defer { cache.remove() }
        let result = try await KFeedProcess.run(
            ["timeline", "--cache", cache.url.path, "--json"],
            environment: ["KFEED_REPLAY": Fixture.replay("short-pages").path, "KFEED_CACHE_DIR": cache.url.path]
        )
        #expect(result.status == 0)
        let manifest = try Manifest.decode(Data(result.stdout.utf8))
        #expect(manifest.entries.count == 7)
        #expect(FileManager.default.fileExists(atPath: cache.url.appendingPathComponent("timeline.json").path))
    }
}

import Foundation
import KFeed
import KFeedBase
import KFeedImages
import KFeedTestSupport
import Testing

/// `kfeed timeline --replay`: the schedule a user sees, and the exit code of every recorded failure.
struct TimelineCommandTests {
    private let sample = Fixture.replay("sample").path

    @Test func sampleReplayPrintsTwentyFourHourlyEntries() async throws {
        let result = try await KFeedProcess.run(["timeline", "--replay", sample, "--now", "2026-11-22T09:00:00Z"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first == "query    context:55.888105153038958593 has:images -is:retweet")
        #expect(lines.contains("reload   atEnd, after 2026-11-23 08:00 +00:00 (in 23 h)"))
        let entries = lines.filter { $0.contains("https://x.com/") }
        #expect(entries.count == 24)
        #expect(entries.first?.hasPrefix("▶ 2026-11-22 09:00 +00:00  @concert_diary") == true)
        #expect(entries.last?.contains("2026-11-23 08:00 +00:00") == true)
        #expect(result.stderr.isEmpty)
    }

    @Test func jsonIsTheManifest() async throws {
        let result = try await KFeedProcess.run([
            "timeline", "--replay", sample, "--now", "2026-11-22T09:00:00Z", "--json", "--entries", "5",
        ])
        #expect(result.status == 0)
        let manifest = try Manifest.decode(Data(result.stdout.utf8))
        #expect(manifest.entries.count == 5)
        #expect(manifest.reloadAfter == manifest.entries.last?.date)
        #expect(result.stdout.contains("\"generated_at\" : \"2026-11-22T09:00:00Z\""))
    }

    @Test func localZoneShowsTheRepeatedHourAtADaylightSavingChangeAsTwoLines() async throws {
        // Europe/Berlin leaves summer time at 01:00 UTC on 2026-10-25: 02:00 local happens twice.
        let result = try await KFeedProcess.run(
            ["timeline", "--replay", sample, "--now", "2026-10-24T23:00:00Z", "--entries", "4"],
            environment: ["TZ": "Europe/Berlin"]
        )
        #expect(result.status == 0)
        let times = result.stdout.split(separator: "\n").filter { $0.contains("https://x.com/") }
            .map { $0.dropFirst(2).prefix(23) }
        #expect(
            times == [
                "2026-10-25 01:00 +02:00", "2026-10-25 02:00 +02:00", "2026-10-25 02:00 +01:00",
                "2026-10-25 03:00 +01:00",
            ]
        )
    }

    @Test func verbosePrintsWhyPostsWereNotUsed() async throws {
        let result = try await KFeedProcess.run(["timeline", "--replay", sample, "-v"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("not used: video or GIF without --video-previews"))
        #expect(result.stderr.contains("not used: possibly sensitive"))
        #expect(result.stderr.contains("not used: duplicate media"))
    }

    @Test(arguments: [
        ("401", Int32(77)), ("403-client-not-enrolled", 77), ("429-rate-limit", 75), ("429-usage-cap", 75),
        ("errors-only", 65), ("400", 78),
    ])
    func recordedFailuresExitWithTheContractsCode(scenario: String, status: Int32) async throws {
        let result = try await KFeedProcess.run(["timeline", "--replay", Fixture.replay(scenario).path])
        #expect(result.status == status)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func emptyResultIsAnEmptyTimelineThatSaysWhy() async throws {
        let result = try await KFeedProcess.run(["timeline", "--replay", Fixture.replay("empty").path])
        #expect(result.status == 0)
        #expect(result.stdout.contains("empty    no usable post"))
    }

    @Test func missingReplayDirectoryOrAnswerIsAClearError() async throws {
        let missing = try await KFeedProcess.run(["timeline", "--replay", "/nonexistent/replay"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("/nonexistent/replay"))

        // short-pages has no answer for a request with another next_token: a one-page budget cannot reach it,
        // but a route-less directory answers nothing at all.
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Data(#"{"routes": []}"#.utf8).write(to: directory.url.appendingPathComponent("routes.json"))
        let unanswered = try await KFeedProcess.run(["timeline", "--replay", directory.url.path])
        #expect(unanswered.status == 66)
        #expect(unanswered.stderr.contains("no answer for"))
    }

    @Test func videoPreviewsAndSensitiveFlagsChangeTheSelection() async throws {
        let plain = try await KFeedProcess.run(["timeline", "--replay", Fixture.replay("kpop").path, "--json"])
        let widened = try await KFeedProcess.run([
            "timeline", "--replay", Fixture.replay("kpop").path, "--json", "--video-previews", "--allow-sensitive",
        ])
        let before = try Manifest.decode(Data(plain.stdout.utf8)).entries.map(\.media.type)
        let after = try Manifest.decode(Data(widened.stdout.utf8)).entries.map(\.media.type)
        #expect(!before.contains("video") && !before.contains("animated_gif"))
        #expect(after.contains("video") && after.contains("animated_gif"))
        #expect(after.count > before.count)
    }
}

import Foundation
import KFeedBase
import KFeedTestSupport
import Testing

@testable import KFeed
@testable import KFeedImages
@testable import KFeedX

struct ScheduleTextTests {
    /// 2026-11-22 09:00:00 UTC.
    private static let now = Date(timeIntervalSince1970: 1_795_338_000)

    private static func zone(_ identifier: String) throws -> TimeZone {
        try #require(TimeZone(identifier: identifier))
    }

    private static func manifest(
        now: Date,
        entries: Int = 24,
        interval: Interval = .hour,
        policy: ReloadPolicy = .atEnd
    ) throws -> Manifest {
        var results = SearchResults()
        try results.append(responseBody: try Fixture.data("recent-search.sample-page1.json"))
        try results.append(responseBody: try Fixture.data("recent-search.sample-page2.json"))
        let builder = TimelineBuilder(entryCount: entries, interval: interval, policy: policy)
        return builder.manifest(
            for: builder.selection(from: results.feedItems, isExhausted: true),
            query: .default,
            size: .small,
            now: now
        )
    }

    /// The entry lines: everything after the blank line that ends the header.
    private static func entryLines(_ lines: [String]) throws -> ArraySlice<String> {
        let blank = try #require(lines.firstIndex(of: ""))
        return lines[(blank + 1)...]
    }

    // MARK: - UTC

    @Test func clockTimesAreTheZonesHourAndMinute() throws {
        let time = Self.now.addingTimeInterval(5 * 60)  // 09:05 UTC
        #expect(ScheduleText(timeZone: .gmt).clockTime(time) == "09:05")
        #expect(ScheduleText(timeZone: try Self.zone("Asia/Seoul")).clockTime(time) == "18:05")
        #expect(ScheduleText(timeZone: try Self.zone("America/St_Johns")).clockTime(time) == "05:35")
        #expect(ScheduleText(timeZone: try Self.zone("Pacific/Kiritimati")).clockTime(time) == "23:05")
    }

    @Test func utcTimesPrintWithAZeroOffset() throws {
        let text = ScheduleText(timeZone: try Self.zone("UTC"))
        #expect(text.localTime(Self.now) == "2026-11-22 09:00 +00:00")
        #expect(text.localTime(Self.now.addingTimeInterval(15 * 3_600 + 5 * 60)) == "2026-11-23 00:05 +00:00")
    }

    @Test func utcScheduleHasAHeaderAndOneLinePerEntry() throws {
        let manifest = try Self.manifest(now: Self.now)
        let lines = ScheduleText(timeZone: try Self.zone("UTC")).lines(for: manifest)
        #expect(lines[0] == "query    context:55.888105153038958593 has:images -is:retweet")
        #expect(lines[1] == "made     2026-11-22 09:00 +00:00")
        #expect(lines[2] == "reload   atEnd, after 2026-11-23 08:00 +00:00")
        #expect(lines[3] == "entries  24, every 1h, size small (340x340)")
        let entries = try Self.entryLines(lines)
        #expect(entries.count == 24)
        for (offset, line) in entries.enumerated() {
            let hour = (9 + offset) % 24
            let day = offset < 15 ? 22 : 23
            #expect(line.hasPrefix("  2026-11-\(day) \(hour < 10 ? "0" : "")\(hour):00 +00:00  @"), "\(line)")
            #expect(line.hasSuffix(manifest.entries[offset].url.absoluteString))
            #expect(line.contains("@\(manifest.entries[offset].author.username) "))
        }
    }

    @Test func neverPolicyAndEmptyReasonHaveTheirOwnLines() throws {
        let manifest = TimelineBuilder(policy: .never).manifest(
            for: Selection(chosen: [], skipped: [], isFull: false),
            query: .default,
            size: .small,
            now: Self.now
        )
        let lines = ScheduleText(timeZone: try Self.zone("UTC")).lines(for: manifest)
        #expect(lines.contains("reload   never (only kfeed refresh --force)"))
        #expect(lines.contains { $0.hasPrefix("empty    ") })
        #expect(lines.last == "")
    }

    // MARK: - Daylight-saving changes

    @Test func berlinsRepeatedHourPrintsAsTwoLinesWithDifferentOffsets() throws {
        let start = Date(timeIntervalSince1970: 1_792_886_400)  // 2026-10-25 00:00 UTC = 02:00 CEST
        let manifest = try Self.manifest(now: start, entries: 5)
        let lines = ScheduleText(timeZone: try Self.zone("Europe/Berlin")).lines(for: manifest)
        let times = try Self.entryLines(lines).map { String($0.dropFirst(2).prefix(23)) }
        #expect(
            times == [
                "2026-10-25 02:00 +02:00", "2026-10-25 02:00 +01:00", "2026-10-25 03:00 +01:00",
                "2026-10-25 04:00 +01:00", "2026-10-25 05:00 +01:00",
            ]
        )
        #expect(Set(try Self.entryLines(lines)).count == 5)
        #expect(lines[2] == "reload   atEnd, after 2026-10-25 05:00 +01:00")
        for index in 1..<manifest.entries.count {
            #expect(manifest.entries[index].date.timeIntervalSince(manifest.entries[index - 1].date) == 3_600)
        }
    }

    @Test func newYorksRepeatedHourPrintsAsTwoLinesWithDifferentOffsets() throws {
        let start = Date(timeIntervalSince1970: 1_793_505_600)  // 2026-11-01 04:00 UTC = 00:00 EDT
        let manifest = try Self.manifest(now: start, entries: 4)
        let lines = ScheduleText(timeZone: try Self.zone("America/New_York")).lines(for: manifest)
        let times = try Self.entryLines(lines).map { String($0.dropFirst(2).prefix(23)) }
        #expect(
            times == [
                "2026-11-01 00:00 -04:00", "2026-11-01 01:00 -04:00", "2026-11-01 01:00 -05:00",
                "2026-11-01 02:00 -05:00",
            ]
        )
        #expect(manifest.entries[2].date.timeIntervalSince(manifest.entries[1].date) == 3_600)
        #expect(manifest.entries[3].date == start.addingTimeInterval(3 * 3_600))
    }

    @Test func springForwardSkipsTheMissingLocalHour() throws {
        let start = Date(timeIntervalSince1970: 1_774_742_400)  // 2026-03-29 00:00 UTC = 01:00 CET
        let manifest = try Self.manifest(now: start, entries: 3)
        let lines = ScheduleText(timeZone: try Self.zone("Europe/Berlin")).lines(for: manifest)
        let times = try Self.entryLines(lines).map { String($0.dropFirst(2).prefix(23)) }
        #expect(times == ["2026-03-29 01:00 +01:00", "2026-03-29 03:00 +02:00", "2026-03-29 04:00 +02:00"])
    }

    @Test(arguments: [
        ("Asia/Kolkata", "2026-11-22 14:30 +05:30"), ("America/St_Johns", "2026-11-22 05:30 -03:30"),
        ("Asia/Seoul", "2026-11-22 18:00 +09:00"),
    ])
    func fractionalAndFarOffsetsPrintInHoursAndMinutes(zone: String, expected: String) throws {
        #expect(ScheduleText(timeZone: try Self.zone(zone)).localTime(Self.now) == expected)
    }

    // MARK: - Current entry

    @Test func currentEntryIsMarked() throws {
        let manifest = try Self.manifest(now: Self.now, entries: 6)
        let text = ScheduleText(timeZone: try Self.zone("UTC"), now: Self.now.addingTimeInterval(2 * 3_600 + 1_800))
        let entries = try Self.entryLines(text.lines(for: manifest))
        #expect(entries.map { $0.hasPrefix("▶ ") } == [false, false, true, false, false, false])
        #expect(entries.filter { $0.hasPrefix("  ") }.count == 5)
    }

    @Test func noMarkerWithoutNowOrOutsideTheTimeline() throws {
        let manifest = try Self.manifest(now: Self.now, entries: 3)
        for now in [nil, Self.now.addingTimeInterval(-1), Self.now.addingTimeInterval(3 * 3_600)] {
            let lines = ScheduleText(timeZone: try Self.zone("UTC"), now: now).lines(for: manifest)
            #expect(!lines.contains { $0.contains("▶") })
        }
    }

    @Test(
        arguments: [
            (-3_600.0, nil), (-1, nil), (0, 0), (1, 0), (3_599, 0), (3_600, 1), (7_199, 1), (7_200, 2), (10_799, 2),
            (10_800, nil), (86_400, nil),
        ] as [(TimeInterval, Int?)]
    )
    func currentEntryIndexCoversEachEntrysInterval(offset: TimeInterval, index: Int?) throws {
        let manifest = try Self.manifest(now: Self.now, entries: 3)
        #expect(manifest.currentEntryIndex(at: Self.now.addingTimeInterval(offset)) == index)
    }

    @Test func currentEntryIndexOfAnEmptyTimelineIsNil() {
        let manifest = TimelineBuilder().manifest(
            for: Selection(chosen: [], skipped: [], isFull: false),
            query: .default,
            size: .small,
            now: Self.now
        )
        #expect(manifest.currentEntryIndex(at: Self.now) == nil)
    }

    @Test func headerSaysWhenReloadIsDueAndHowLongAgoItWasMade() throws {
        let manifest = try Self.manifest(now: Self.now, entries: 3)
        let early = ScheduleText(timeZone: try Self.zone("UTC"), now: Self.now.addingTimeInterval(3_600)).lines(
            for: manifest
        )
        #expect(early[1] == "made     2026-11-22 09:00 +00:00 (1 h ago)")
        #expect(early[2] == "reload   atEnd, after 2026-11-22 11:00 +00:00 (in 1 h)")
        let late = ScheduleText(timeZone: try Self.zone("UTC"), now: Self.now.addingTimeInterval(2 * 3_600)).lines(
            for: manifest
        )
        #expect(late[2] == "reload   atEnd, after 2026-11-22 11:00 +00:00 (due now)")
    }

    // MARK: - Relative times

    @Test(
        arguments: [
            (0.0, "just now"), (59, "just now"), (-59, "just now"), (60, "in 1 min"), (-60, "1 min ago"),
            (20 * 60, "in 20 min"), (3_599, "in 59 min"), (3_600, "in 1 h"), (-3 * 3_600, "3 h ago"),
            (20 * 3_600, "in 20 h"), (47 * 3_600, "in 47 h"), (2 * 86_400, "in 2 d"), (-9 * 86_400, "9 d ago"),
        ] as [(TimeInterval, String)]
    )
    func relativeTimesRoundDownToTheUnit(offset: TimeInterval, expected: String) {
        #expect(ScheduleText.relative(Self.now.addingTimeInterval(offset), to: Self.now) == expected)
    }
}

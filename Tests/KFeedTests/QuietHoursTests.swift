import Foundation
import KFeedBase
import Testing

@testable import KFeed

/// `QuietHours`: reading `HH:MM-HH:MM`, wall-clock arithmetic in a zone (midnight, daylight saving), and how the
/// night changes a feed's due-ness.
struct QuietHoursTests {
    private static let berlin = TimeZone(identifier: "Europe/Berlin")!

    /// `HH:MM` on `day` of `month` 2026 in Berlin.
    private static func local(_ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = berlin
        return calendar.date(from: DateComponents(year: 2026, month: month, day: day, hour: hour, minute: minute))!
    }

    @Test func readsRangesAndRefusesWhatIsNotOne() throws {
        let night = try QuietHours(parsing: "23:00-07:00")
        #expect(night.start == 23 * 60)
        #expect(night.end == 7 * 60)
        #expect(night.description == "23:00-07:00")
        #expect(try QuietHours(parsing: " 9:30 - 17:05 ").description == "09:30-17:05")
        for bad in [
            "", "23:00", "23:00-", "24:00-07:00", "23:60-07:00", "23-07", "23:00-07:00-08:00", "٢٣:00-07:00",
            "+1:00-07:00", "23:0-07:00", "23:00–07:00",
        ] {
            #expect(throws: KFeedError.self, "\(bad)") { try QuietHours(parsing: bad) }
        }
        do {
            _ = try QuietHours(parsing: "07:00-07:00")
            Issue.record("equal ends were accepted")
        } catch {
            #expect(error.code == .configuration)
            #expect(error.message.contains("start and end at the same time"))
        }
    }

    @Test func aRangeThatWrapsMidnightHoldsOnBothSides() throws {
        let night = try QuietHours(parsing: "23:00-07:00")
        #expect(!night.contains(Self.local(11, 22, 22, 59), in: Self.berlin))
        #expect(night.contains(Self.local(11, 22, 23, 0), in: Self.berlin))
        #expect(night.contains(Self.local(11, 23, 3, 0), in: Self.berlin))
        #expect(night.contains(Self.local(11, 23, 6, 59), in: Self.berlin))
        #expect(!night.contains(Self.local(11, 23, 7, 0), in: Self.berlin))
        #expect(night.end(ofQuietAt: Self.local(11, 22, 23, 30), in: Self.berlin) == Self.local(11, 23, 7))
        #expect(night.end(ofQuietAt: Self.local(11, 23, 2), in: Self.berlin) == Self.local(11, 23, 7))
        #expect(night.end(ofQuietAt: Self.local(11, 23, 12), in: Self.berlin) == nil)
        #expect(night.nextStart(after: Self.local(11, 23, 12), in: Self.berlin) == Self.local(11, 23, 23))
        // The same range in UTC is another instant.
        #expect(!night.contains(Self.local(11, 22, 23, 30), in: .gmt))  // 22:30Z
        #expect(night.contains(Self.local(11, 23, 7, 30), in: .gmt))  // 06:30Z
        let day = try QuietHours(parsing: "09:00-17:00")
        #expect(day.contains(Self.local(11, 23, 12), in: Self.berlin))
        #expect(!day.contains(Self.local(11, 23, 17), in: Self.berlin))
        #expect(QuietHours.clockTime(Self.local(11, 23, 7, 5), in: Self.berlin) == "07:05")
    }

    @Test func daylightSavingChangesKeepTheWallClock() throws {
        // 29 March 2026: Berlin's clocks go from 02:00 to 03:00; 25 October: from 03:00 back to 02:00.
        let night = try QuietHours(parsing: "01:00-02:30")
        let spring = try #require(night.end(ofQuietAt: Self.local(3, 29, 1, 30), in: Self.berlin))
        #expect(spring == Self.local(3, 29, 3, 0), "02:30 does not exist that night: the first instant after the gap")
        let seven = try QuietHours(parsing: "23:00-07:00")
        let autumn = try #require(seven.end(ofQuietAt: Self.local(10, 24, 23, 30), in: Self.berlin))
        #expect(autumn == Self.local(10, 25, 7))
        #expect(autumn.timeIntervalSince(Self.local(10, 24, 23, 30)) == 8.5 * 3_600, "a 25-hour day")
    }

    /// One entry, as a manifest writes it.
    private static func entry() throws -> Manifest.Entry {
        let json = """
            {"date": "2026-11-22T09:00:00Z", "tweet_id": "1", "text": "x", "url": "https://x.com/a/status/1",
             "author": {"id": "1", "name": "A", "username": "a", "avatar": null, "profile_image_url": null},
             "media": {"key": "3_1", "type": "photo", "alt_text": null, "width": 1, "height": 1, "source_url": null},
             "image": "images/3_1.jpg", "placeholder": false, "placeholder_reason": null}
            """
        return try InstantFormat.jsonDecoder().decode(Manifest.Entry.self, from: Data(json.utf8))
    }

    /// A refresher over an empty cache whose due-ness is asked with a timeline in hand.
    private static func dueness(
        quiet: String,
        made: Date,
        entries: Int,
        reloadAfter: Date?,
        now: Date
    ) throws -> Refresher.Dueness {
        let settings = FeedSettings(entries: entries, timeZone: berlin, quietHours: try QuietHours(parsing: quiet))
        let refresher = Refresher(
            store: CacheStore(directory: URL(fileURLWithPath: "/nonexistent/kfeed-quiet-hours")),
            settings: settings
        ) { throw KFeedError(.configuration, "no connection in this test") }
        var manifest = Manifest(
            generatedAt: made,
            query: settings.search.query.text,
            policy: .atEnd,
            reloadAfter: reloadAfter,
            size: settings.size,
            interval: .hour,
            entries: try (0..<entries).map { index in
                var entry = try Self.entry()
                entry.date = made.addingTimeInterval(Double(index) * 3_600)
                entry.tweetID = "\(index)"
                return entry
            }
        )
        manifest.fingerprints = Manifest.Fingerprints(
            timeline: settings.timelineFingerprint,
            renders: settings.renderFingerprint
        )
        return refresher.dueness(manifest: manifest, state: nil, now: now)
    }

    @Test func nothingIsDueInTheNightAndADueRefreshWaitsForItsEnd() throws {
        // Due at 03:00 (the timeline's reload): in the night, it waits until 07:00.
        let made = Self.local(11, 22, 22)
        let at3 = try Self.dueness(
            quiet: "23:00-07:00",
            made: made,
            entries: 6,
            reloadAfter: Self.local(11, 23, 3),
            now: Self.local(11, 23, 3, 30)
        )
        #expect(!at3.isDue)
        #expect(at3.until == Self.local(11, 23, 7))
        let before = try Self.dueness(
            quiet: "23:00-07:00",
            made: made,
            entries: 6,
            reloadAfter: Self.local(11, 23, 3),
            now: Self.local(11, 22, 22, 30)
        )
        #expect(!before.isDue, "made in the eve's hour: not due again for it")
        #expect(before.until == Self.local(11, 23, 7), "its reload falls in the night")
        let morning = try Self.dueness(
            quiet: "23:00-07:00",
            made: made,
            entries: 6,
            reloadAfter: Self.local(11, 23, 3),
            now: Self.local(11, 23, 7)
        )
        #expect(morning.isDue)
    }

    @Test func aTimelineThatWouldRunOutBeforeTheMorningIsDueOnTheEve() throws {
        // Made at 07:00 with 24 entries: it runs out at 07:00 tomorrow, the panel's wake.
        let made = Self.local(11, 22, 7)
        let afternoon = try Self.dueness(
            quiet: "23:00-07:00",
            made: made,
            entries: 24,
            reloadAfter: Self.local(11, 23, 6),
            now: Self.local(11, 22, 15)
        )
        #expect(!afternoon.isDue)
        #expect(afternoon.until == Self.local(11, 22, 22), "due in the last hour before the night")
        let eve = try Self.dueness(
            quiet: "23:00-07:00",
            made: made,
            entries: 24,
            reloadAfter: Self.local(11, 23, 6),
            now: Self.local(11, 22, 22, 10)
        )
        #expect(eve.isDue)
        // Made at 08:30, it covers the morning: no eve refresh.
        let covered = try Self.dueness(
            quiet: "23:00-07:00",
            made: Self.local(11, 22, 8, 30),
            entries: 24,
            reloadAfter: Self.local(11, 23, 7, 30),
            now: Self.local(11, 22, 22, 10)
        )
        #expect(!covered.isDue)
        #expect(covered.until == Self.local(11, 23, 7, 30))
    }
}

public import Foundation
import KFeedBase

/// A feed's night: a daily range of wall-clock times (`quiet = "23:00-07:00"`, `--quiet-hours`) in the feed's zone
/// (`timezone`, `--timezone`) during which no search is made and panels are told to sleep until its end
/// (`docs/timeline.md`, "Quiet hours").
///
/// The range starts at ``start`` (included) and ends at ``end`` (excluded); a range whose end is earlier in the day
/// than its start wraps midnight. A range whose two ends are equal is refused: it would mean either never or always,
/// and neither is what anyone writes it for.
public struct QuietHours: Sendable, Hashable, CustomStringConvertible {
    /// Minutes after midnight at which the quiet hours begin (0…1439).
    public let start: Int
    /// Minutes after midnight at which they end (0…1439), never equal to ``start``.
    public let end: Int

    /// Reads `HH:MM-HH:MM` (24-hour clock; one-digit hours allowed, spaces around the dash ignored).
    /// - Throws: `KFeedError` `.configuration` saying what to write.
    public init(parsing text: String) throws(KFeedError) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let start = Self.minutes(parts[0]), let end = Self.minutes(parts[1]) else {
            throw KFeedError(
                .configuration,
                "'\(Self.printable(text))' is not a range of quiet hours: give HH:MM-HH:MM on a 24-hour clock, "
                    + "like 23:00-07:00"
            )
        }
        guard start != end else {
            throw KFeedError(
                .configuration,
                "quiet hours '\(Self.printable(text))' start and end at the same time: give two different times, "
                    + "like 23:00-07:00 (leave quiet hours out for none)"
            )
        }
        self.start = start
        self.end = end
    }

    /// `HH:MM-HH:MM`.
    public var description: String { "\(Self.clock(start))-\(Self.clock(end))" }

    /// Whether `date` falls inside the quiet hours, read on the wall clock of `zone`.
    public func contains(_ date: Date, in zone: TimeZone) -> Bool {
        let minute = Self.minuteOfDay(date, in: zone)
        return start < end ? (start <= minute && minute < end) : (minute >= start || minute < end)
    }

    /// When the quiet hours that hold at `date` end (the next `end` on `zone`'s wall clock); nil when `date` is not
    /// inside them.
    public func end(ofQuietAt date: Date, in zone: TimeZone) -> Date? {
        guard contains(date, in: zone) else { return nil }
        return Self.next(end, after: date, in: zone)
    }

    /// The next instant after `date` at which the quiet hours begin.
    public func nextStart(after date: Date, in zone: TimeZone) -> Date {
        Self.next(start, after: date, in: zone)
    }

    /// `date` on `zone`'s wall clock as `HH:MM` (what `kfeed status` and `kfeed refresh -v` print).
    public static func clockTime(_ date: Date, in zone: TimeZone) -> String {
        clock(minuteOfDay(date, in: zone))
    }

    // MARK: - Wall-clock arithmetic

    /// The first instant after `date` whose wall-clock time in `zone` is `minute` after midnight (a time that a
    /// daylight-saving change skips counts as the first instant after the gap).
    private static func next(_ minute: Int, after date: Date, in zone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(hour: minute / 60, minute: minute % 60, second: 0)
        return calendar.nextDate(after: date, matching: components, matchingPolicy: .nextTime)
            ?? date.addingTimeInterval(86_400)
    }

    private static func minuteOfDay(_ date: Date, in zone: TimeZone) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
    }

    /// `H:MM` or `HH:MM` → minutes after midnight; nil for anything else.
    private static func minutes(_ text: Substring) -> Int? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        return hour * 60 + minute
    }

    private static func clock(_ minutes: Int) -> String {
        let hour = minutes / 60
        let minute = minutes % 60
        return (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }

    /// At most 40 printable ASCII characters of `text`, for an error message.
    private static func printable(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.prefix(40).map { $0.isASCII && $0.value >= 0x20 && $0.value != 0x7F ? $0 : "?" }
            )
        )
    }
}

extension TimeZone {
    /// Reads an IANA zone name (`Europe/Berlin`, `UTC`) for `timezone` and `--timezone`.
    /// - Throws: `KFeedError` `.configuration` naming the value.
    package static func named(_ text: String) throws(KFeedError) -> TimeZone {
        let name = text.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.count <= 64, name.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 }),
            let zone = TimeZone(identifier: name)
        else {
            let shown = String(
                text.unicodeScalars.prefix(64).map { $0.isASCII && $0.value >= 0x20 ? Character($0) : "?" }
            )
            throw KFeedError(
                .configuration,
                "'\(shown)' is not a time zone: give an IANA name like Europe/Berlin, America/New_York or UTC"
            )
        }
        return zone
    }
}

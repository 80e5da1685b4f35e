package import Foundation

/// Instants as the manifest writes them: ISO 8601 in UTC (`2026-11-22T09:00:00Z`), milliseconds only when present;
/// and as HTTP headers carry them (`Sun, 22 Nov 2026 09:00:00 GMT`).
///
/// Done with plain calendar arithmetic rather than `ISO8601DateFormatter`: every cron run and widget read parses
/// dozens of these, and building ICU formatters dominated their start-up time.
package enum InstantFormat {
    /// Formats `date` in UTC. Instants outside the years 0000…9999 (which `date(from:)` reads back) are clamped to
    /// them, and NaN formats as the earliest, so that any `Date`, however it was made, formats.
    package static func string(from date: Date) -> String {
        let interval = date.timeIntervalSince1970
        let clamped = interval.isNaN ? earliestSeconds : min(max(interval, earliestSeconds), latestSeconds)
        let milliseconds = Int64((clamped * 1_000).rounded(.down))
        let seconds = milliseconds.floorDivided(by: 1_000)
        let time = fields(ofSeconds: seconds)
        var text = "\(padded(time.year, 4))-\(padded(time.month))-\(padded(time.day))T\(padded(time.hour)):"
        text += "\(padded(time.minute)):\(padded(time.second))"
        let fraction = Int(milliseconds - seconds * 1_000)
        if fraction != 0 { text += ".\(padded(fraction, 3))" }
        return text + "Z"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS`, optional fractional seconds, then `Z` or an offset `±HH:MM`;
    /// nil for anything else (in particular a date without a zone).
    package static func date(from text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"), bytes[13] == UInt8(ascii: ":"),
            bytes[16] == UInt8(ascii: ":"), let year = number(bytes, 0, 4), let month = number(bytes, 5, 2),
            let day = number(bytes, 8, 2), let hour = number(bytes, 11, 2), let minute = number(bytes, 14, 2),
            let second = number(bytes, 17, 2), (1...12).contains(month), (1...daysIn(month, of: year)).contains(day),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var index = 19
        var fraction = 0.0
        if bytes[index] == UInt8(ascii: ".") {
            var scale = 0.1
            index += 1
            let start = index
            while index < bytes.count, let digit = digit(bytes[index]) {
                fraction += Double(digit) * scale
                scale /= 10
                index += 1
            }
            guard index > start, index - start <= 9 else { return nil }
        }
        guard index < bytes.count else { return nil }
        var offset = 0
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard index + 1 == bytes.count else { return nil }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard bytes.count == index + 6, bytes[index + 3] == UInt8(ascii: ":"),
                let hours = number(bytes, index + 1, 2), let minutes = number(bytes, index + 4, 2), hours < 24,
                minutes < 60
            else { return nil }
            offset = (hours * 3_600 + minutes * 60) * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
        default:
            return nil
        }
        let days = Self.days(fromYear: year, month: month, day: day)
        let seconds = days * 86_400 + Int64(hour * 3_600 + minute * 60 + second - offset)
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// `date` (whole seconds, rounded down; clamped as ``string(from:)`` clamps) as an HTTP date, IMF-fixdate
    /// (`Sun, 22 Nov 2026 09:00:00 GMT`), as `Last-Modified` and `Date` headers carry it.
    package static func httpDate(from date: Date) -> String {
        let interval = date.timeIntervalSince1970
        let clamped = interval.isNaN ? earliestSeconds : min(max(interval, earliestSeconds), latestSeconds)
        let seconds = Int64(clamped.rounded(.down))
        let time = fields(ofSeconds: seconds)
        // 1970-01-01 was a Thursday.
        let weekday = weekdays[Int(((seconds.floorDivided(by: 86_400) + 3) % 7 + 7) % 7)]
        return "\(weekday), \(padded(time.day)) \(months[time.month - 1]) \(padded(time.year, 4)) "
            + "\(padded(time.hour)):\(padded(time.minute)):\(padded(time.second)) GMT"
    }

    /// Parses an HTTP date in its one current form, IMF-fixdate (`Sun, 22 Nov 2026 09:00:00 GMT`, RFC 9110 §5.6.7),
    /// as `Date` and `Retry-After` headers carry it; nil for anything else. The day name must be one, but it is
    /// redundant with the date and not checked against it.
    package static func date(fromHTTPDate text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 29, bytes[3] == UInt8(ascii: ","), bytes[4] == space, bytes[7] == space,
            bytes[11] == space, bytes[16] == space, bytes[19] == UInt8(ascii: ":"), bytes[22] == UInt8(ascii: ":"),
            bytes[25] == space, bytes[26...].elementsEqual("GMT".utf8),
            weekdays.contains(where: { bytes[0..<3].elementsEqual($0.utf8) }),
            let monthIndex = months.firstIndex(where: { bytes[8..<11].elementsEqual($0.utf8) }),
            let day = number(bytes, 5, 2), let year = number(bytes, 12, 4), let hour = number(bytes, 17, 2),
            let minute = number(bytes, 20, 2), let second = number(bytes, 23, 2),
            (1...daysIn(monthIndex + 1, of: year)).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        let days = Self.days(fromYear: year, month: monthIndex + 1, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + Int64(hour * 3_600 + minute * 60 + second)))
    }

    private static let space = UInt8(ascii: " ")
    private static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// 0000-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z, in seconds since 1970.
    private static let earliestSeconds = -62_167_219_200.0
    private static let latestSeconds = 253_402_300_799.999

    /// A JSON encoder writing instants as `InstantFormat` strings, pretty-printed with sorted keys (the cache's files).
    package static func jsonEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(string(from: date))
        }
        return encoder
    }

    /// A JSON decoder reading instants written by `jsonEncoder()` (or any ISO 8601 instant with a zone).
    package static func jsonDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let instant = date(from: text) else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "not an ISO 8601 instant: \(text)"
                )
            }
            return instant
        }
        return decoder
    }

    // MARK: - Calendar arithmetic (proleptic Gregorian; Howard Hinnant's days-from-civil algorithms)

    static func days(fromYear year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = Int64((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1)
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The calendar fields of `seconds` since 1970-01-01T00:00 (any zone offset already added).
    package static func fields(
        ofSeconds seconds: Int64
    ) -> (
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
    ) {
        let days = seconds.floorDivided(by: 86_400)
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = civil(fromDays: days)
        return (year, month, day, secondOfDay / 3_600, secondOfDay / 60 % 60, secondOfDay % 60)
    }

    /// A UTC offset in seconds as `+09:00` or `-03:30`.
    package static func offset(_ seconds: Int) -> String {
        "\(seconds < 0 ? "-" : "+")\(padded(abs(seconds) / 3_600)):\(padded(abs(seconds) % 3_600 / 60))"
    }

    /// `value` in decimal, zero-padded to `width` digits.
    package static func padded(_ value: Int, _ width: Int = 2) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthPrime = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * monthPrime + 2) / 5 + 1)
        let month = Int(monthPrime < 10 ? monthPrime + 3 : monthPrime - 9)
        let year = Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    private static func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func digit(_ byte: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
    }

    private static func number(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for index in start..<start + count {
            guard let digit = digit(bytes[index]) else { return nil }
            value = value * 10 + digit
        }
        return value
    }
}

extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return self % divisor < 0 ? quotient - 1 : quotient
    }
}

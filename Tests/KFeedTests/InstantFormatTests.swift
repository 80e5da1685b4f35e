import Foundation
import Testing

@testable import KFeed
@testable import KFeedBase
@testable import KFeedImages

struct InstantFormatTests {
    /// 2026-11-22 09:00:00 UTC.
    private static let instant = Date(timeIntervalSince1970: 1_795_338_000)

    @Test(
        arguments: [
            ("2026-11-22T09:00:00Z", 0.0),
            ("2026-11-22T18:00:00+09:00", 0),
            ("2026-11-22T04:00:00-05:00", 0),
            ("2026-11-22T14:30:00+05:30", 0),
            ("2026-11-22T09:00:00+00:00", 0),
            ("2026-11-22T09:00:00.000Z", 0),
            ("2026-11-22T09:00:00.250Z", 0.25),
            ("2026-11-22T10:00:01.5+01:00", 1.5),
            ("2026-11-22T09:59:00Z", 3_540),
        ] as [(String, TimeInterval)]
    )
    func instantsWithAZoneParse(text: String, offset: TimeInterval) throws {
        let date = try #require(InstantFormat.date(from: text))
        #expect(abs(date.timeIntervalSince(Self.instant) - offset) < 0.001)
    }

    @Test(arguments: [
        "2026-11-22T09:00:00", "2026-11-22T09:00", "2026-11-22", "2026-11-22 09:00:00Z", "09:00:00Z", "", "now",
        "1795338000", "2026-13-01T00:00:00Z", "2026-11-22T09:00:00.250",
    ])
    func textWithoutAZoneOrMalformedIsNil(text: String) {
        #expect(InstantFormat.date(from: text) == nil)
    }

    @Test func wholeSecondsFormatWithoutAFraction() {
        #expect(InstantFormat.string(from: Self.instant) == "2026-11-22T09:00:00Z")
        #expect(InstantFormat.string(from: Self.instant.addingTimeInterval(23 * 3_600)) == "2026-11-23T08:00:00Z")
    }

    @Test func fractionalSecondsFormatWithMilliseconds() {
        #expect(InstantFormat.string(from: Self.instant.addingTimeInterval(0.25)) == "2026-11-22T09:00:00.250Z")
    }

    @Test(arguments: [0.0, 0.5, 0.125, 59.999, -3_600, 86_400 * 365] as [TimeInterval])
    func formattedInstantsParseBack(offset: TimeInterval) throws {
        let date = Self.instant.addingTimeInterval(offset)
        let parsed = try #require(InstantFormat.date(from: InstantFormat.string(from: date)))
        #expect(abs(parsed.timeIntervalSince(date)) < 0.001)
    }

    @Test func formattingIgnoresTheProcessTimeZone() {
        #expect(InstantFormat.string(from: Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
    }

    /// Instants from 1906 to 2096, a prime number of seconds apart, so every month, leap day and time of day is hit.
    private static let spreadInstants: [TimeInterval] = Array(
        stride(from: -2_000_000_000, to: 4_000_000_000, by: 7_919_993)
    )

    @Test func formattingAndParsingAgreeWithFoundationsISO8601Formatter() throws {
        let reference = ISO8601DateFormatter()
        reference.timeZone = TimeZone(identifier: "UTC")
        for seconds in Self.spreadInstants {
            let date = Date(timeIntervalSince1970: seconds)
            let text = InstantFormat.string(from: date)
            #expect(text == reference.string(from: date))
            #expect(InstantFormat.date(from: text) == date)
            let shifted = text.replacingOccurrences(of: "Z", with: "+05:30")
            #expect(InstantFormat.date(from: shifted) == reference.date(from: shifted))
        }
    }

    /// Found by fuzzing (`x-rate-limit-reset: nan` reached the formatter): every `Date` formats, never traps.
    @Test(
        arguments: [
            (.nan, "0000-01-01T00:00:00Z"), (-.infinity, "0000-01-01T00:00:00Z"), (-1e300, "0000-01-01T00:00:00Z"),
            (.infinity, "9999-12-31T23:59:59.999Z"), (1e20, "9999-12-31T23:59:59.999Z"),
            (253_402_300_799, "9999-12-31T23:59:59Z"), (-62_167_219_200, "0000-01-01T00:00:00Z"),
        ] as [(TimeInterval, String)]
    )
    func instantsOutsideFourDigitYearsClampToThem(seconds: TimeInterval, text: String) {
        let formatted = InstantFormat.string(from: Date(timeIntervalSince1970: seconds))
        #expect(formatted == text)
        #expect(InstantFormat.date(from: formatted) != nil)
    }

    @Test(arguments: [
        "2026-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-11-22T24:00:00Z", "2026-11-22T09:60:00Z",
        "2026-11-22T09:00:00+24:00", "2026-11-22T09:00:00.Z", "2026-11-22T09:00:00Zjunk", "2026-11-22 09:00:00",
    ])
    func rejectsImpossibleOrZonelessInstants(text: String) {
        #expect(InstantFormat.date(from: text) == nil)
    }

    // MARK: - HTTP dates

    @Test func httpDatesParse() throws {
        #expect(InstantFormat.date(fromHTTPDate: "Sun, 22 Nov 2026 09:00:00 GMT") == Self.instant)
        #expect(
            InstantFormat.date(fromHTTPDate: "Thu, 29 Feb 2024 23:59:59 GMT")?.timeIntervalSince1970 == 1_709_251_199
        )
        #expect(InstantFormat.date(fromHTTPDate: "Thu, 01 Jan 1970 00:00:00 GMT")?.timeIntervalSince1970 == 0)
        #expect(InstantFormat.httpDate(from: Self.instant.addingTimeInterval(0.999)) == "Sun, 22 Nov 2026 09:00:00 GMT")
        #expect(InstantFormat.httpDate(from: Date(timeIntervalSince1970: -1)) == "Wed, 31 Dec 1969 23:59:59 GMT")
    }

    @Test(arguments: [
        "", "Sun, 22 Nov 2026 09:00:00", "Sun, 22 Nov 2026 09:00:00 UTC", "Sun, 22 Nov 2026 09:00:00 GMTx",
        "Sunday, 22-Nov-26 09:00:00 GMT", "Sun Nov 22 09:00:00 2026", "Sun, 2 Nov 2026 09:00:00 GMT",
        "Sun, 22 nov 2026 09:00:00 GMT", "Xyz, 22 Nov 2026 09:00:00 GMT", "Sun, 31 Nov 2026 09:00:00 GMT",
        "Sun, 29 Feb 2026 09:00:00 GMT", "Sun, 22 Nov 2026 24:00:00 GMT", "Sun, 22 Nov 2026 09:60:00 GMT",
        "Sun, 22 Nov +026 09:00:00 GMT", "Sun, 22 Nov 2026 09:00:00 GMT ", "120",
    ])
    func malformedHTTPDatesAreNil(text: String) {
        #expect(InstantFormat.date(fromHTTPDate: text) == nil)
    }

    @Test func httpDatesFormatAndParseAsFoundationsFormatterDoes() throws {
        let reference = DateFormatter()
        reference.locale = Locale(identifier: "en_US_POSIX")
        reference.timeZone = TimeZone(identifier: "GMT")
        reference.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        for seconds in Self.spreadInstants {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(InstantFormat.httpDate(from: date) == reference.string(from: date))
            #expect(InstantFormat.date(fromHTTPDate: reference.string(from: date)) == date)
        }
    }
}

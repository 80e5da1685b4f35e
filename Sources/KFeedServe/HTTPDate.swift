import Foundation
import KFeed

/// IMF-fixdate (`Sun, 22 Nov 2026 09:00:00 GMT`) for `Last-Modified`, without a formatter.
enum HTTPDate {
    private static let days = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Formats `date` (whole seconds, rounded down) in GMT.
    static func string(from date: Date) -> String {
        // InstantFormat writes `YYYY-MM-DDTHH:MM:SS[.mmm]Z`; take its fields rather than redo the calendar.
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let text = Array(InstantFormat.string(from: Date(timeIntervalSince1970: Double(seconds))).utf8)
        func part(_ start: Int, _ count: Int) -> String { String(decoding: text[start..<start + count], as: UTF8.self) }
        let weekday = days[Int(((seconds / 86_400) % 7 + 7) % 7)]
        let month = months[(Int(part(5, 2)) ?? 1) - 1]
        return "\(weekday), \(part(8, 2)) \(month) \(part(0, 4)) \(part(11, 8)) GMT"
    }
}

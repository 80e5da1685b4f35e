package import Foundation
import KFeedBase

/// A post's time as its attribution shows it, in the reader's zone: `14:03` and `26 Nov 2026` (24-hour clock,
/// English month abbreviations, the same in every locale).
package struct PostTime: Sendable, Hashable {
    /// `14:03`.
    package var clock: String
    /// `26 Nov 2026`.
    package var day: String

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The time of `date` in `timeZone`.
    package init(_ date: Date, timeZone: TimeZone) {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down)) + Int64(timeZone.secondsFromGMT(for: date))
        let local = InstantFormat.fields(ofSeconds: seconds)
        clock = "\(InstantFormat.padded(local.hour)):\(InstantFormat.padded(local.minute))"
        day = "\(local.day) \(Self.months[(local.month - 1 + 12) % 12]) \(local.year)"
    }

    /// `26 Nov 2026 14:03`.
    package var text: String { "\(day) \(clock)" }
}

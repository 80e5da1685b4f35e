package import Foundation
import KFeedImages

#if canImport(Glibc)
    import Glibc
#endif

/// The human-readable schedule: a header (query, policy, reload date), then one line per entry.
/// Times print in `timeZone` with their offset, so the repeated hour at a daylight-saving change reads as two lines.
package struct ScheduleText: Sendable {
    /// The UTC offset, in seconds, of the zone times print in, at a given instant.
    package var offset: @Sendable (Date) -> Int
    /// The instant that decides which entry is current and how long ago/until things are; nil to leave it out.
    package var now: Date?

    /// Creates a formatter.
    package init(timeZone: TimeZone, now: Date? = nil) {
        self.offset = { timeZone.secondsFromGMT(for: $0) }
        self.now = now
    }

    /// A formatter for the process's local zone (`TZ`, else `/etc/localtime`), read through the C library's
    /// `localtime_r` rather than ICU, whose zone data costs more start-up time than printing a whole schedule.
    package static func systemLocal(now: Date? = nil) -> ScheduleText {
        var text = ScheduleText(timeZone: .gmt, now: now)
        text.offset = { date in
            var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
            var parts = tm()
            guard localtime_r(&seconds, &parts) != nil else { return 0 }
            return Int(parts.tm_gmtoff)
        }
        return text
    }

    /// `2026-11-22 09:00 +09:00` in the formatter's zone.
    package func localTime(_ date: Date) -> String {
        let offset = self.offset(date)
        let local = InstantFormat.fields(ofSeconds: Int64(date.timeIntervalSince1970.rounded(.down)) + Int64(offset))
        let two = { InstantFormat.padded($0) }
        return "\(local.year)-\(two(local.month))-\(two(local.day)) \(two(local.hour)):\(two(local.minute)) "
            + InstantFormat.offset(offset)
    }

    /// `09:00`, the 24-hour clock time of `date` in the formatter's zone (captions, widgets).
    package func clockTime(_ date: Date) -> String {
        let local = InstantFormat.fields(
            ofSeconds: Int64(date.timeIntervalSince1970.rounded(.down)) + Int64(offset(date))
        )
        return "\(InstantFormat.padded(local.hour)):\(InstantFormat.padded(local.minute))"
    }

    /// The whole schedule, one string per line.
    package func lines(for manifest: Manifest) -> [String] {
        var lines = ["query    \(manifest.query)"]
        var generated = "made     \(localTime(manifest.generatedAt))"
        if let now { generated += " (\(Self.relative(manifest.generatedAt, to: now)))" }
        lines.append(generated)
        switch manifest.reloadAfter {
        case .some(let reload):
            var line = "reload   \(manifest.policy.name), after \(localTime(reload))"
            if let now { line += manifest.wantsReload(at: now) ? " (due now)" : " (\(Self.relative(reload, to: now)))" }
            lines.append(line)
        case .none:
            lines.append("reload   never (only kfeed refresh --force)")
        }
        lines.append(
            "entries  \(manifest.entries.count), every \(manifest.interval), size \(manifest.size.name) (\(manifest.size))"
        )
        if let reason = manifest.emptyReason { lines.append("empty    \(reason)") }
        lines.append("")
        let current = now.flatMap { manifest.currentEntryIndex(at: $0) }
        let width = min(16, manifest.entries.map { $0.author.username.count + 1 }.max() ?? 0)
        for (index, entry) in manifest.entries.enumerated() {
            let marker = index == current ? "▶" : " "
            let user = "@" + entry.author.username
            var line =
                "\(marker) \(localTime(entry.date))  \(user.padding(toLength: max(width, user.count), withPad: " ", startingAt: 0))"
                + "  \(entry.media.type.padding(toLength: 12, withPad: " ", startingAt: 0))  \(entry.url.absoluteString)"
            if entry.placeholder { line += "  [placeholder: \(entry.placeholderReason ?? "unknown")]" }
            if entry.isRepeat { line += "  (again)" }
            lines.append(line)
        }
        return lines
    }

    /// "3 h ago", "in 20 h", "in 5 min", "just now".
    package static func relative(_ date: Date, to now: Date) -> String {
        let seconds = date.timeIntervalSince(now)
        let magnitude = abs(seconds)
        let amount: String
        switch magnitude {
        case ..<60: return "just now"
        case ..<3_600: amount = "\(Int(magnitude / 60)) min"
        case ..<(2 * 86_400): amount = "\(Int(magnitude / 3_600)) h"
        default: amount = "\(Int(magnitude / 86_400)) d"
        }
        return seconds < 0 ? "\(amount) ago" : "in \(amount)"
    }
}

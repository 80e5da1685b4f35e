public import Foundation
import KFeedBase

/// When a widget should ask for a new timeline, as WidgetKit's `TimelineReloadPolicy`.
public enum ReloadPolicy: Sendable, Hashable, CustomStringConvertible {
    /// Once the last entry's date has passed (the default).
    case atEnd
    /// Once this instant has passed.
    case after(Date)
    /// Only when asked (`kfeed refresh --force`).
    case never

    /// The manifest's `policy` value: `atEnd`, `after` or `never`.
    public var name: String {
        switch self {
        case .atEnd: "atEnd"
        case .after: "after"
        case .never: "never"
        }
    }

    public var description: String {
        switch self {
        case .after(let date): "after \(InstantFormat.string(from: date))"
        default: name
        }
    }

    /// Parses `atEnd`, `never`, `after:DATE` (ISO 8601 with a zone) or `after:DURATION` (from `now`, e.g. `after:6h`).
    /// - Throws: `KFeedError` with code `.usage` naming the accepted forms.
    public init(parsing text: String, now: Date) throws {
        switch text.lowercased() {
        case "atend", "at-end": self = .atEnd
        case "never": self = .never
        case let lowered where lowered.hasPrefix("after:"):
            let value = String(text.dropFirst("after:".count))
            if let date = InstantFormat.date(from: value) {
                self = .after(date)
            } else if let duration = try? Interval(parsing: value) {
                self = .after(now.addingTimeInterval(duration.seconds))
            } else {
                throw KFeedError(
                    .usage,
                    "unknown policy '\(text)': after: takes an ISO 8601 date with a zone or a duration"
                )
            }
        default:
            throw KFeedError(
                .usage,
                "unknown policy '\(text)': use atEnd, never, after:DATE or after:DURATION (e.g. after:6h)"
            )
        }
    }
}

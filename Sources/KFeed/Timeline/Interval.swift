public import Foundation
import KFeedBase

/// A time between entries, parsed from `90s`, `15m`, `1h`, `1h30m`, `1d`: 1 minute to 7 days.
public struct Interval: Sendable, Hashable, CustomStringConvertible {
    /// Seconds.
    public var seconds: TimeInterval

    /// One hour, the default.
    public static let hour = Interval(seconds: 3_600)

    /// Creates an interval of whole seconds.
    public init(seconds: TimeInterval) {
        self.seconds = seconds
    }

    /// Parses one or more `<number><unit>` parts, units `s`, `m`, `h`, `d`.
    /// - Throws: `KFeedError` with code `.usage` when the text is malformed or outside 1 minute…7 days.
    public init(parsing text: String) throws {
        let error = KFeedError(.usage, "invalid interval '\(text)': use e.g. 15m, 1h, 2h or 1h30m (1 minute to 7 days)")
        var total = 0
        var number = ""
        for character in text.lowercased() {
            if character.isASCII && character.isNumber {
                number.append(character)
                continue
            }
            let unit: Int
            switch character {
            case "s": unit = 1
            case "m": unit = 60
            case "h": unit = 3_600
            case "d": unit = 86_400
            default: throw error
            }
            guard let value = Int(number), number.count <= 6 else { throw error }
            total += value * unit
            number = ""
        }
        guard number.isEmpty, (60...7 * 86_400).contains(total) else { throw error }
        seconds = TimeInterval(total)
    }

    /// The shortest form, e.g. `1h`, `90m`, `1h30m`.
    public var description: String {
        var rest = Int(seconds)
        var text = ""
        for (unit, name) in [(86_400, "d"), (3_600, "h"), (60, "m"), (1, "s")] where rest >= unit {
            text += "\(rest / unit)\(name)"
            rest %= unit
        }
        return text.isEmpty ? "0s" : text
    }
}

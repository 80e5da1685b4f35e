public import Foundation

/// Instants as the manifest writes them: ISO 8601 in UTC (`2026-11-22T09:00:00Z`), fractions only when present.
public enum InstantFormat {
    /// Formats `date` in UTC.
    public static func string(from date: Date) -> String {
        let whole = date.timeIntervalSince1970.rounded(.down)
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        if date.timeIntervalSince1970 != whole {
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        }
        return formatter.string(from: date)
    }

    /// Parses ISO 8601 with `Z` or an offset (`+09:00`), with or without fractional seconds;
    /// nil for anything without a zone.
    public static func date(from text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}

/// Text from outside (API bodies, post text) made safe for one log or error line.
public enum Sanitized {
    /// Control characters become spaces, runs of white space fold, and the result is cut to `limit` characters.
    public static func excerpt(_ text: String, limit: Int = 120) -> String {
        var result = ""
        var lastWasSpace = false
        for scalar in text.unicodeScalars {
            let isSpace =
                scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
                || scalar.properties.isBidiControl
            if isSpace {
                if !lastWasSpace && !result.isEmpty { result.unicodeScalars.append(" ") }
                lastWasSpace = true
            } else {
                result.unicodeScalars.append(scalar)
                lastWasSpace = false
            }
        }
        result = result.trimmingCharacters(in: .whitespaces)
        guard result.count > limit else { return result }
        return String(result.prefix(limit - 1)) + "…"
    }
}

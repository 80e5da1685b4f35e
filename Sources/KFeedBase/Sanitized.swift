import Foundation

/// Text from outside (API bodies, post text) made safe for one log or error line.
package enum Sanitized {
    /// Control characters become spaces, runs of white space fold, and the result is cut to `limit` characters.
    package static func excerpt(_ text: String, limit: Int = 120) -> String {
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

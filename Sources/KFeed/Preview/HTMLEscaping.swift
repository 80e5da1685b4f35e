/// Text from outside (post text, names, alt text, queries) made safe for HTML text and quoted attribute values.
package enum HTMLEscaping {
    /// Replaces `&`, `<`, `>`, `"` and `'` with character references, so the result can stand in element content
    /// and in a single- or double-quoted attribute value without ending it or starting markup.
    package static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

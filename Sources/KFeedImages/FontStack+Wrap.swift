import Foundation

extension FontStack {
    /// A text wrapped to lines.
    struct Wrapped: Sendable {
        /// The lines, top to bottom.
        var lines: [TextLine]
        /// Whether every character is on the lines (false when the last line ends in `…`).
        var isComplete: Bool
    }

    /// Wraps `text` to at most `maxLines` lines no wider than `maxWidth` pixels, its characters in their order and
    /// unchanged: a line breaks after white space, next to a Han, kana or other ideographic character, or inside a
    /// word wider than a whole line; a line break of the text starts a new line (blank lines are not drawn); white
    /// space draws as a space and other control characters draw as nothing. When the text needs more lines, the last
    /// line holds the rest on one line, cut at its end with `…`.
    /// - Returns: the lines, or nil when no installed font can draw some character of the text.
    func wrap(_ text: String, pixelSize: Int, maxWidth: Float, maxLines: Int) -> Wrapped? {
        let paragraphs = Self.paragraphs(of: text)
        var lines: [TextLine] = []
        guard maxLines > 0 else { return Wrapped(lines: [], isComplete: paragraphs.isEmpty) }
        func line(_ text: String) -> TextLine? {
            layout(
                String(text.reversed().drop { $0 == " " }.reversed()),
                pixelSize: pixelSize,
                bold: false,
                maxWidth: .infinity
            )
        }
        for (number, paragraph) in paragraphs.enumerated() {
            var tokens = Self.tokens(of: paragraph)[...]
            var current = ""
            while let token = tokens.first {
                if lines.count == maxLines - 1 {
                    // The last line: everything left, cut with "…" when it does not fit.
                    let rest = ([current + tokens.joined()] + paragraphs[(number + 1)...]).joined(separator: " ")
                    guard let last = layout(rest, pixelSize: pixelSize, bold: false, maxWidth: maxWidth) else {
                        return nil
                    }
                    lines.append(last)
                    return Wrapped(lines: lines, isComplete: !last.isEllipsised)
                }
                guard let candidate = line(current + token) else { return nil }
                if candidate.width <= maxWidth {
                    current += token
                    tokens.removeFirst()
                } else if current.isEmpty {
                    // A word wider than the line: as many of its characters as fit, at least one.
                    let characters = Array(token)
                    var low = 1
                    var high = characters.count - 1
                    var fits = 1
                    while low <= high {
                        let middle = (low + high) / 2
                        guard let part = line(String(characters[..<middle])) else { return nil }
                        if part.width <= maxWidth {
                            fits = middle
                            low = middle + 1
                        } else {
                            high = middle - 1
                        }
                    }
                    guard let head = line(String(characters[..<fits])) else { return nil }
                    lines.append(head)
                    tokens[tokens.startIndex] = String(characters[fits...])
                } else {
                    guard let done = line(current) else { return nil }
                    lines.append(done)
                    current = ""
                }
            }
            if !current.isEmpty {
                guard let done = line(current) else { return nil }
                lines.append(done)
            }
        }
        return Wrapped(lines: lines, isComplete: true)
    }

    /// The text's lines as drawn: white space as spaces, other control characters left out, blank lines dropped.
    static func paragraphs(of text: String) -> [String] {
        var paragraphs: [String] = []
        var current = ""
        for character in text {
            if character.isNewline {
                paragraphs.append(current)
                current = ""
            } else if character.isWhitespace {
                current.append(" ")
            } else if character.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .control }) {
                continue
            } else {
                current.append(character)
            }
        }
        paragraphs.append(current)
        return paragraphs.map { $0.trimmingCharacters(in: [" "]) }.filter { !$0.isEmpty }
    }

    /// A line's pieces that a break may come between: a word with the spaces after it, or one ideographic
    /// character.
    static func tokens(of paragraph: String) -> [String] {
        var tokens: [String] = []
        var token = ""
        for character in paragraph {
            if let last = token.last, character != " ",
                last == " " || isIdeographic(last) || isIdeographic(character)
            {
                tokens.append(token)
                token = ""
            }
            token.append(character)
        }
        if !token.isEmpty { tokens.append(token) }
        return tokens
    }

    /// Han, kana, and fullwidth forms: scripts written without spaces, where a line may break between any two
    /// characters.
    static func isIdeographic(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first else { return false }
        switch scalar.value {
        case 0x2E80...0x2FFF, 0x3040...0x30FF, 0x3100...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF,
            0xFF00...0xFFEF, 0x20000...0x3FFFF:
            return true
        default: return false
        }
    }
}

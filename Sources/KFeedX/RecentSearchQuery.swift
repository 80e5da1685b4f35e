import Foundation
import KFeedBase

/// A validated recent-search query: built from context annotations, or a raw query checked before any request.
public struct RecentSearchQuery: Sendable, Hashable, CustomStringConvertible {
    /// The query text exactly as it is sent.
    public let text: String

    /// The longest query self-serve access accepts, in characters.
    public static let maxLength = 512

    /// The filter appended to context queries: posts with images, no retweets.
    public static let imageFilter = "has:images -is:retweet"

    /// The default: K-pop posts with images, no retweets.
    public static let `default` = RecentSearchQuery(contexts: [.kpop])

    /// Builds `context:A OR context:B … has:images -is:retweet`; several contexts are grouped in parentheses.
    /// - Parameter contexts: at least one annotation; an empty list means the default (K-pop).
    public init(contexts: [ContextAnnotation]) {
        var unique: [ContextAnnotation] = []
        for context in contexts where !unique.contains(context) { unique.append(context) }
        if unique.isEmpty { unique = [.kpop] }
        let operators = unique.map(\.queryOperator)
        let selector = operators.count == 1 ? operators[0] : "(\(operators.joined(separator: " OR ")))"
        text = "\(selector) \(Self.imageFilter)"
    }

    /// Validates a raw query and keeps it exactly as given.
    /// - Throws: `KFeedError` with code `.configuration` when the query is empty, longer than 512 characters,
    ///   has unbalanced quotes or parentheses, a malformed `context:` id, or no standalone operator.
    public init(raw: String) throws {
        try Self.validate(raw)
        text = raw
    }

    public var description: String { text }

    // MARK: - Validation

    /// Operators that may not stand alone: a query made only of these (and negations) is rejected by X.
    private static let conjunctionRequired: Set<String> = [
        "is", "has", "lang", "sample", "-is", "-has", "-lang",
    ]

    private static func validate(_ raw: String) throws {
        func invalid(_ why: String) -> KFeedError {
            KFeedError(.configuration, "invalid query: \(why)")
        }
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            throw invalid("it is empty; give search terms or use --context")
        }
        let length = raw.unicodeScalars.count
        guard length <= maxLength else {
            throw invalid("it has \(length) characters, more than the \(maxLength) X accepts; shorten it")
        }
        if let control = raw.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            throw invalid("it contains the control character U+\(String(control.value, radix: 16, uppercase: true))")
        }
        let terms = try tokens(of: raw)
        for term in terms where term.lowercased().hasPrefix("context:") || term.lowercased().hasPrefix("-context:") {
            let id = term.drop { $0 != ":" }.dropFirst()
            let parts = id.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy(ContextAnnotation.isDecimalID) else {
                throw invalid("malformed '\(term)': use context:DOMAIN.ENTITY with decimal ids")
            }
        }
        guard terms.contains(where: isStandalone) else {
            throw invalid(
                "no standalone operator (is:, has: and lang: need a keyword, #tag, @user, from: or context: beside them)"
            )
        }
    }

    /// Splits a query into terms: quoted phrases stay whole, parentheses and `OR` are dropped.
    private static func tokens(of raw: String) throws -> [String] {
        var terms: [String] = []
        var current = ""
        var inQuotes = false
        var depth = 0
        func flush() {
            if !current.isEmpty && current != "OR" { terms.append(current) }
            current = ""
        }
        for character in raw {
            if inQuotes {
                current.append(character)
                if character == "\"" {
                    inQuotes = false
                    flush()
                }
                continue
            }
            switch character {
            case "\"":
                inQuotes = true
                current.append(character)
            case "(":
                flush()
                depth += 1
            case ")":
                flush()
                depth -= 1
                guard depth >= 0 else {
                    throw KFeedError(.configuration, "invalid query: a ')' has no matching '('")
                }
            case _ where character.isWhitespace:
                flush()
            default:
                current.append(character)
            }
        }
        guard !inQuotes else {
            throw KFeedError(.configuration, "invalid query: a quoted phrase is not closed; add the missing '\"'")
        }
        guard depth == 0 else {
            throw KFeedError(.configuration, "invalid query: a '(' is not closed; add the missing ')'")
        }
        flush()
        return terms
    }

    /// A standalone term: a keyword, phrase, #hashtag, @mention or any operator X lets stand alone.
    private static func isStandalone(_ term: String) -> Bool {
        guard !term.hasPrefix("-") else { return false }
        if term.hasPrefix("\"") { return term.count > 2 }
        guard let colon = term.firstIndex(of: ":"), term.first != ":" else { return true }
        let name = term[..<colon].lowercased()
        return !conjunctionRequired.contains(name)
    }
}

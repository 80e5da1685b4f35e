import KFeedBase

/// An X context annotation, `DOMAIN.ENTITY` (both decimal ids), used as the `context:` search operator.
public struct ContextAnnotation: Sendable, Hashable, CustomStringConvertible {
    /// The domain id, for example `55` (music genre).
    public var domainID: String
    /// The entity id, for example `888105153038958593` (K-pop).
    public var entityID: String

    /// K-pop: kfeed's default.
    public static let kpop = ContextAnnotation(validDomainID: "55", entityID: "888105153038958593")

    private init(validDomainID: String, entityID: String) {
        self.domainID = validDomainID
        self.entityID = entityID
    }

    /// Parses `DOMAIN.ENTITY`, for example `55.888105153038958593`.
    /// - Throws: `KFeedError` with code `.configuration` when either part is not 1…19 decimal digits.
    public init(parsing text: String) throws {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy(Self.isDecimalID) else {
            throw KFeedError(
                .configuration,
                "malformed context '\(text)': use DOMAIN.ENTITY with decimal ids, e.g. 55.888105153038958593"
            )
        }
        self.init(validDomainID: String(parts[0]), entityID: String(parts[1]))
    }

    /// The operator as it appears in a query: `context:55.888105153038958593`.
    public var queryOperator: String { "context:\(domainID).\(entityID)" }

    public var description: String { "\(domainID).\(entityID)" }

    static func isDecimalID(_ text: Substring) -> Bool {
        (1...19).contains(text.utf8.count)
            && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}

import KFeedBase
import KFeedHTTP

/// An app-only bearer token. It never prints: its description is redacted.
public struct BearerToken: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The secret, only for the `Authorization` header.
    let secret: String

    /// Validates a token: non-empty, no white space or control characters inside, at most 1024 bytes.
    /// - Parameters:
    ///   - text: the token.
    ///   - source: where the token came from, named in the error (never the token itself).
    /// - Throws: `KFeedError` with code `.configuration`.
    public init(_ text: String, source: String) throws {
        guard !text.isEmpty else {
            throw KFeedError(.configuration, "the bearer token from \(source) is empty: set it to your app's token")
        }
        guard text.utf8.count <= 1_024,
            text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
        else {
            throw KFeedError(
                .configuration,
                "the bearer token from \(source) contains white space, control or non-ASCII characters: copy it again"
            )
        }
        secret = text
    }

    /// The `Authorization` header value.
    var authorization: HTTPHeader { HTTPHeader("Authorization", "Bearer \(secret)") }

    public var description: String { "[redacted]" }
    public var debugDescription: String { "BearerToken([redacted])" }
}

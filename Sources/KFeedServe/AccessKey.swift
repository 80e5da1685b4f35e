import Foundation
import HTTPTypes
import Hummingbird

/// The key `--key-file` gives: a request must carry it as `Authorization: Bearer KEY`, `Access-Token: KEY` (TRMNL)
/// or `?key=KEY`. Compared in constant time; never logged or echoed.
struct AccessKey: Sendable {
    /// The header TRMNL devices send their key in.
    static let accessTokenHeader = HTTPField.Name("Access-Token")!

    private let bytes: [UInt8]

    /// Wraps a key; nil when it is empty after trimming whitespace.
    init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        bytes = Array(trimmed.utf8)
    }

    /// The key as text, for `/api/setup`'s answer to a device allowed to have it.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Whether `request` carries the key in any of the three places.
    func isPresented(in request: Request) -> Bool {
        var found = isPresented(inHeaders: request.headers)
        if let query = request.uri.queryParameters["key"] { found = matches(query) || found }
        return found
    }

    /// Whether `headers` carry the key (`Authorization: Bearer` or `Access-Token`).
    func isPresented(inHeaders headers: HTTPFields) -> Bool {
        var found = false
        if let authorization = headers[.authorization] {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer" { found = matches(parts[1]) || found }
        }
        if let token = headers[Self.accessTokenHeader] { found = matches(token) || found }
        return found
    }

    /// Constant-time comparison: the time depends on the candidate's length only, never on where it differs.
    func matches(_ candidate: some StringProtocol) -> Bool {
        Self.constantTimeEquals(Array(candidate.utf8), bytes)
    }

    /// Whether `a` equals `b`, looking at every byte of `a` whatever the contents.
    static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count) | (a.count == b.count ? 0 : 1)
        guard !b.isEmpty else { return false }
        for index in a.indices {
            difference |= a[index] ^ b[index % b.count]
        }
        return difference == 0
    }
}

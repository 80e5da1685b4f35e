package import Foundation

/// An error body of the X API (`application/problem+json`).
package struct XAPIProblem: Decodable, Sendable {
    struct Detail: Decodable, Sendable {
        var message: String?
    }
    var title: String?
    var detail: String?
    var type: String?
    var reason: String?
    var errors: [Detail]?

    /// The last path segment of `type` (hosts vary: api.twitter.com, api.x.com, about:blank).
    package var kind: String? {
        guard let type, let last = type.split(separator: "/").last else { return nil }
        return String(last)
    }

    /// The most specific message: the first `errors[].message`, else `detail`, else `title`.
    package var summary: String? {
        errors?.lazy.compactMap(\.message).first ?? detail ?? title
    }

    /// Decodes a body; nil when it is not a problem object.
    package static func decode(_ body: Data) -> XAPIProblem? {
        try? JSONDecoder().decode(XAPIProblem.self, from: body)
    }
}

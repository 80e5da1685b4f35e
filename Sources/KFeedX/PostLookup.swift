package import Foundation
import KFeedBase
import KFeedHTTP

/// One request of `GET /2/tweets?ids=…`: whether posts still exist and may be shown. It asks for the fewest fields
/// that answer that: the default `id` (and `text`, which X always sends) and `withheld`.
package struct PostLookupRequest: Sendable, Hashable {
    /// The post ids, at most ``maxIDs``.
    package var ids: [String]

    /// The API path.
    package static let path = "/2/tweets"
    /// The most ids one request may carry (X's limit).
    package static let maxIDs = 100

    /// Creates a request for `ids` (the first ``maxIDs``).
    package init(ids: [String]) {
        self.ids = Array(ids.prefix(Self.maxIDs))
    }

    /// The query parameters in the order they are sent (unencoded).
    package var parameters: [(String, String)] {
        [("ids", ids.joined(separator: ",")), ("tweet.fields", "withheld")]
    }

    /// The full URL on `baseURL`.
    package func url(baseURL: URL) -> URL {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        let query = parameters.map { "\($0.0)=\(PercentEncoding.encode($0.1))" }.joined(separator: "&")
        return URL(string: "\(base)\(Self.path)?\(query)") ?? baseURL
    }
}

/// What a post lookup answered: the posts that may still be shown, and why the others may not.
package struct PostLookup: Sendable, Hashable {
    /// Why a post may no longer be shown.
    package enum Gone: String, Sendable, Hashable, Codable {
        /// Deleted (X answers "Not Found").
        case deleted
        /// Its account is protected (X answers an "Authorization" error).
        case protected
        /// Its author is suspended.
        case suspended
        /// Withheld in some country or for copyright (`withheld` on the post).
        case withheld
        /// Neither in `data` nor explained by `errors` (never assumed to be there).
        case unanswered
    }

    /// The ids in `data` without `withheld`: still there, and showable.
    package var present: Set<String> = []
    /// The others, with the reason.
    package var gone: [String: Gone] = [:]
    /// The posts X returned in `data` (what X bills), withheld ones included.
    package var postsRead: [String] = []

    /// Creates an empty answer.
    package init() {}

    /// Reads one response body for the ids asked.
    /// - Throws: `KFeedError` `.apiResponse` when the body is not a JSON object.
    package static func decode(_ body: Data, asked ids: [String]) throws -> PostLookup {
        let wire: WireLookup
        do {
            wire = try JSONDecoder().decode(WireLookup.self, from: body)
        } catch {
            throw KFeedError(
                .apiResponse,
                "the post-lookup response is not the JSON kfeed expects (\(body.count) bytes); try again later",
                underlying: error
            )
        }
        var lookup = PostLookup()
        let asked = Set(ids)
        for post in wire.data.compactMap(\.value) where asked.contains(post.id) {
            lookup.postsRead.append(post.id)
            if post.withheld != nil { lookup.gone[post.id] = .withheld } else { lookup.present.insert(post.id) }
        }
        for error in wire.errors.compactMap(\.value) {
            // The post's id is `resource_id`, or `value` when the resource is its author (suspended).
            guard let id = [error.resourceID, error.value].compactMap({ $0 }).first(where: asked.contains),
                !lookup.present.contains(id), lookup.gone[id] == nil
            else { continue }
            lookup.gone[id] = reason(of: error)
        }
        for id in ids where !lookup.present.contains(id) && lookup.gone[id] == nil { lookup.gone[id] = .unanswered }
        return lookup
    }

    /// Merges another request's answer.
    package mutating func merge(_ other: PostLookup) {
        present.formUnion(other.present)
        gone.merge(other.gone) { first, _ in first }
        postsRead += other.postsRead
    }

    private static func reason(of error: WireLookup.Problem) -> Gone {
        let words = [error.title, error.detail, error.type].compactMap { $0?.lowercased() }.joined(separator: " ")
        if words.contains("suspend") { return .suspended }
        if words.contains("authoriz") || words.contains("protected") { return .protected }
        return .deleted
    }
}

/// The body of a post lookup: `data` (posts, each maybe `withheld`) and `errors` (one per id X did not return).
private struct WireLookup: Decodable {
    struct Post: Decodable {
        var id: String
        var withheld: Withheld?
    }
    struct Withheld: Decodable {
        var copyright: Bool?
        var countryCodes: [String]?
        private enum CodingKeys: String, CodingKey {
            case copyright
            case countryCodes = "country_codes"
        }
    }
    struct Problem: Decodable {
        var title: String?
        var detail: String?
        var type: String?
        var value: String?
        var resourceID: String?
        private enum CodingKeys: String, CodingKey {
            case title, detail, type, value
            case resourceID = "resource_id"
        }
    }
    var data: [Lossy<Post>] = []
    var errors: [Lossy<Problem>] = []
    private enum CodingKeys: String, CodingKey { case data, errors }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        data = (try? container.decodeIfPresent([Lossy<Post>].self, forKey: .data)) ?? []
        errors = (try? container.decodeIfPresent([Lossy<Problem>].self, forKey: .errors)) ?? []
    }
}

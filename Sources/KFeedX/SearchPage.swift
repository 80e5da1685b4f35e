import Foundation
import KFeedBase

/// One recent-search response body as X sends it. Every part may be missing; unknown keys are ignored and
/// an element that does not decode is skipped (counted), never fatal.
struct SearchPage: Decodable, Sendable {
    var data: [WirePost] = []
    var includes = WireIncludes()
    var meta = WireMeta()
    var errors: [XAPIProblem] = []
    /// Elements of `data`, `includes.media` or `includes.users` that could not be decoded.
    var undecodableElements = 0
    /// Whether the body had a `data` key at all.
    var hasData = false

    private enum CodingKeys: String, CodingKey { case data, includes, meta, errors }

    init() {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let posts = try container.decodeIfPresent([Lossy<WirePost>].self, forKey: .data) {
            hasData = true
            data = posts.compactMap(\.value)
            undecodableElements += posts.count - data.count
        }
        includes = (try? container.decodeIfPresent(WireIncludes.self, forKey: .includes)) ?? WireIncludes()
        undecodableElements += includes.undecodableElements
        meta = (try? container.decodeIfPresent(WireMeta.self, forKey: .meta)) ?? WireMeta()
        errors = (try? container.decodeIfPresent([Lossy<XAPIProblem>].self, forKey: .errors))?.compactMap(\.value) ?? []
    }

    /// Decodes a response body.
    /// - Throws: `KFeedError` with code `.apiResponse` when the body is not a JSON object, or holds `errors` and
    ///   no `data` (partial errors beside data are data).
    static func decode(_ body: Data) throws -> SearchPage {
        let page: SearchPage
        do {
            page = try JSONDecoder().decode(SearchPage.self, from: body)
        } catch {
            throw KFeedError(
                .apiResponse,
                "the recent-search response is not the JSON kfeed expects (\(body.count) bytes); try again later",
                underlying: error
            )
        }
        if !page.hasData && !page.errors.isEmpty { throw XAPIProblem.errorsOnly(page.errors) }
        return page
    }

    /// The post fields kfeed asks for and needs that no post of this page carries: X answers a field it no longer
    /// knows (a renamed `tweet.fields` value, say) with a 200 that simply lacks it.
    var missingNeededFields: [String] {
        guard !data.isEmpty else { return [] }
        var missing: [String] = []
        if data.allSatisfy({ $0.attachments == nil }) { missing.append("attachments") }
        if data.allSatisfy({ $0.authorID == nil }) { missing.append("author_id") }
        return missing
    }
}

/// Decodes an element if it can; an undecodable element becomes `nil` instead of failing its array.
struct Lossy<Value: Decodable & Sendable>: Decodable, Sendable {
    var value: Value?
    init(from decoder: any Decoder) throws {
        value = try? Value(from: decoder)
    }
}

struct WirePost: Decodable, Sendable {
    struct Attachments: Decodable, Sendable {
        var mediaKeys: [String]?
        private enum CodingKeys: String, CodingKey { case mediaKeys = "media_keys" }
    }
    var id: String
    var text: String?
    var authorID: String?
    var createdAt: String?
    var possiblySensitive: Bool?
    var attachments: Attachments?
    var lang: String?

    private enum CodingKeys: String, CodingKey {
        case id, text, lang, attachments
        case authorID = "author_id"
        case createdAt = "created_at"
        case possiblySensitive = "possibly_sensitive"
    }
}

struct WireMedia: Decodable, Sendable {
    var mediaKey: String
    var type: String?
    var url: String?
    var previewImageURL: String?
    var width: Int?
    var height: Int?
    var altText: String?

    private enum CodingKeys: String, CodingKey {
        case type, url, width, height
        case mediaKey = "media_key"
        case previewImageURL = "preview_image_url"
        case altText = "alt_text"
    }
}

struct WireUser: Decodable, Sendable {
    var id: String
    var name: String?
    var username: String
    var profileImageURL: String?

    private enum CodingKeys: String, CodingKey {
        case id, name, username
        case profileImageURL = "profile_image_url"
    }
}

struct WireIncludes: Decodable, Sendable {
    var media: [WireMedia] = []
    var users: [WireUser] = []
    var undecodableElements = 0

    private enum CodingKeys: String, CodingKey { case media, users }

    init() {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let media = (try? container.decodeIfPresent([Lossy<WireMedia>].self, forKey: .media)) ?? []
        let users = (try? container.decodeIfPresent([Lossy<WireUser>].self, forKey: .users)) ?? []
        self.media = media.compactMap(\.value)
        self.users = users.compactMap(\.value)
        undecodableElements = media.count - self.media.count + users.count - self.users.count
    }
}

struct WireMeta: Decodable, Sendable {
    var resultCount: Int?
    var newestID: String?
    var oldestID: String?
    var nextToken: String?

    private enum CodingKeys: String, CodingKey {
        case resultCount = "result_count"
        case newestID = "newest_id"
        case oldestID = "oldest_id"
        case nextToken = "next_token"
    }
}

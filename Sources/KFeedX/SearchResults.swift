package import Foundation
import KFeedBase

/// The pages of one search merged: posts in API order (newest first), includes joined by dictionary.
package struct SearchResults: Sendable {
    /// Posts of every page, in the order received, without repeats.
    package private(set) var posts: [Post] = []
    /// Users of every page's `includes.users`, by id.
    package private(set) var users: [String: User] = [:]
    /// Media of every page's `includes.media`, by key.
    package private(set) var media: [String: Media] = [:]
    /// Partial errors that came beside data (they are data, not failure).
    package private(set) var partialErrors: [PartialError] = []
    /// The token of the next page, nil after the last page.
    package private(set) var nextToken: String?
    /// How many pages were merged.
    package private(set) var pageCount = 0
    /// Elements dropped because they did not decode or carried invalid ids.
    package private(set) var droppedElements = 0

    private var seenPostIDs: Set<String> = []

    /// An empty result.
    package init() {}

    /// Decodes a response body and merges it.
    /// - Throws: `KFeedError` with code `.apiResponse` when the body is not JSON, or holds only `errors`.
    package mutating func append(responseBody body: Data) throws {
        append(try SearchPage.decode(body))
    }

    mutating func append(_ page: SearchPage) {
        pageCount += 1
        droppedElements += page.undecodableElements
        nextToken = page.meta.nextToken.flatMap { $0.isEmpty ? nil : $0 }
        for wire in page.includes.users {
            guard Post.isValidID(wire.id), User.isValidUsername(wire.username) else {
                droppedElements += 1
                continue
            }
            users[wire.id] = User(
                id: wire.id,
                name: wire.name ?? wire.username,
                username: wire.username,
                profileImageURL: wire.profileImageURL.flatMap(URL.init(string:))
            )
        }
        for wire in page.includes.media {
            guard Media.isValidKey(wire.mediaKey) else {
                droppedElements += 1
                continue
            }
            media[wire.mediaKey] = Media(
                key: wire.mediaKey,
                kind: Media.Kind(wire.type ?? "unknown"),
                url: wire.url.flatMap(URL.init(string:)),
                previewImageURL: wire.previewImageURL.flatMap(URL.init(string:)),
                width: wire.width,
                height: wire.height,
                altText: wire.altText
            )
        }
        for wire in page.data {
            guard Post.isValidID(wire.id) else {
                droppedElements += 1
                continue
            }
            guard seenPostIDs.insert(wire.id).inserted else { continue }
            posts.append(
                Post(
                    id: wire.id,
                    text: Self.unescapingEntities(wire.text ?? ""),
                    authorID: wire.authorID,
                    createdAt: wire.createdAt.flatMap(InstantFormat.date(from:)),
                    isPossiblySensitive: wire.possiblySensitive ?? false,
                    mediaKeys: wire.attachments?.mediaKeys ?? []
                )
            )
        }
        partialErrors += page.errors.map {
            PartialError(
                title: $0.title ?? "",
                detail: $0.detail ?? "",
                resourceType: $0.resourceType,
                resourceID: $0.resourceID
            )
        }
    }

    /// X sends post text with `&`, `<` and `>` escaped as `&amp;`, `&lt;` and `&gt;`; this undoes exactly those,
    /// in one pass (so `&amp;lt;` becomes `&lt;`). Whoever shows the text escapes it for its own medium.
    static func unescapingEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            rest = rest[ampersand...]
            if let (entity, character) = [("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">")].first(where: {
                rest.hasPrefix($0.0)
            }) {
                result += character
                rest = rest.dropFirst(entity.count)
            } else {
                result += "&"
                rest = rest.dropFirst()
            }
        }
        return result + rest
    }

    /// Every post joined with its author and media, in API order.
    package var feedItems: [FeedItem] {
        posts.map { post in
            var found: [Media] = []
            var missing: [String] = []
            for key in post.mediaKeys {
                if let media = media[key] { found.append(media) } else { missing.append(key) }
            }
            return FeedItem(
                post: post,
                author: post.authorID.flatMap { users[$0] },
                media: found,
                missingMediaKeys: missing
            )
        }
    }
}

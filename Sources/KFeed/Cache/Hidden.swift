import Foundation
import KFeedBase
import KFeedX

/// What the owner hid with `kfeed hide`: posts and accounts a feed never shows again (`DIR/hidden.json`,
/// `docs/cache.md`). Unlike `deny`, it is not a setting: it changes no query and makes no feed due.
package struct Hidden: Codable, Sendable, Hashable {
    /// Hidden posts, by id.
    package var postIDs: Set<String> = []
    /// Hidden accounts, by username without the `@`, lower-cased.
    package var usernames: Set<String> = []

    package init() {}

    /// Whether nothing is hidden.
    package var isEmpty: Bool { postIDs.isEmpty && usernames.isEmpty }

    /// Adds `target`. - Returns: whether it was not hidden yet.
    @discardableResult
    package mutating func insert(_ target: HideTarget) -> Bool {
        switch target {
        case .post(let id): postIDs.insert(id).inserted
        case .account(let name): usernames.insert(name).inserted
        }
    }

    /// Removes `target`. - Returns: whether it was hidden.
    @discardableResult
    package mutating func remove(_ target: HideTarget) -> Bool {
        switch target {
        case .post(let id): postIDs.remove(id) != nil
        case .account(let name): usernames.remove(name) != nil
        }
    }

    /// Whether the entry's post or its author is hidden.
    package func hides(_ entry: Manifest.Entry) -> Bool {
        postIDs.contains(entry.tweetID) || usernames.contains(entry.author.username.lowercased())
    }

    private enum CodingKeys: String, CodingKey {
        case postIDs = "posts"
        case usernames = "accounts"
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        postIDs = Set(try container.decodeIfPresent([String].self, forKey: .postIDs) ?? [])
        usernames = Set(try container.decodeIfPresent([String].self, forKey: .usernames) ?? [])
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(postIDs.sorted(), forKey: .postIDs)
        try container.encode(usernames.sorted(), forKey: .usernames)
    }
}

/// A post or an account to hide, as the owner names it: a post id, a post's URL on x.com or twitter.com, or
/// `@username`.
package enum HideTarget: Sendable, Hashable, CustomStringConvertible {
    /// A post, by id.
    case post(String)
    /// An account, by username without the `@`, lower-cased.
    case account(String)

    /// Reads `123…`, `https://x.com/USER/status/123…` (also twitter.com, www. and mobile., with any path or query
    /// after the id) or `@username`.
    /// - Throws: `KFeedError` `.usage` saying what is accepted.
    package init(parsing text: String) throws(KFeedError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("@") {
            self = .account(try FeedSettings.account(parsing: trimmed))
            return
        }
        if Post.isValidID(trimmed) {
            self = .post(trimmed)
            return
        }
        let hosts: Set<String> = [
            "x.com", "twitter.com", "www.x.com", "www.twitter.com", "mobile.twitter.com",
            "mobile.x.com",
        ]
        if let url = URL(string: trimmed), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
            let host = url.host?.lowercased(), hosts.contains(host)
        {
            let parts = url.path.split(separator: "/").map(String.init)
            if parts.count >= 3, parts[1] == "status", Post.isValidID(parts[2]) {
                self = .post(parts[2])
                return
            }
        }
        throw KFeedError(
            .usage,
            "'\(text)' is neither a post nor an account: give a post id, its URL (https://x.com/USER/status/ID) "
                + "or @username"
        )
    }

    package var description: String {
        switch self {
        case .post(let id): "post \(id)"
        case .account(let name): "@\(name)"
        }
    }
}

public import Foundation

/// A post from `data`, before the join.
public struct Post: Sendable, Hashable {
    /// The post id (decimal digits, at most 19).
    public var id: String
    /// The text, possibly with Hangul, emoji or any other script.
    public var text: String
    /// The author's user id.
    public var authorID: String?
    /// When the post was created.
    public var createdAt: Date?
    /// Whether X flags the post as possibly sensitive.
    public var isPossiblySensitive: Bool
    /// The attached media keys, in display order.
    public var mediaKeys: [String]

    /// Creates a post.
    public init(
        id: String,
        text: String,
        authorID: String? = nil,
        createdAt: Date? = nil,
        isPossiblySensitive: Bool = false,
        mediaKeys: [String] = []
    ) {
        self.id = id
        self.text = text
        self.authorID = authorID
        self.createdAt = createdAt
        self.isPossiblySensitive = isPossiblySensitive
        self.mediaKeys = mediaKeys
    }

    /// Whether `text` is a valid post or user id: 1…19 decimal digits.
    public static func isValidID(_ text: String) -> Bool {
        ContextAnnotation.isDecimalID(Substring(text))
    }
}

/// A post joined with its author and media: what the timeline chooses from.
public struct FeedItem: Sendable, Hashable {
    /// The post.
    public var post: Post
    /// The author, or nil when `includes.users` lacks them.
    public var author: User?
    /// The attached media found in `includes.media`, in attachment order.
    public var media: [Media]
    /// Attached media keys that `includes.media` lacks.
    public var missingMediaKeys: [String]

    /// Creates a joined item.
    public init(post: Post, author: User?, media: [Media], missingMediaKeys: [String] = []) {
        self.post = post
        self.author = author
        self.media = media
        self.missingMediaKeys = missingMediaKeys
    }

    /// The post's public URL: `https://x.com/<username>/status/<id>` (`i/web` when the author is unknown).
    public var url: URL {
        let user = author?.username ?? "i/web"
        return URL(string: "https://x.com/\(user)/status/\(post.id)") ?? URL(fileURLWithPath: "/")
    }
}

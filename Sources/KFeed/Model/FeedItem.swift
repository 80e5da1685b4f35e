public import Foundation

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

package import Foundation

/// A post joined with its author and media: what the timeline chooses from.
package struct FeedItem: Sendable, Hashable {
    /// The post.
    package var post: Post
    /// The author, or nil when `includes.users` lacks them.
    package var author: User?
    /// The attached media found in `includes.media`, in attachment order.
    package var media: [Media]
    /// Attached media keys that `includes.media` lacks.
    package var missingMediaKeys: [String]

    /// Creates a joined item.
    package init(post: Post, author: User?, media: [Media], missingMediaKeys: [String] = []) {
        self.post = post
        self.author = author
        self.media = media
        self.missingMediaKeys = missingMediaKeys
    }

    /// The post's public URL: `https://x.com/<username>/status/<id>` (`i/web` when the author is unknown).
    package var url: URL {
        let user = author?.username ?? "i/web"
        return URL(string: "https://x.com/\(user)/status/\(post.id)") ?? URL(fileURLWithPath: "/")
    }
}

package import KFeedX

/// The posts a timeline uses, and why each other post was not used.
package struct Selection: Sendable {
    /// A chosen post and the media that represents it.
    package struct Choice: Sendable, Hashable {
        /// The joined post.
        package var item: FeedItem
        /// The media the entry shows (the first usable one in attachment order).
        package var media: Media
    }

    /// A post not used, and why.
    package struct Skip: Sendable, Hashable {
        /// The post's id.
        package var postID: String
        /// Why it was not used.
        package var reason: SkipReason
    }

    /// The chosen posts, newest first.
    package var chosen: [Choice]
    /// Every other post, in API order.
    package var skipped: [Skip]
    /// Whether the timeline has all its entries.
    package var isFull: Bool
}

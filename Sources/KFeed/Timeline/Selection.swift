/// The posts a timeline uses, and why each other post was not used.
public struct Selection: Sendable {
    /// A chosen post and the media that represents it.
    public struct Choice: Sendable, Hashable {
        /// The joined post.
        public var item: FeedItem
        /// The media the entry shows (the first usable one in attachment order).
        public var media: Media
    }

    /// A post not used, and why.
    public struct Skip: Sendable, Hashable {
        /// The post's id.
        public var postID: String
        /// Why it was not used.
        public var reason: SkipReason
    }

    /// The chosen posts, newest first.
    public var chosen: [Choice]
    /// Every other post, in API order.
    public var skipped: [Skip]
    /// Whether the timeline has all its entries.
    public var isFull: Bool
}

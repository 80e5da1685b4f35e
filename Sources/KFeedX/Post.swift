package import Foundation

/// A post from `data`, before the join.
package struct Post: Sendable, Hashable {
    /// The post id (decimal digits, at most 19).
    package var id: String
    /// The text, possibly with Hangul, emoji or any other script.
    package var text: String
    /// The author's user id.
    package var authorID: String?
    /// When the post was created.
    package var createdAt: Date?
    /// Whether X flags the post as possibly sensitive.
    package var isPossiblySensitive: Bool
    /// The attached media keys, in display order.
    package var mediaKeys: [String]

    /// Creates a post.
    package init(
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
    package static func isValidID(_ text: String) -> Bool {
        ContextAnnotation.isDecimalID(Substring(text))
    }
}

package import Foundation

/// The caption band of a display render, like the seed widget's: the author's round avatar, name, `@username`
/// and the entry's local hour.
package struct DisplayCaption: Sendable, Hashable {
    /// The author's display name, in any script; ellipsised when too long. When no installed font can draw it,
    /// the band shows `@username` in its place.
    package var name: String
    /// The author's username, without `@`.
    package var username: String
    /// The hour to show, already formatted in the reader's zone by the caller (for example `"14:00"`).
    package var hour: String
    /// The avatar's JPEG bytes (`DIR/avatars/….jpg`); `nil` or undecodable draws a grey disc.
    package var avatarJPEG: Data?

    /// Creates a caption.
    package init(name: String, username: String, hour: String, avatarJPEG: Data? = nil) {
        self.name = name
        self.username = username
        self.hour = hour
        self.avatarJPEG = avatarJPEG
    }
}

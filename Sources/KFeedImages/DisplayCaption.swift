package import Foundation

/// The attribution drawn on a display render (`docs/renders.md`, *Attribution*): the author's name and
/// `@username`, the X mark, the post's time and, where the panel has room, the post's text.
package struct DisplayCaption: Sendable, Hashable {
    /// How much of the attribution a render carries.
    package enum Style: String, Sendable, Hashable {
        /// The caption band: the round avatar, the name over `@username`, the post's time and date, the X mark,
        /// and the post's text below them where the panel has room for it.
        case band
        /// One slim line (`--no-caption`): the X mark, the name, `@username` and the post's time and date.
        case line
    }

    /// The author's display name, in any script; ellipsised when too long. When no installed font can draw it,
    /// the render shows `@username` in its place.
    package var name: String
    /// The author's username, without `@`.
    package var username: String
    /// The post's clock time, already formatted in the reader's zone by the caller (for example `"14:03"`).
    package var time: String
    /// The post's day, formatted by the caller (for example `"26 Nov 2026"`); empty to leave it out.
    package var date: String
    /// The post's text, as X sent it; empty for none.
    package var text: String
    /// The avatar's JPEG bytes (`DIR/avatars/….jpg`); `nil` or undecodable draws a grey disc.
    package var avatarJPEG: Data?
    /// The band, or the slim line.
    package var style: Style

    /// Creates a caption.
    package init(
        name: String,
        username: String,
        time: String,
        date: String = "",
        text: String = "",
        avatarJPEG: Data? = nil,
        style: Style = .band
    ) {
        self.name = name
        self.username = username
        self.time = time
        self.date = date
        self.text = text
        self.avatarJPEG = avatarJPEG
        self.style = style
    }

    /// Everything the caption draws, as one string (the avatar by its size): what a render's file name digests.
    package var signature: String {
        [
            "attribution-1", style.rawValue, name, username, time, date, text, String(avatarJPEG?.count ?? 0),
        ].joined(separator: "\u{0}")
    }
}

package import Foundation

/// A media object from `includes.media`.
package struct Media: Sendable, Hashable {
    /// What the media is; X may add kinds, which arrive as `.other`.
    package enum Kind: Sendable, Hashable, CustomStringConvertible {
        case photo, video, animatedGIF
        case other(String)

        /// Creates a kind from X's `type` string.
        package init(_ type: String) {
            switch type {
            case "photo": self = .photo
            case "video": self = .video
            case "animated_gif": self = .animatedGIF
            default: self = .other(type)
            }
        }

        /// X's `type` string.
        package var description: String {
            switch self {
            case .photo: "photo"
            case .video: "video"
            case .animatedGIF: "animated_gif"
            case .other(let type): type
            }
        }
    }

    /// The media key, `<digits>_<digits>`.
    package var key: String
    /// The kind.
    package var kind: Kind
    /// The photo URL (photos only).
    package var url: URL?
    /// The still preview (videos and GIFs only).
    package var previewImageURL: URL?
    /// Width in pixels, when X gave it.
    package var width: Int?
    /// Height in pixels, when X gave it.
    package var height: Int?
    /// The alt text, when the author wrote one.
    package var altText: String?

    /// Creates a media object.
    package init(
        key: String,
        kind: Kind,
        url: URL? = nil,
        previewImageURL: URL? = nil,
        width: Int? = nil,
        height: Int? = nil,
        altText: String? = nil
    ) {
        self.key = key
        self.kind = kind
        self.url = url
        self.previewImageURL = previewImageURL
        self.width = width
        self.height = height
        self.altText = altText
    }

    /// Whether `text` is a valid media key (`<digits>_<digits>`), safe to use in a file name.
    package static func isValidKey(_ text: String) -> Bool {
        let parts = text.split(separator: "_", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy(ContextAnnotation.isDecimalID)
    }
}

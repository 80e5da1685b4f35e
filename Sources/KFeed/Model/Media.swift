public import Foundation

/// A media object from `includes.media`.
public struct Media: Sendable, Hashable {
    /// What the media is; X may add kinds, which arrive as `.other`.
    public enum Kind: Sendable, Hashable, CustomStringConvertible {
        case photo, video, animatedGIF
        case other(String)

        /// Creates a kind from X's `type` string.
        public init(_ type: String) {
            switch type {
            case "photo": self = .photo
            case "video": self = .video
            case "animated_gif": self = .animatedGIF
            default: self = .other(type)
            }
        }

        /// X's `type` string.
        public var description: String {
            switch self {
            case .photo: "photo"
            case .video: "video"
            case .animatedGIF: "animated_gif"
            case .other(let type): type
            }
        }
    }

    /// The media key, `<digits>_<digits>`.
    public var key: String
    /// The kind.
    public var kind: Kind
    /// The photo URL (photos only).
    public var url: URL?
    /// The still preview (videos and GIFs only).
    public var previewImageURL: URL?
    /// Width in pixels, when X gave it.
    public var width: Int?
    /// Height in pixels, when X gave it.
    public var height: Int?
    /// The alt text, when the author wrote one.
    public var altText: String?

    /// Creates a media object.
    public init(
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
    public static func isValidKey(_ text: String) -> Bool {
        let parts = text.split(separator: "_", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy(ContextAnnotation.isDecimalID)
    }
}

import KFeedBase

/// The pixel size of a widget image: a preset (`small`, `medium`, `large`) or `WxH`.
public struct ImageSize: Sendable, Hashable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// The largest area any output may have: home-screen widgets reject images over about 718,000 pixels.
    public static let maxArea = 718_000

    /// 340×340: a small (2×2) widget at 2× scale.
    public static let small = ImageSize(width: 340, height: 340)
    /// 720×340: a medium (4×2) widget at 2× scale.
    public static let medium = ImageSize(width: 720, height: 340)
    /// 720×760: a large (4×4) widget at 2× scale (547,200 pixels).
    public static let large = ImageSize(width: 720, height: 760)
    /// 96×96: author avatars.
    public static let avatar = ImageSize(width: 96, height: 96)

    /// Creates a size without validation; use `init(parsing:)` for user input.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Parses `small`, `medium`, `large` or `WxH` (each side 16…4096, area under `maxArea`).
    /// - Throws: `KFeedError` with code `.usage` naming the accepted forms.
    public init(parsing text: String) throws {
        switch text.lowercased() {
        case "small": self = .small
        case "medium": self = .medium
        case "large": self = .large
        default:
            let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
                (16...4096).contains(width), (16...4096).contains(height), width * height < Self.maxArea
            else {
                throw KFeedError(
                    .usage,
                    "unknown size '\(text)': use small, medium, large or WxH (16 to 4096 px a side, under 718,000 px)"
                )
            }
            self.init(width: width, height: height)
        }
    }

    /// The preset's name, or `WxH`.
    public var name: String {
        switch self {
        case .small: "small"
        case .medium: "medium"
        case .large: "large"
        default: "\(width)x\(height)"
        }
    }

    public var description: String { "\(width)x\(height)" }
}

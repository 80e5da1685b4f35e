/// Why an image could not be turned into a widget thumbnail; `reason` is short enough for the manifest.
///
/// Failures are values, not crashes: callers show ``JPEGThumbnailer/placeholder(size:)`` instead.
public struct ImageFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// A short phrase such as `"not a JPEG"` or `"truncated JPEG"`; one of the static members below.
    public var reason: String
    /// The raw detail (for example TurboJPEG's error text), when there is one. Never shown in the manifest.
    public var detail: String?

    /// Creates a failure.
    public init(reason: String, detail: String? = nil) {
        self.reason = reason
        self.detail = detail
    }

    /// The body does not start with a JPEG start-of-image marker (`FF D8 FF`).
    public static let notJPEG = ImageFailure(reason: "not a JPEG")
    /// A side or the pixel count exceeds ``JPEGThumbnailer/Limits``; refused before decoding.
    public static let tooLarge = ImageFailure(reason: "image too large")
    /// The JPEG structure or its entropy-coded data is invalid.
    public static let corrupt = ImageFailure(reason: "corrupt JPEG")
    /// The data ends before the image does.
    public static let truncated = ImageFailure(reason: "truncated JPEG")
    /// A progressive JPEG has more scans than ``JPEGThumbnailer/Limits/maxScans``.
    public static let tooManyScans = ImageFailure(reason: "too many scans")
    /// The JPEG is CMYK or YCCK, which kfeed does not convert.
    public static let cmykNotSupported = ImageFailure(reason: "CMYK not supported")
    /// A valid JPEG kind kfeed cannot decode (lossless, 12-bit, hierarchical).
    public static let unsupported = ImageFailure(reason: "unsupported JPEG")
    /// The thumbnail could not be encoded.
    public static let encodingFailed = ImageFailure(reason: "encoding failed")

    /// The same reason with `detail` attached.
    func with(detail: String) -> ImageFailure { ImageFailure(reason: reason, detail: detail) }

    public var description: String {
        guard let detail else { return reason }
        return "\(reason) (\(detail))"
    }
}

/// Why an image could not be turned into a widget thumbnail; `reason` is short enough for the manifest.
///
/// Failures are values, not crashes: callers show ``JPEGThumbnailer/placeholder(size:)`` instead.
package struct ImageFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// A short phrase such as `"not a JPEG"` or `"truncated JPEG"`; one of the static members below.
    package var reason: String
    /// The raw detail (for example TurboJPEG's error text), when there is one. Never shown in the manifest.
    package var detail: String?

    /// Creates a failure.
    package init(reason: String, detail: String? = nil) {
        self.reason = reason
        self.detail = detail
    }

    /// The body does not start with a JPEG start-of-image marker (`FF D8 FF`).
    package static let notJPEG = ImageFailure(reason: "not a JPEG")
    /// A side or the pixel count exceeds ``JPEGThumbnailer/Limits``; refused before decoding.
    package static let tooLarge = ImageFailure(reason: "image too large")
    /// The JPEG structure or its entropy-coded data is invalid.
    package static let corrupt = ImageFailure(reason: "corrupt JPEG")
    /// The data ends before the image does.
    package static let truncated = ImageFailure(reason: "truncated JPEG")
    /// A progressive JPEG has more scans than ``JPEGThumbnailer/Limits/maxScans``.
    package static let tooManyScans = ImageFailure(reason: "too many scans")
    /// The JPEG is CMYK or YCCK, which kfeed does not convert.
    package static let cmykNotSupported = ImageFailure(reason: "CMYK not supported")
    /// A valid JPEG kind kfeed cannot decode (lossless, 12-bit, hierarchical).
    package static let unsupported = ImageFailure(reason: "unsupported JPEG")
    /// The thumbnail could not be encoded.
    package static let encodingFailed = ImageFailure(reason: "encoding failed")

    /// The same reason with `detail` attached.
    func with(detail: String) -> ImageFailure { ImageFailure(reason: reason, detail: detail) }

    package var description: String {
        guard let detail else { return reason }
        return "\(reason) (\(detail))"
    }
}

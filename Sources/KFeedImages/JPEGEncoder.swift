import CKFeedTurboJPEG
package import Foundation

/// Encodes packed pixels with TurboJPEG; the package's tests and benchmarks use it to make synthetic JPEGs.
package enum JPEGEncoder {
    /// How the packed pixels are laid out.
    package enum PixelFormat: Sendable {
        /// 3 bytes per pixel.
        case rgb
        /// 4 bytes per pixel, the fourth ignored.
        case rgbx
        /// 1 byte per pixel.
        case gray
        /// 4 bytes per pixel; TurboJPEG writes a YCCK JPEG.
        case cmyk

        var bytesPerPixel: Int {
            switch self {
            case .rgb: 3
            case .rgbx, .cmyk: 4
            case .gray: 1
            }
        }

        var turboJPEG: Int32 {
            switch self {
            case .rgb: Int32(TJPF_RGB.rawValue)
            case .rgbx: Int32(TJPF_RGBX.rawValue)
            case .gray: Int32(TJPF_GRAY.rawValue)
            case .cmyk: Int32(TJPF_CMYK.rawValue)
            }
        }
    }

    /// Chrominance subsampling of the output.
    package enum Subsampling: Sendable {
        case s444, s422, s420, gray

        var turboJPEG: Int32 {
            switch self {
            case .s444: Int32(TJSAMP_444.rawValue)
            case .s422: Int32(TJSAMP_422.rawValue)
            case .s420: Int32(TJSAMP_420.rawValue)
            case .gray: Int32(TJSAMP_GRAY.rawValue)
            }
        }
    }

    /// Encodes `pixels` (`width`×`height`, rows packed without padding) as a JPEG without metadata.
    /// - Parameters:
    ///   - pixels: the packed image.
    ///   - width: its width in pixels.
    ///   - height: its height in pixels.
    ///   - format: the layout of `pixels`.
    ///   - subsampling: the chrominance subsampling of the JPEG.
    ///   - quality: 1…100.
    ///   - progressive: progressive entropy coding instead of baseline.
    /// - Returns: The JPEG bytes.
    /// - Throws: ``ImageFailure/encodingFailed`` with TurboJPEG's text.
    package static func encode(
        _ pixels: [UInt8],
        width: Int,
        height: Int,
        format: PixelFormat,
        subsampling: Subsampling = .s420,
        quality: Int = 85,
        progressive: Bool = false
    ) throws(ImageFailure) -> Data {
        guard width > 0, height > 0, pixels.count >= width * height * format.bytesPerPixel else {
            throw ImageFailure.encodingFailed.with(detail: "\(pixels.count) bytes for \(width)x\(height)")
        }
        let handle = try TurboJPEGHandle(.compressor)
        let result = pixels.withUnsafeBytes { bytes in
            Result { () throws(ImageFailure) -> Data in
                try handle.compress(
                    bytes,
                    width: width,
                    height: height,
                    pitch: width * format.bytesPerPixel,
                    pixelFormat: format.turboJPEG,
                    subsampling: subsampling.turboJPEG,
                    quality: quality,
                    flags: progressive ? TJFLAG_PROGRESSIVE : 0
                )
            }
        }
        return try result.get()
    }
}

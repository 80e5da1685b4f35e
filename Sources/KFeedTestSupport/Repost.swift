package import Foundation
import KFeed
package import KFeedImages

/// Reposts of a photo as people make them, all from its 2048-px rendition (X's `large`).
package enum Repost {
    /// The copies, each with a name: the 2048-px rendition itself, renditions of 1200, 680 and 900 px, re-encodes at
    /// quality 50, 70 and 95, a progressive copy, a centred 2 % crop, a 5 % crop from one corner, 8-px black and
    /// white borders and a 4-px grey one (on the 680-px rendition), and a centred 5 % crop at quality 60.
    package static func all(of jpeg: Data, thumbnailer: JPEGThumbnailer = JPEGThumbnailer()) throws -> [(String, Data)]
    {
        let large = try rendition(jpeg, side: 2_048, thumbnailer: thumbnailer)
        let size = try thumbnailer.displaySize(of: large)
        let pixels = try thumbnailer.pixels(of: large, size: size)
        func encode(
            _ pixels: [UInt8],
            _ width: Int,
            _ height: Int,
            quality: Int = 85,
            progressive: Bool = false
        )
            throws -> Data
        {
            try JPEGEncoder.encode(
                pixels,
                width: width,
                height: height,
                format: .rgbx,
                quality: quality,
                progressive: progressive
            )
        }
        var copies: [(String, Data)] = [("large rendition", large)]
        for side in [1_200, 680, 900] {
            copies.append(("rendition \(side) px", try rendition(large, side: side, thumbnailer: thumbnailer)))
        }
        for quality in [50, 70, 95] {
            copies.append(("re-encode q\(quality)", try encode(pixels, size.width, size.height, quality: quality)))
        }
        copies.append(("progressive", try encode(pixels, size.width, size.height, progressive: true)))
        for (name, fraction, centred) in [("crop 2 % centred", 0.02, true), ("crop 5 % corner", 0.05, false)] {
            let (cropped, width, height) = crop(pixels, size, fraction: fraction, centred: centred)
            copies.append((name, try encode(cropped, width, height)))
        }
        let small = try rendition(large, side: 680, thumbnailer: thumbnailer)
        let smallSize = try thumbnailer.displaySize(of: small)
        let smallPixels = try thumbnailer.pixels(of: small, size: smallSize)
        for (name, width, value) in [
            ("border 8 px black", 8, UInt8(0)), ("border 8 px white", 8, 255), ("border 4 px", 4, 128),
        ] {
            let (framed, w, h) = border(smallPixels, smallSize, width: width, value: value)
            copies.append((name, try encode(framed, w, h)))
        }
        let (cropped, width, height) = crop(pixels, size, fraction: 0.05, centred: true)
        copies.append(("crop 5 % + q60", try encode(cropped, width, height, quality: 60)))
        return copies
    }

    private static func rendition(_ jpeg: Data, side: Int, thumbnailer: JPEGThumbnailer) throws -> Data {
        let display = try thumbnailer.displaySize(of: jpeg)
        let scale = min(1, Double(side) / Double(max(display.width, display.height)))
        let size = ImageSize(
            width: max(16, Int((Double(display.width) * scale).rounded())),
            height: max(16, Int((Double(display.height) * scale).rounded()))
        )
        return try thumbnailer.thumbnail(of: jpeg, size: size)
    }

    /// RGBX pixels with `fraction` of the width and height cut away: half on each side, or all from the top left.
    private static func crop(
        _ pixels: [UInt8],
        _ size: ImageSize,
        fraction: Double,
        centred: Bool
    )
        -> ([UInt8], Int, Int)
    {
        let width = Int(Double(size.width) * (1 - fraction))
        let height = Int(Double(size.height) * (1 - fraction))
        let left = centred ? (size.width - width) / 2 : size.width - width
        let top = centred ? (size.height - height) / 2 : size.height - height
        var out = [UInt8](repeating: 0, count: width * height * 4)
        for row in 0..<height {
            let source = ((top + row) * size.width + left) * 4
            out[(row * width * 4)..<((row + 1) * width * 4)] = pixels[source..<(source + width * 4)]
        }
        return (out, width, height)
    }

    /// RGBX pixels inside a frame `width` px wide of grey `value`.
    private static func border(_ pixels: [UInt8], _ size: ImageSize, width: Int, value: UInt8) -> ([UInt8], Int, Int) {
        let (outWidth, outHeight) = (size.width + 2 * width, size.height + 2 * width)
        var out = [UInt8](repeating: value, count: outWidth * outHeight * 4)
        for row in 0..<size.height {
            let target = ((row + width) * outWidth + width) * 4
            out[target..<(target + size.width * 4)] = pixels[(row * size.width * 4)..<((row + 1) * size.width * 4)]
        }
        return (out, outWidth, outHeight)
    }
}

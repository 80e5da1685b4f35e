package import Foundation
import KFeed
package import KFeedImages

/// Reposts of a photo as people make them, all from its 1200-px rendition (the photo as first posted; X's
/// `medium`).
package enum Repost {
    /// The kinds of copy, each with a name: rescaled to 0.4×, 0.6×, 1.5× and 2.5× its pixel size; re-encoded at
    /// quality 40, 60 and 95, and progressive; cropped by 4 % and 8 % (centred) and 8 % from one corner; framed by
    /// borders of 5 % (black) and 10 % (white, grey) of the shorter side; given a caption band (white, a line of
    /// text) of 6 % and 12 % of the height above or below; brightness and contrast ±10 %.
    package static let kinds = [
        "rescale 0.4×", "rescale 0.6×", "rescale 1.5×", "rescale 2.5×", "re-encode q40", "re-encode q60",
        "re-encode q95", "progressive", "crop 4 % centred", "crop 8 % centred", "crop 8 % corner",
        "border 5 % black", "border 10 % white", "border 10 % grey", "caption 6 % top", "caption 12 % top",
        "caption 12 % bottom", "brightness +10 %", "brightness −10 %", "contrast +10 %", "contrast −10 %",
    ]

    /// Every kind of ``kinds``, in that order.
    package static func all(of jpeg: Data, thumbnailer: JPEGThumbnailer = JPEGThumbnailer()) throws -> [(String, Data)]
    {
        try kinds.map { ($0, try copy(jpeg, kind: $0, thumbnailer: thumbnailer)) }
    }

    /// One copy of `jpeg` of `kind` (a name from ``kinds``).
    package static func copy(
        _ jpeg: Data,
        kind: String,
        thumbnailer: JPEGThumbnailer = JPEGThumbnailer()
    ) throws
        -> Data
    {
        let base = try rendition(jpeg, side: 1_200, thumbnailer: thumbnailer)
        let size = try thumbnailer.displaySize(of: base)
        let pixels = try thumbnailer.pixels(of: base, size: size)
        func encode(_ image: Image, quality: Int = 85, progressive: Bool = false) throws -> Data {
            try JPEGEncoder.encode(
                image.pixels,
                width: image.width,
                height: image.height,
                format: .rgbx,
                quality: quality,
                progressive: progressive
            )
        }
        let image = Image(pixels: pixels, width: size.width, height: size.height)
        let shorter = Double(min(size.width, size.height))
        let number = Double(kind.split(separator: " ").first { Double($0) != nil }.flatMap { Double($0) } ?? 0) / 100
        switch kind {
        case _ where kind.hasPrefix("rescale"):
            let factor = Double(kind.dropFirst("rescale ".count).dropLast()) ?? 1
            let target = ImageSize(
                width: max(16, Int((Double(size.width) * factor).rounded())),
                height: max(16, Int((Double(size.height) * factor).rounded()))
            )
            return try thumbnailer.thumbnail(of: base, size: target)
        case _ where kind.hasPrefix("re-encode"):
            return try encode(image, quality: Int(kind.dropFirst("re-encode q".count)) ?? 85)
        case "progressive":
            return try encode(image, progressive: true)
        case _ where kind.hasPrefix("crop"):
            return try encode(image.cropped(fraction: number, centred: kind.hasSuffix("centred")))
        case _ where kind.hasPrefix("border"):
            let value: UInt8 = kind.hasSuffix("black") ? 0 : kind.hasSuffix("white") ? 255 : 128
            return try encode(image.framed(width: Int(shorter * number), value: value))
        case _ where kind.hasPrefix("caption"):
            let band = Int(Double(size.height) * number)
            return try encode(image.captioned(height: band, above: kind.hasSuffix("top")))
        case _ where kind.hasPrefix("brightness"):
            let factor = kind.contains("+") ? 1.1 : 0.9
            return try encode(image.mapped { $0 * factor })
        case _ where kind.hasPrefix("contrast"):
            let factor = kind.contains("+") ? 1.1 : 0.9
            return try encode(image.mapped { ($0 - 128) * factor + 128 })
        default:
            return base
        }
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

    /// Packed RGBX pixels.
    private struct Image {
        var pixels: [UInt8]
        var width: Int
        var height: Int

        /// `fraction` of the width and height cut away: half on each side, or all from the top left.
        func cropped(fraction: Double, centred: Bool) -> Image {
            let w = Int(Double(width) * (1 - fraction))
            let h = Int(Double(height) * (1 - fraction))
            let left = centred ? (width - w) / 2 : width - w
            let top = centred ? (height - h) / 2 : height - h
            var out = [UInt8](repeating: 0, count: w * h * 4)
            for row in 0..<h {
                let source = ((top + row) * width + left) * 4
                out[(row * w * 4)..<((row + 1) * w * 4)] = pixels[source..<(source + w * 4)]
            }
            return Image(pixels: out, width: w, height: h)
        }

        /// Inside a frame `width` px wide of grey `value`.
        func framed(width frame: Int, value: UInt8) -> Image {
            placed(in: width + 2 * frame, height + 2 * frame, x: frame, y: frame, background: value)
        }

        /// With a white band `height` px tall above or below, a line of dark text in it.
        func captioned(height band: Int, above: Bool) -> Image {
            var out = placed(in: width, height + band, x: 0, y: above ? band : 0, background: 255)
            let size = max(8, band * 5 / 10)
            if let text = FontStack.graphic(
                ["so proud of them tonight, look at this 💜 #KPOP"],
                width: width,
                height: band,
                pixelSize: size,
                ink: [20, 20, 20],
                paper: [255, 255, 255]
            ) {
                let top = above ? 0 : height
                out.pixels.replaceSubrange(((top * width) * 4)..<((top + band) * width * 4), with: text)
            }
            return out
        }

        func placed(in outWidth: Int, _ outHeight: Int, x: Int, y: Int, background: UInt8) -> Image {
            var out = [UInt8](repeating: background, count: outWidth * outHeight * 4)
            for row in 0..<height {
                let target = ((row + y) * outWidth + x) * 4
                out[target..<(target + width * 4)] = pixels[(row * width * 4)..<((row + 1) * width * 4)]
            }
            return Image(pixels: out, width: outWidth, height: outHeight)
        }

        /// Each channel through `transform` (clamped to a byte).
        func mapped(_ transform: (Double) -> Double) -> Image {
            let table = (0...255).map { UInt8(max(0, min(255, transform(Double($0)).rounded()))) }
            return Image(pixels: pixels.map { table[Int($0)] }, width: width, height: height)
        }
    }
}

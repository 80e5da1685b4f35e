package import Foundation
import KFeed
package import KFeedImages

/// Synthetic JPEGs for tests and benchmarks, encoded with TurboJPEG through ``JPEGEncoder``.
package enum TestJPEG {
    /// An RGB colour.
    package struct Colour: Equatable, Sendable {
        package var red: UInt8
        package var green: UInt8
        package var blue: UInt8

        package init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }

        package static let red = Colour(230, 30, 30)
        package static let green = Colour(30, 200, 40)
        package static let blue = Colour(30, 40, 220)
        package static let yellow = Colour(240, 220, 30)

        /// Whether each channel is within `tolerance` of `other`.
        package func isClose(to other: Colour, tolerance: Int = 40) -> Bool {
            abs(Int(red) - Int(other.red)) <= tolerance && abs(Int(green) - Int(other.green)) <= tolerance
                && abs(Int(blue) - Int(other.blue)) <= tolerance
        }
    }

    /// The four quadrant colours of ``quadrants(width:height:)``: top-left, top-right, bottom-left, bottom-right.
    package static let quadrantColours: [Colour] = [.red, .green, .blue, .yellow]

    /// RGB pixels with four solid quadrants (an asymmetric pattern: every orientation looks different).
    package static func quadrants(width: Int, height: Int) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let colour = quadrantColours[(y < height / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1)]
                let offset = (y * width + x) * 3
                pixels[offset] = colour.red
                pixels[offset + 1] = colour.green
                pixels[offset + 2] = colour.blue
            }
        }
        return pixels
    }

    /// RGB pixels of a picture made from `seed`: a 6×6 grid of colour blocks drawn from a seeded generator, so two
    /// seeds make pictures as different as two photos, and one seed the same picture at any size.
    package static func blocks(seed: Int, width: Int, height: Int) -> [UInt8] {
        var state = UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1
        func next() -> UInt8 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        let grid = (0..<36).map { _ in (next(), next(), next()) }
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let block = grid[(y * 6 / height) * 6 + x * 6 / width]
                let offset = (y * width + x) * 3
                (pixels[offset], pixels[offset + 1], pixels[offset + 2]) = block
            }
        }
        return pixels
    }

    /// RGB pixels of a smooth gradient: red grows left to right, green top to bottom, blue is constant 128.
    package static func gradient(width: Int, height: Int) -> [UInt8] {
        var pixels = [UInt8](repeating: 128, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let offset = (y * width + x) * 3
                pixels[offset] = UInt8(x * 255 / max(width - 1, 1))
                pixels[offset + 1] = UInt8(y * 255 / max(height - 1, 1))
            }
        }
        return pixels
    }

    /// RGB pixels of deterministic noise (hard to compress, so scans are long).
    package static func noise(width: Int, height: Int, seed: UInt64 = 42) -> [UInt8] {
        var state = seed
        return (0..<(width * height * 3)).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    /// A JPEG of `pixels` (RGB unless `format` says otherwise).
    package static func jpeg(
        _ pixels: [UInt8],
        width: Int,
        height: Int,
        format: JPEGEncoder.PixelFormat = .rgb,
        subsampling: JPEGEncoder.Subsampling = .s420,
        progressive: Bool = false
    ) throws -> Data {
        try JPEGEncoder.encode(
            pixels,
            width: width,
            height: height,
            format: format,
            subsampling: subsampling,
            quality: 90,
            progressive: progressive
        )
    }

    /// `jpeg` with an EXIF APP1 segment carrying `orientation` (1…8) inserted after SOI.
    package static func withOrientation(_ orientation: Int, in jpeg: Data, bigEndian: Bool = false) -> Data {
        func u16(_ value: Int) -> [UInt8] {
            bigEndian ? [UInt8(value >> 8), UInt8(value & 0xFF)] : [UInt8(value & 0xFF), UInt8(value >> 8)]
        }
        func u32(_ value: Int) -> [UInt8] { bigEndian ? [0, 0] + u16(value) : u16(value) + [0, 0] }
        var tiff: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        tiff += u16(42) + u32(8)  // IFD0 at offset 8
        tiff += u16(1)  // one entry
        tiff += u16(0x0112) + u16(3) + u32(1) + u16(orientation) + [0, 0]
        tiff += u32(0)  // no next IFD
        let payload: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        var result = Data(jpeg.prefix(2))
        result.append(contentsOf: segment)
        result.append(jpeg.dropFirst(2))
        return result
    }

    /// The offset of the first start-of-scan marker, or `nil`.
    package static func firstScanOffset(in jpeg: Data) -> Int? {
        let bytes = [UInt8](jpeg)
        var position = 2
        while position + 4 <= bytes.count, bytes[position] == 0xFF {
            if bytes[position + 1] == 0xDA { return position }
            position += 2 + (Int(bytes[position + 2]) << 8 | Int(bytes[position + 3]))
        }
        return nil
    }

    /// A small progressive JPEG whose first scan is repeated `scans` times: a scan bomb.
    package static func scanBomb(scans: Int) throws -> Data {
        let base = try jpeg(gradient(width: 16, height: 16), width: 16, height: 16, progressive: true)
        let bytes = [UInt8](base)
        guard let start = firstScanOffset(in: base) else { return base }
        // The first scan runs up to the next marker that is not a stuffed byte or restart marker.
        var end = start + 2 + (Int(bytes[start + 2]) << 8 | Int(bytes[start + 3]))
        while end + 1 < bytes.count,
            !(bytes[end] == 0xFF && bytes[end + 1] != 0 && !(0xD0...0xD7).contains(bytes[end + 1]))
        {
            end += 1
        }
        var result = Data(bytes[..<start])
        let scan = bytes[start..<end]
        for _ in 0..<scans { result.append(contentsOf: scan) }
        result.append(contentsOf: [0xFF, 0xD9])
        return result
    }

    /// `jpeg` with its frame header claiming `width`×`height`.
    package static func claimingSize(width: Int, height: Int, in jpeg: Data) -> Data {
        var bytes = [UInt8](jpeg)
        var position = 2
        while position + 9 <= bytes.count, bytes[position] == 0xFF {
            let marker = bytes[position + 1]
            if (0xC0...0xC2).contains(marker) {
                bytes[position + 5] = UInt8(height >> 8)
                bytes[position + 6] = UInt8(height & 0xFF)
                bytes[position + 7] = UInt8(width >> 8)
                bytes[position + 8] = UInt8(width & 0xFF)
                break
            }
            position += 2 + (Int(bytes[position + 2]) << 8 | Int(bytes[position + 3]))
        }
        return Data(bytes)
    }
}

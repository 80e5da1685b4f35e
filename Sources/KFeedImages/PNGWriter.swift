import CKFeedPNG
import Foundation
import KFeedBase

/// Writes display renders as PNG through libspng, at the smallest bit depth that holds them exactly.
enum PNGWriter {
    /// Palette indices (one byte per pixel) as a PNG: even greys become 1-, 2- or 4-bit greyscale (sample =
    /// index), other palettes a 4-bit (or smaller) indexed PNG whose `PLTE` is the palette in index order.
    /// `smallest` asks zlib for level 9 (slow); otherwise ``PNGContext/Compression/fast(bitDepth:rawBytes:)``.
    static func encode(
        indices: [UInt8],
        width: Int,
        height: Int,
        palette: DisplayPalette,
        smallest: Bool = false
    ) throws(KFeedError) -> Data {
        let depth = palette.bitDepth
        var ihdr = spng_ihdr()
        ihdr.width = UInt32(width)
        ihdr.height = UInt32(height)
        ihdr.bit_depth = UInt8(depth)
        ihdr.color_type = UInt8(
            palette.isEvenGreys ? SPNG_COLOR_TYPE_GRAYSCALE.rawValue : SPNG_COLOR_TYPE_INDEXED.rawValue
        )
        let rows = pack(indices, width: width, height: height, bitDepth: depth)
        let compression: PNGContext.Compression =
            smallest ? .smallest : .fast(bitDepth: depth, rawBytes: rows.count)
        return try PNGContext().encode(
            rows,
            ihdr: ihdr,
            palette: palette.isEvenGreys ? nil : palette.colours,
            compression: compression
        )
    }

    /// RGBX pixels as an 8-bit RGB PNG.
    static func encodeRGB(rgbx: [UInt8], width: Int, height: Int) throws(KFeedError) -> Data {
        var ihdr = spng_ihdr()
        ihdr.width = UInt32(width)
        ihdr.height = UInt32(height)
        ihdr.bit_depth = 8
        ihdr.color_type = UInt8(SPNG_COLOR_TYPE_TRUECOLOR.rawValue)
        var rows = [UInt8](repeating: 0, count: width * height * 3)
        for index in 0..<(width * height) {
            rows[index * 3] = rgbx[index * 4]
            rows[index * 3 + 1] = rgbx[index * 4 + 1]
            rows[index * 3 + 2] = rgbx[index * 4 + 2]
        }
        return try PNGContext().encode(rows, ihdr: ihdr, palette: nil)
    }

    /// Packs one index per byte into rows of `bitDepth`-bit samples, most significant bits first, each row
    /// padded to a whole byte (the layout of PNG scanlines and, with 4-byte row padding, of BMP rows).
    static func pack(_ indices: [UInt8], width: Int, height: Int, bitDepth: Int, rowAlignment: Int = 1) -> [UInt8] {
        let rowBytes = ((width * bitDepth + 7) / 8 + rowAlignment - 1) / rowAlignment * rowAlignment
        let perByte = 8 / bitDepth
        var packed = [UInt8](repeating: 0, count: rowBytes * height)
        indices.withUnsafeBufferPointer { indices in
            packed.withUnsafeMutableBufferPointer { packed in
                for y in 0..<height {
                    let source = y * width
                    let row = y * rowBytes
                    var x = 0
                    var byte = 0
                    while x < width {
                        var value: UInt8 = 0
                        var shift = 8 - bitDepth
                        for _ in 0..<min(perByte, width - x) {
                            value |= indices[source + x] << UInt8(shift)
                            shift -= bitDepth
                            x += 1
                        }
                        packed[row + byte] = value
                        byte += 1
                    }
                }
            }
        }
        return packed
    }
}

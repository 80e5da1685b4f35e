import CKFeedPNG
package import Foundation

/// A PNG decoded by libspng's decoder (not kfeed's code), for tests of display renders.
package struct DecodedPNG: Sendable {
    /// The header's width, in pixels.
    package var width: Int
    /// The header's height, in pixels.
    package var height: Int
    /// The header's bit depth (1, 2, 4, 8 or 16).
    package var bitDepth: Int
    /// The header's colour type: 0 grey, 2 RGB, 3 indexed, 4 grey + alpha, 6 RGBA.
    package var colourType: Int
    /// The `PLTE` colours of an indexed PNG, as `[r, g, b]`.
    package var palette: [[UInt8]]
    /// The samples as stored: packed rows at the header's bit depth (indices of an indexed PNG).
    package var rows: [UInt8]
    /// Every pixel expanded to 8-bit RGBA by the decoder.
    package var rgba: [UInt8]

    /// Decodes `png`.
    package init(_ png: Data) throws {
        guard kfeed_spng_available() != 0 else { throw DecodeError(message: "libspng.so.0 is not installed") }
        (width, height, bitDepth, colourType, palette, rows) = try Self.decode(
            png,
            format: Int32(SPNG_FMT_PNG.rawValue)
        )
        rgba = try Self.decode(png, format: Int32(SPNG_FMT_RGBA8.rawValue)).5
    }

    /// The sample of pixel (`x`, `y`) from ``rows`` (an index or a grey level at the header's bit depth).
    package func sample(x: Int, y: Int) -> Int {
        let rowBytes = (width * bitDepth + 7) / 8
        let perByte = 8 / bitDepth
        let byte = rows[y * rowBytes + x / perByte]
        let shift = 8 - bitDepth * (x % perByte + 1)
        return Int(byte >> shift) & ((1 << bitDepth) - 1)
    }

    /// The distinct RGB colours of ``rgba``, packed as `0xRRGGBB`.
    package var distinctColours: Set<Int> {
        var colours = Set<Int>()
        for index in stride(from: 0, to: rgba.count, by: 4) {
            colours.insert(Int(rgba[index]) << 16 | Int(rgba[index + 1]) << 8 | Int(rgba[index + 2]))
        }
        return colours
    }

    package struct DecodeError: Error, CustomStringConvertible {
        package var message: String
        package var description: String { message }
    }

    private static func decode(
        _ png: Data,
        format: Int32
    ) throws -> (Int, Int, Int, Int, [[UInt8]], [UInt8]) {
        guard let context = kfeed_spng_ctx_new(0) else { throw DecodeError(message: "no context") }
        defer { kfeed_spng_ctx_free(context) }
        func check(_ status: Int32) throws {
            guard status == 0 else { throw DecodeError(message: String(cString: kfeed_spng_strerror(status))) }
        }
        return try png.withUnsafeBytes { bytes in
            try check(kfeed_spng_set_png_buffer(context, bytes.baseAddress, bytes.count))
            var ihdr = spng_ihdr()
            try check(kfeed_spng_get_ihdr(context, &ihdr))
            var palette: [[UInt8]] = []
            if ihdr.color_type == UInt8(SPNG_COLOR_TYPE_INDEXED.rawValue) {
                var plte = spng_plte()
                try check(kfeed_spng_get_plte(context, &plte))
                palette = withUnsafeBytes(of: &plte.entries) { raw in
                    raw.bindMemory(to: spng_plte_entry.self).prefix(Int(plte.n_entries)).map {
                        [$0.red, $0.green, $0.blue]
                    }
                }
            }
            var length = 0
            try check(kfeed_spng_decoded_image_size(context, format, &length))
            var output = [UInt8](repeating: 0, count: length)
            let status = output.withUnsafeMutableBytes { out in
                kfeed_spng_decode_image(context, out.baseAddress, out.count, format, 0)
            }
            try check(status)
            return (
                Int(ihdr.width), Int(ihdr.height), Int(ihdr.bit_depth), Int(ihdr.color_type), palette, output
            )
        }
    }
}

import CKFeedPNG
import Foundation
import KFeedBase

/// The one owner of a libspng context: created in `init`, freed in `deinit`, used by one encode.
///
/// libspng is opened on first use (see `Sources/CKFeedPNG/shim.h`); when it cannot be loaded, `init` throws a
/// `KFeedError` naming the Debian package to install. Every return code is checked and turned into a
/// `KFeedError` with `spng_strerror`'s text.
final class PNGContext {
    private let context: OpaquePointer

    /// Creates an encoder writing to memory.
    init() throws(KFeedError) {
        guard kfeed_spng_available() != 0 else {
            throw KFeedError(.configuration, "display renders need libspng.so.0: install the Debian package libspng0")
        }
        guard let created = kfeed_spng_ctx_new(Int32(SPNG_CTX_ENCODER.rawValue)) else {
            throw KFeedError(.io, "libspng could not create a context (out of memory)")
        }
        context = created
        try check(kfeed_spng_set_option(context, SPNG_ENCODE_TO_BUFFER, 1), "set the output buffer")
    }

    deinit { kfeed_spng_ctx_free(context) }

    /// How hard zlib works: its level (1…9) and strategy (zlib's `Z_DEFAULT_STRATEGY` 0 or `Z_RLE` 3).
    struct Compression: Equatable {
        var level: Int32
        var strategy: Int32

        /// zlib level 9: the smallest file, and on dithered pixels the slowest by far (0.7 s for 1872×1404 at 4 bits).
        static let smallest = Compression(level: 9, strategy: 0)
        /// Run-length matches only: on 1-bit dither within 0.5 % of level 9's size at a tenth of its time.
        static let runLength = Compression(level: 9, strategy: 3)

        /// The default for packed samples of `bitDepth` bits, `rawBytes` in all: run-length for 1-bit; level 6
        /// up to 512 kB of samples; level 2 above (1872×1404 at 4 bits: 16 % larger than level 9, 45× faster).
        static func fast(bitDepth: Int, rawBytes: Int) -> Compression {
            if bitDepth == 1 { return .runLength }
            return Compression(level: rawBytes > 512 * 1_024 ? 2 : 6, strategy: 0)
        }
    }

    /// Encodes packed rows (`ihdr`'s bit depth, rows padded to whole bytes).
    /// - Parameters:
    ///   - rows: the packed image, `height` rows of `(width × channels × bitDepth + 7) / 8` bytes.
    ///   - ihdr: the header: size, bit depth, colour type.
    ///   - palette: the `PLTE` colours for indexed images.
    ///   - compression: zlib's level and strategy.
    /// - Returns: The PNG file.
    /// - Throws: `KFeedError` `.io` with libspng's text.
    func encode(
        _ rows: [UInt8],
        ihdr: spng_ihdr,
        palette: [SIMD3<UInt8>]?,
        compression: Compression = .smallest
    ) throws(KFeedError) -> Data {
        var header = ihdr
        try check(kfeed_spng_set_ihdr(context, &header), "set the PNG header")
        if let palette {
            var plte = spng_plte()
            plte.n_entries = UInt32(palette.count)
            withUnsafeMutableBytes(of: &plte.entries) { raw in
                let entries = raw.bindMemory(to: spng_plte_entry.self)
                for (index, colour) in palette.enumerated() {
                    entries[index] = spng_plte_entry(red: colour.x, green: colour.y, blue: colour.z, alpha: 255)
                }
            }
            try check(kfeed_spng_set_plte(context, &plte), "set the palette")
        }
        try check(
            kfeed_spng_set_option(context, SPNG_IMG_COMPRESSION_LEVEL, compression.level),
            "set the compression level"
        )
        try check(
            kfeed_spng_set_option(context, SPNG_IMG_COMPRESSION_STRATEGY, compression.strategy),
            "set the compression strategy"
        )
        // Below 8 bits (and for palettes) filters only add bytes: the PNG specification recommends none.
        if ihdr.bit_depth < 8 || ihdr.color_type == UInt8(SPNG_COLOR_TYPE_INDEXED.rawValue) {
            try check(
                kfeed_spng_set_option(context, SPNG_FILTER_CHOICE, Int32(SPNG_DISABLE_FILTERING.rawValue)),
                "turn filtering off"
            )
        }
        let status = rows.withUnsafeBytes { bytes in
            kfeed_spng_encode_image(
                context,
                bytes.baseAddress,
                bytes.count,
                Int32(SPNG_FMT_PNG.rawValue),
                Int32(SPNG_ENCODE_FINALIZE.rawValue)
            )
        }
        try check(status, "encode the image")
        var length = 0
        var error: Int32 = 0
        guard let buffer = kfeed_spng_get_png_buffer(context, &length, &error) else {
            try check(error, "take the encoded PNG")
            throw KFeedError(.io, "libspng returned no PNG")
        }
        defer { kfeed_spng_free_buffer(buffer) }
        return Data(bytes: buffer, count: length)
    }

    private func check(_ status: Int32, _ action: String) throws(KFeedError) {
        guard status != 0 else { return }
        let text = String(cString: kfeed_spng_strerror(status))
        throw KFeedError(.io, "libspng could not \(action): \(text)")
    }
}

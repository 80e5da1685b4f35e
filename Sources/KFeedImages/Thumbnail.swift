package import Foundation

/// A widget thumbnail and the pixels it encodes: what ``JPEGThumbnailer`` makes, handed on before the pixels are
/// dropped so that whatever else is computed from the picture (its ``PictureIdentity``) needs no second decode.
package struct Thumbnail: Sendable {
    /// The baseline JPEG.
    package var jpeg: Data
    /// The RGBX pixels the JPEG encodes (before its loss), `size.width × size.height`, rows packed.
    package var pixels: [UInt8]
    /// The thumbnail's size.
    package var size: ImageSize

    package init(jpeg: Data, pixels: [UInt8], size: ImageSize) {
        self.jpeg = jpeg
        self.pixels = pixels
        self.size = size
    }

    /// The picture's identity, from ``pixels``: the one place a refresh computes it for a picture it makes.
    ///
    /// It gives what ``PictureIdentity/of(jpeg:)`` gives for ``jpeg`` without decoding it: that decodes the JPEG at
    /// the smallest scale leaving ``DetailSignature/fineSide`` pixels a side — 1/4 for a widget thumbnail, where each
    /// sample is about the mean of a 4×4 block — and again at 1/2 for the finer cells; here the 2×2 block means are
    /// taken from the pixels (before the encoder's loss), the finer cells from them and the rest from their 2×2
    /// means. A thumbnail too small for a quarter scale of ``DetailSignature/fineSide`` pixels gives its pixels
    /// whole.
    package func identity() -> PictureIdentity? {
        guard pixels.count >= size.width * size.height * 4 else { return PictureIdentity.of(jpeg: jpeg) }
        guard min(size.width, size.height) / 4 >= DetailSignature.fineSide else {
            return pixels.withUnsafeBytes { bytes in
                PictureIdentity.of(
                    pixels: bytes,
                    width: size.width,
                    height: size.height,
                    bytesPerRow: size.width * 4,
                    channels: 4
                )
            }
        }
        let half = Self.blockMeans(pixels, width: size.width, height: size.height, block: 2)
        return PictureIdentity.of(half: half.pixels, width: half.width, height: half.height)
    }

    /// The mean of each `block`×`block` block of RGBX `pixels` (`width`×`height`, rows packed),
    /// `ceil(width / block)` × `ceil(height / block)`, as a JPEG decoder's 1/`block` scale gives them: a partial block
    /// at the right or bottom edge is padded by repeating its last column or row, as the encoder pads it.
    static func blockMeans(
        _ pixels: [UInt8],
        width: Int,
        height: Int,
        block: Int
    ) -> (pixels: [UInt8], width: Int, height: Int) {
        let blocksWide = (width + block - 1) / block
        let blocksHigh = (height + block - 1) / block
        let count = UInt32(block * block)
        var means = [UInt8](repeating: 0, count: blocksWide * blocksHigh * 4)
        // A block row's sums, a pixel's four channels at once (the fourth unused); the columns of the padded edge
        // repeat the last one. Offsets stay within the pixels by construction: wrapping arithmetic, no checks.
        let sums = UnsafeMutablePointer<SIMD4<UInt32>>.allocate(capacity: blocksWide)
        defer { sums.deallocate() }
        pixels.withUnsafeBytes { bytes in
            means.withUnsafeMutableBufferPointer { means in
                let base = bytes.baseAddress!
                for blockY in 0..<blocksHigh {
                    sums.initialize(repeating: .zero, count: blocksWide)
                    for step in 0..<block {
                        let row = base + min(blockY &* block &+ step, height &- 1) &* width &* 4
                        for blockX in 0..<blocksWide {
                            for x in blockX &* block..<blockX &* block &+ block {
                                let pixel = row.loadUnaligned(
                                    fromByteOffset: min(x, width &- 1) &* 4,
                                    as: SIMD4<UInt8>.self
                                )
                                sums[blockX] &+= SIMD4<UInt32>(truncatingIfNeeded: pixel)
                            }
                        }
                    }
                    for blockX in 0..<blocksWide {
                        let at = (blockY &* blocksWide &+ blockX) &* 4
                        let mean = (sums[blockX] &+ SIMD4(repeating: count / 2)) / SIMD4(repeating: count)
                        means[at] = UInt8(truncatingIfNeeded: mean[0])
                        means[at &+ 1] = UInt8(truncatingIfNeeded: mean[1])
                        means[at &+ 2] = UInt8(truncatingIfNeeded: mean[2])
                        means[at &+ 3] = 255
                    }
                }
            }
        }
        return (means, blocksWide, blocksHigh)
    }
}

package import Foundation

/// What decides whether two pictures are the same photo (`docs/timeline.md`): a ``PerceptualHash`` within
/// ``candidateHashDistance`` makes a candidate (a cheap test on 64 bits), and a ``DetailSignature`` confirms it on
/// where the two differ most, once lined up. The hash alone sees only the grey layout, so it calls a whole teaser
/// series one picture; a mean over the frame calls pictures that share a backdrop and differ in a small subject
/// one picture.
package struct PictureIdentity: Sendable, Hashable {
    /// The grey layout.
    package var hash: PerceptualHash
    /// The colours and lightness, cell by cell.
    package var detail: DetailSignature

    /// The largest hash distance at which two pictures are compared in detail (`bench/reposts.sh` measures both
    /// sides): 38, over half the bits, as a crop of 8 % from one corner or a border around a mostly flat graphic
    /// moves up to 37 of them. The detail comparison's screens keep the extra candidates cheap.
    package static let candidateHashDistance = 38

    package init(hash: PerceptualHash, detail: DetailSignature) {
        self.hash = hash
        self.detail = detail
    }

    /// The identity of a JPEG (a widget thumbnail), from one decode at the smallest fast scale that leaves
    /// ``DetailSignature/fineSide`` pixels a side (1/4 for a widget thumbnail), and its finer cells from another at
    /// the smallest that leaves ``DetailSignature/finerSide`` (1/2); nil when it cannot be decoded.
    package static func of(jpeg: Data) -> PictureIdentity? {
        jpeg.withUnsafeBytes { bytes -> PictureIdentity? in
            guard let decoder = try? TurboJPEGHandle(.decompressor), let header = try? decoder.header(of: bytes)
            else { return nil }
            /// The smallest fast scale leaving `side` pixels a side; nil when none does.
            func scale(leaving side: Int) -> TurboJPEGHandle.ScalingFactor? {
                TurboJPEGHandle.fastScalingFactors.first {
                    $0.scaled(header.width) >= side && $0.scaled(header.height) >= side
                }
            }
            /// The pixels at `factor`.
            func decoded(at factor: TurboJPEGHandle.ScalingFactor) -> (pixels: [UInt8], width: Int, height: Int)? {
                let width = factor.scaled(header.width)
                let height = factor.scaled(header.height)
                guard width >= 9, height >= 8 else { return nil }
                var pixels = [UInt8](repeating: 0, count: width * height * 4)
                let decoded = pixels.withUnsafeMutableBytes { destination in
                    (try? decoder.decompressRGBX(bytes, width: width, height: height, into: destination)) != nil
                }
                return decoded ? (pixels, width, height) : nil
            }
            // The largest scale when none leaves the fine cells' side; no second decode when none leaves the finer
            // cells' (the picture is too small for them).
            guard
                let factor = scale(leaving: DetailSignature.fineSide) ?? TurboJPEGHandle.fastScalingFactors.last,
                let quarter = decoded(at: factor)
            else { return nil }
            let half = scale(leaving: DetailSignature.finerSide).flatMap(decoded(at:))
            return of(quarter: quarter, finer: half.flatMap(finerCells))
        }
    }

    /// The identity of RGBX pixels (rows packed) at twice the scale the cells are made from (a widget thumbnail's
    /// 2×2 means, ``Thumbnail/identity()``): the ``DetailSignature`` from their 2×2 means, its finer cells from the
    /// pixels themselves.
    static func of(half pixels: [UInt8], width: Int, height: Int) -> PictureIdentity? {
        of(
            quarter: Thumbnail.blockMeans(pixels, width: width, height: height, block: 2),
            finer: finerCells((pixels, width, height))
        )
    }

    /// The identity of packed RGBX pixels (`quarter`) with the ``DetailSignature/finer`` cells of the same picture
    /// at twice their scale.
    private static func of(quarter: (pixels: [UInt8], width: Int, height: Int), finer: [UInt8]?) -> PictureIdentity? {
        quarter.pixels.withUnsafeBytes { buffer in
            of(
                pixels: buffer,
                width: quarter.width,
                height: quarter.height,
                bytesPerRow: quarter.width * 4,
                channels: 4,
                finer: finer
            )
        }
    }

    /// The ``DetailSignature/finer`` cells of packed RGBX pixels; nil when they are too small.
    private static func finerCells(_ half: (pixels: [UInt8], width: Int, height: Int)) -> [UInt8]? {
        half.pixels.withUnsafeBytes { buffer in
            DetailSignature.finerCells(
                pixels: buffer,
                width: half.width,
                height: half.height,
                bytesPerRow: half.width * 4,
                channels: 4
            )
        }
    }

    /// The identity of decoded pixels (the widget thumbnail as shown, at any size of at least 9×8; 32×32 or more
    /// keeps every cell's detail): rows `bytesPerRow` apart, `channels` bytes a pixel (1: grey, 3: RGB, 4: RGBX),
    /// with the ``DetailSignature/finer`` cells when made from the same picture at twice the scale. A caller that
    /// has just decoded or resampled the picture passes its pixels and decodes nothing again.
    package static func of(
        pixels: UnsafeRawBufferPointer,
        width: Int,
        height: Int,
        bytesPerRow: Int,
        channels: Int,
        finer: [UInt8]? = nil
    ) -> PictureIdentity? {
        guard width >= 9, height >= 8,
            let detail = DetailSignature.of(
                pixels: pixels,
                width: width,
                height: height,
                bytesPerRow: bytesPerRow,
                channels: channels,
                finer: finer
            )
        else { return nil }
        let hash = PerceptualHash.of(
            pixels: pixels,
            width: width,
            height: height,
            bytesPerRow: bytesPerRow,
            channels: channels
        )
        return PictureIdentity(hash: hash, detail: detail)
    }

    /// Whether `other` shows the same photo: a hash candidate confirmed in detail.
    package func isSamePicture(as other: PictureIdentity) -> Bool {
        hash.distance(to: other.hash) <= Self.candidateHashDistance && detail.isSamePicture(as: other.detail)
    }
}

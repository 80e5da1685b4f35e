import Foundation

/// Decodes a progressive Huffman JPEG straight to 1/8, 1/4 or 1/2 scale, reading only what a thumbnail can show.
///
/// A progressive JPEG first sends every DCT coefficient at reduced precision (first-pass scans, `Ah = 0`), then
/// refines the AC coefficients bit by bit (refinement scans), which hold most of the bytes. This decoder reads
/// the first-pass scans and the DC refinements, and skips the AC refinement scans unread. At 1/8 it skips the
/// AC first passes too: only DC is needed. Each coefficient is added straight into its block's k×k output
/// samples, each the exact average of the (8/k)×(8/k) pixels it covers. No coefficient buffer is kept: memory is
/// one DC value per block plus the k×k samples, 8 bytes a block at 1/8 and 20 at 1/4 against libjpeg's 128.
///
/// At 1/8 the samples are the exact block averages, like libjpeg's 1/8 scale. At 1/4 and 1/2 the AC
/// coefficients lack their last one or two refinement bits. On the 17 progressive photos of the benchmark
/// corpus that cost about 0.003 SSIM after downscaling, for reading 25–50 % of the bytes. Chroma subsampled
/// both ways is decoded at twice the scale, as libjpeg does; chroma still coarser than the output is
/// interpolated, like libjpeg's "fancy" upsampling.
///
/// Only Huffman-coded progressive frames of 8-bit YCbCr or grayscale, whose sampling factors divide the
/// largest, are handled (``supports(_:)``); ``JPEGThumbnailer`` uses libjpeg for everything else.
/// Corrupt or truncated entropy data is a failure, never a grey half-image.
package enum ProgressiveFirstPassDecoder {
    /// Whether this decoder can decode `structure`.
    package static func supports(_ structure: JPEGStructure) -> Bool {
        let (maxH, maxV) = (structure.maxHorizontalSampling, structure.maxVerticalSampling)
        let lumaIsLargest =
            structure.components.first.map { $0.horizontalSampling == maxH && $0.verticalSampling == maxV } ?? false
        return structure.process == .progressive && !structure.isArithmeticCoded && structure.precision == 8
            && (structure.components.count == 1 || (structure.components.count == 3 && !structure.isRGB))
            && lumaIsLargest
            && structure.components.allSatisfy { maxH % $0.horizontalSampling == 0 && maxV % $0.verticalSampling == 0 }
    }

    /// The bytes of working memory ``decode(_:structure:eighths:into:)`` allocates besides its output.
    package static func workingMemory(_ structure: JPEGStructure, eighths: Int) -> Int {
        Geometry(structure, eighths: eighths).components.reduce(0) { total, component in
            let samples = component.samplesPerBlock * component.samplesPerBlock
            return total + component.paddedBlocksWide * component.paddedBlocksHigh
                * (samples * MemoryLayout<Float>.size + MemoryLayout<Int32>.size)
        }
    }

    /// Decodes `jpeg` at `eighths`/8 (1, 2 or 4) into RGBX pixels, `ceil(width × eighths / 8)` by
    /// `ceil(height × eighths / 8)`, the sizes TurboJPEG's scaling gives. With `rows` and `columns`, only those
    /// pixels are written (a thumbnail's crop: the rest of `output` is left as it was).
    /// - Throws: ``ImageFailure/corrupt`` for invalid tables, scans or codes; ``ImageFailure/truncated`` when a
    ///   scan's data ends early.
    package static func decode(
        _ jpeg: UnsafeRawBufferPointer,
        structure: JPEGStructure,
        eighths: Int,
        into output: UnsafeMutableRawBufferPointer,
        rows: Range<Int>? = nil,
        columns: Range<Int>? = nil
    ) throws(ImageFailure) {
        precondition([1, 2, 4].contains(eighths), "the first-pass decoder scales to 1/8, 1/4 or 1/2")
        var state = State(geometry: Geometry(structure, eighths: eighths))
        defer { state.deallocate() }
        try state.run(jpeg)
        let width = ceilDivide(structure.width * eighths, 8)
        let height = output.count / (4 * width)
        state.convert(
            width: width,
            eighths: eighths,
            rows: (rows ?? 0..<height).clamped(to: 0..<height),
            columns: (columns ?? 0..<width).clamped(to: 0..<width),
            into: output
        )
    }
}

extension ProgressiveFirstPassDecoder {
    /// Block grids of a frame's components.
    struct Geometry {
        struct Component {
            var identifier: UInt8
            var h: Int
            var v: Int
            /// Blocks covering the component's samples, for single-component scans.
            var blocksWide: Int
            var blocksHigh: Int
            /// Blocks covering whole MCUs, for interleaved scans and storage.
            var paddedBlocksWide: Int
            var paddedBlocksHigh: Int
            /// Output samples per block side, k: the output scale's, doubled (up to 4) for components subsampled
            /// both ways, as libjpeg scales chroma up through the inverse DCT instead of upsampling it.
            var samplesPerBlock: Int
        }

        var width: Int
        var height: Int
        var maxH: Int
        var maxV: Int
        var mcusWide: Int
        var mcusHigh: Int
        var components: [Component]

        init(_ structure: JPEGStructure, eighths: Int) {
            width = structure.width
            height = structure.height
            maxH = structure.maxHorizontalSampling
            maxV = structure.maxVerticalSampling
            mcusWide = structure.mcusWide
            mcusHigh = structure.mcusHigh
            components = structure.components.map { [width, height, maxH, maxV, mcusWide, mcusHigh] component in
                let h = component.horizontalSampling
                let v = component.verticalSampling
                var samplesPerBlock = eighths
                while samplesPerBlock < 4, (maxH / h) % (2 * samplesPerBlock / eighths) == 0,
                    (maxV / v) % (2 * samplesPerBlock / eighths) == 0
                {
                    samplesPerBlock *= 2
                }
                return Component(
                    identifier: component.identifier,
                    h: h,
                    v: v,
                    blocksWide: ceilDivide(ceilDivide(width * h, maxH), 8),
                    blocksHigh: ceilDivide(ceilDivide(height * v, maxV), 8),
                    paddedBlocksWide: mcusWide * h,
                    paddedBlocksHigh: mcusHigh * v,
                    samplesPerBlock: samplesPerBlock
                )
            }
        }
    }
}

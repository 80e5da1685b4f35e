import CKFeedResample
import Foundation
import Synchronization

/// Which code runs ``Resampler``'s inner loops: the output is byte for byte the same either way.
package enum ResamplingKernel: Sendable, CaseIterable {
    /// The Swift loops, built for the x86-64 baseline (SSE2: four floats an instruction).
    case portable
    /// `CKFeedResample`'s AVX2 functions: eight floats an instruction.
    case avx2

    /// Whether this CPU runs it.
    package var isAvailable: Bool {
        switch self {
        case .portable: true
        case .avx2: Self.cpuHasAVX2
        }
    }

    /// The fastest kernel this CPU runs.
    package static let fastest: ResamplingKernel = cpuHasAVX2 ? .avx2 : .portable

    private static let cpuHasAVX2 = kfeed_resample_has_avx2() != 0
}

/// A separable Lanczos resampler (3 lobes, or 2 where the output is dithered) for RGBX images, in `Float`, with the EXIF orientation applied on output.
///
/// The vertical pass runs first, one output row at a time, over contiguous floats (the compiler vectorises
/// it): each source row of the window is converted to `Float` once, into a ring of the rows the filter spans,
/// rather than once per output row that reads it. The horizontal pass then works on `SIMD4<Float>` pixels.
/// Weights are precomputed per output row and column and normalised to sum to 1. Taps are clamped to the crop
/// window, like cropping and then resizing. Where the CPU has AVX2, the three inner loops (the rows' conversion,
/// the vertical and the horizontal pass) run as `CKFeedResample`'s AVX2 functions instead, which compute the same
/// floats in the same order eight lanes at a time: the output is byte for byte the same (``ResamplingKernel``).
struct Resampler: Sendable {
    /// A sub-pixel window of the source, in source pixels.
    struct Window: Equatable, Sendable {
        var x: Double
        var y: Double
        var width: Double
        var height: Double

        /// The source columns resampling reads: the window's whole pixels, within `0 ..< limit`.
        func columns(limit: Int) -> Range<Int> { Self.span(origin: x, length: width, limit: limit) }

        /// The source rows resampling reads: the window's whole pixels, within `0 ..< limit`.
        func rows(limit: Int) -> Range<Int> { Self.span(origin: y, length: height, limit: limit) }

        static func span(origin: Double, length: Double, limit: Int) -> Range<Int> {
            let lowest = max(0, Int(origin.rounded(.down)))
            return lowest..<max(lowest, min(limit, Int((origin + length).rounded(.up))))
        }
    }

    /// Where the source pixels come from: RGBX rows, asked for once each, in increasing order.
    struct Source {
        var width: Int
        var height: Int
        /// The first column `row` returns: row `r`'s pixel `x` is at `row(r) + (x - firstColumn) * 4`.
        var firstColumn: Int
        /// How many columns `row` returns.
        var columnCount: Int
        var row: (Int) -> UnsafePointer<UInt8>
        /// When set, the resampler takes rows as floats from it instead of `row`: `floats(r, first, count, into)`
        /// writes row `r`'s `count` pixels from column `first` as RGBX floats, 0…255 (a decoder whose samples are
        /// floats already: no rounding to bytes and back).
        var floats: ((Int, Int, Int, UnsafeMutablePointer<Float>) -> Void)? = nil

        /// A whole packed RGBX image in memory.
        static func packed(_ pixels: UnsafeRawBufferPointer, width: Int, height: Int) -> Source {
            precondition(pixels.count >= width * height * 4, "source smaller than its size")
            let base = pixels.baseAddress?.assumingMemoryBound(to: UInt8.self)
            return Source(width: width, height: height, firstColumn: 0, columnCount: width) { base! + $0 * width * 4 }
        }
    }

    /// Precomputed filter taps for one axis: output `i` reads `count[i]` samples from `start[i]`.
    struct Weights: Sendable {
        /// What the weights are computed from.
        struct Key: Hashable, Sendable {
            var origin: Double
            var length: Double
            var limit: Int
            var outputs: Int
            var lobes: Double
        }

        /// The weights of these arguments (see `init`), computed once and kept among the recent ones.
        static func shared(origin: Double, length: Double, limit: Int, outputs: Int, lobes: Double) -> Weights {
            let key = Key(origin: origin, length: length, limit: limit, outputs: outputs, lobes: lobes)
            if let known = Resampler.recentWeights.withLock({ $0[key] }) { return known }
            let weights = Weights(origin: origin, length: length, limit: limit, outputs: outputs, lobes: lobes)
            Resampler.recentWeights.withLock { recent in
                if recent.count >= Resampler.recentWeightsLimit { recent.removeAll() }
                recent[key] = weights
            }
            return weights
        }

        var start: [Int]
        var count: [Int]
        /// `stride` weights per output sample; unused slots are zero.
        var values: [Float]
        var stride: Int

        /// Weights mapping `[origin, origin + length)` of a source axis with `limit` samples onto `outputs` samples,
        /// through a Lanczos kernel of `lobes` lobes.
        init(origin: Double, length: Double, limit: Int, outputs: Int, lobes: Double = Resampler.lobes) {
            let scale = length / Double(outputs)
            let filterScale = max(scale, 1)
            let support = lobes * filterScale
            let span = Window.span(origin: origin, length: length, limit: limit)
            let lowest = span.lowerBound
            let highest = span.upperBound - 1
            stride = Int((2 * support).rounded(.up)) + 2
            start = []
            count = []
            values = [Float](repeating: 0, count: stride * outputs)
            start.reserveCapacity(outputs)
            count.reserveCapacity(outputs)
            // One output's taps in Double, reused from output to output (no array allocated per output).
            var weights = [Double](repeating: 0, count: stride)
            for output in 0..<outputs {
                let centre = origin + (Double(output) + 0.5) * scale
                let first = max(lowest, Int((centre - support - 0.5).rounded(.up)))
                let last = max(first, min(highest, Int((centre + support - 0.5).rounded(.down)), first + stride - 1))
                let taps = last - first + 1
                var total = 0.0
                for index in 0..<taps {
                    weights[index] = Resampler.lanczos(
                        (Double(first + index) + 0.5 - centre) / filterScale,
                        lobes: lobes
                    )
                    total += weights[index]
                }
                if total.magnitude < 1e-9 {  // degenerate window: take the nearest sample
                    for index in 0..<taps { weights[index] = index == 0 ? 1 : 0 }
                    total = 1
                }
                for index in 0..<taps {
                    values[output * stride + index] = Float(weights[index] / total)
                }
                start.append(first)
                count.append(taps)
            }
        }
    }

    /// The weights of the last few axes resampled, process-wide: a refresh's pictures mostly come in a few sizes
    /// (X's renditions of common aspect ratios, avatars), so their axes' weights (two sines a tap, 3,400 taps an
    /// axis for a 340-pixel side) repeat from picture to picture.
    private static let recentWeights = Mutex<[Weights.Key: Weights]>([:])
    /// How many axes' weights ``recentWeights`` keeps (it starts again empty when full; at 340 outputs an axis's
    /// weights take about 22 KB).
    static let recentWeightsLimit = 16

    /// The thumbnails' kernel: Lanczos-3.
    static let lobes = 3.0

    /// The Lanczos kernel of `lobes` lobes.
    static func lanczos(_ x: Double, lobes: Double = Resampler.lobes) -> Double {
        let x = x.magnitude
        guard x < lobes else { return 0 }
        guard x > 1e-9 else { return 1 }
        let pix = Double.pi * x
        return lobes * sin(pix) * sin(pix / lobes) / (pix * pix)
    }

    /// `sums` rounded to the nearest integer and clamped to 0…255. Adding 1.5 × 2^23 leaves the nearest integer in
    /// a float's low mantissa bits, and the clamp is two lane-wise selects: no branch per channel (as
    /// `clamped(lowerBound:upperBound:)`, which orders NaNs, compiles to), no range check (as `UInt8(_: Float)` has).
    @inline(__always)
    static func bytes(_ sums: SIMD4<Float>) -> SIMD4<UInt8> {
        let zero = SIMD4<Float>.zero
        let top = SIMD4<Float>(repeating: 255)
        let floored = sums.replacing(with: zero, where: sums .< zero)
        let clamped = floored.replacing(with: top, where: floored .> top)
        let bits = unsafeBitCast(clamped + SIMD4(repeating: 12_582_912), to: SIMD4<UInt32>.self)
        return SIMD4<UInt8>(truncatingIfNeeded: bits)
    }

    /// Resamples `window` of an RGBX `source` to `outputWidth`×`outputHeight` (stored orientation), writing
    /// each pixel to its oriented position in `destination`, an RGBX image of the displayed size. Reads only the
    /// window's rows and columns.
    static func resample(
        source: Source,
        window: Window,
        outputWidth: Int,
        outputHeight: Int,
        orientation: EXIFOrientation,
        lobes: Double = Resampler.lobes,
        kernel: ResamplingKernel = .fastest,
        into destination: UnsafeMutableRawBufferPointer
    ) {
        precondition(kernel.isAvailable, "the CPU lacks the \(kernel) kernel")
        precondition(destination.count >= outputWidth * outputHeight * 4, "destination smaller than the output")
        guard outputWidth > 0, outputHeight > 0, source.width > 0, source.height > 0,
            let destinationBase = destination.baseAddress
        else { return }
        let columns = Weights.shared(
            origin: window.x,
            length: window.width,
            limit: source.width,
            outputs: outputWidth,
            lobes: lobes
        )
        let rows = Weights.shared(
            origin: window.y,
            length: window.height,
            limit: source.height,
            outputs: outputHeight,
            lobes: lobes
        )
        let firstColumn = columns.start.min() ?? 0
        let lastColumn = zip(columns.start, columns.count).map { $0 + $1 }.max() ?? 0
        let span = lastColumn - firstColumn
        precondition(
            firstColumn >= source.firstColumn && lastColumn <= source.firstColumn + source.columnCount,
            "the source rows lack columns the window reads"
        )
        let skippedBytes = (firstColumn - source.firstColumn) * 4
        let displayWidth = orientation.swapsAxes ? outputHeight : outputWidth
        let mapping = orientation.displayMapping(storedWidth: outputWidth, storedHeight: outputHeight)
        let xStep = (mapping.xStep.dy * displayWidth + mapping.xStep.dx) * 4
        let yStep = (mapping.yStep.dy * displayWidth + mapping.yStep.dx) * 4
        let originOffset = (mapping.originY * displayWidth + mapping.originX) * 4

        let lanes = max(span, 1) * 4
        // The AVX2 horizontal pass gives every output the same number of taps (the most any has, rounded up to
        // even; see CKFeedResample): each output's weights padded with zeros to that, and the row with zero pixels
        // past its end for them to read.
        let paddedTaps = kernel == .avx2 ? ((columns.count.max() ?? 1) + 1) & ~1 : 0
        let rowBuffer = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: max(span, 1) + paddedTaps)
        defer { rowBuffer.deallocate() }
        (rowBuffer + max(span, 1)).initialize(repeating: .zero, count: paddedTaps)
        let row = UnsafeMutableRawPointer(rowBuffer).assumingMemoryBound(to: Float.self)
        // Source rows as Float, row r in slot r % ringRows: an output row's taps span at most `rows.stride` rows.
        let ringRows = rows.stride
        let ring = UnsafeMutablePointer<Float>.allocate(capacity: ringRows * lanes)
        defer { ring.deallocate() }
        var nextSourceRow = 0
        // An output row's source lines, for the AVX2 vertical pass.
        let lines = UnsafeMutablePointer<UnsafePointer<Float>?>.allocate(capacity: ringRows)
        defer { lines.deallocate() }
        // Each output pixel's column weights, splatted across its four channels (`paddedTaps` an output for AVX2).
        let weightStride = kernel == .avx2 ? paddedTaps : columns.stride
        let columnWeights = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: max(outputWidth * weightStride, 1))
        defer { columnWeights.deallocate() }
        columnWeights.initialize(repeating: .zero, count: outputWidth * weightStride)
        for output in 0..<outputWidth {
            for tap in 0..<columns.count[output] {
                let weight = columns.values[output * columns.stride + tap]
                columnWeights[output * weightStride + tap] = SIMD4(repeating: weight)
            }
        }
        // The AVX2 pass's first pixel of each output, counted from the row's first column.
        let rowStarts = kernel == .avx2 ? columns.start.map { $0 - firstColumn } : []

        rows.values.withUnsafeBufferPointer { rowWeights in
            columns.start.withUnsafeBufferPointer { columnStarts in
                columns.count.withUnsafeBufferPointer { columnCounts in
                    for outputY in 0..<outputHeight {
                        let top = rows.start[outputY]
                        let taps = rows.count[outputY]
                        nextSourceRow = max(nextSourceRow, top)
                        while nextSourceRow < top + taps {
                            let floats = ring + (nextSourceRow % ringRows) * lanes
                            if let fill = source.floats {
                                fill(nextSourceRow, firstColumn, max(span, 1), floats)
                            } else if kernel == .avx2 {
                                kfeed_resample_widen_avx2(floats, source.row(nextSourceRow) + skippedBytes, lanes)
                            } else {
                                let bytes = source.row(nextSourceRow) + skippedBytes
                                for lane in 0..<lanes { floats[lane] = Float(bytes[lane]) }
                            }
                            nextSourceRow += 1
                        }
                        func line(_ tap: Int) -> UnsafeMutablePointer<Float> { ring + ((top + tap) % ringRows) * lanes }
                        let weights = rowWeights.baseAddress! + outputY * rows.stride
                        var offset = originOffset &+ outputY &* yStep
                        if kernel == .avx2 {
                            for tap in 0..<taps { lines[tap] = UnsafePointer(line(tap)) }
                            kfeed_resample_vertical_avx2(row, lines, weights, taps, lanes)
                            kfeed_resample_horizontal_avx2(
                                destinationBase.assumingMemoryBound(to: UInt8.self),
                                offset,
                                xStep,
                                row,
                                UnsafeRawPointer(columnWeights).assumingMemoryBound(to: Float.self),
                                paddedTaps,
                                rowStarts,
                                outputWidth
                            )
                            continue
                        }

                        // Vertical pass: one row of `span` RGBX pixels, four taps per sweep over it (the first
                        // sweep five: the first tap's product, then the next four's sum added to it, as the later
                        // sweeps add theirs).
                        let first = line(0)
                        let w0 = weights[0]
                        var tap = 1
                        if taps >= 5 {
                            let (a, b, c, d) = (line(1), line(2), line(3), line(4))
                            let (wa, wb, wc, wd) = (weights[1], weights[2], weights[3], weights[4])
                            for lane in 0..<lanes {
                                row[lane] =
                                    w0 * first[lane] + ((wa * a[lane] + wb * b[lane]) + (wc * c[lane] + wd * d[lane]))
                            }
                            tap = 5
                        } else {
                            for lane in 0..<lanes { row[lane] = w0 * first[lane] }
                        }
                        while tap + 3 < taps {
                            let (a, b, c, d) = (line(tap), line(tap + 1), line(tap + 2), line(tap + 3))
                            let (wa, wb, wc, wd) = (weights[tap], weights[tap + 1], weights[tap + 2], weights[tap + 3])
                            for lane in 0..<lanes {
                                row[lane] += (wa * a[lane] + wb * b[lane]) + (wc * c[lane] + wd * d[lane])
                            }
                            tap += 4
                        }
                        while tap < taps {
                            let (a, wa) = (line(tap), weights[tap])
                            for lane in 0..<lanes { row[lane] += wa * a[lane] }
                            tap += 1
                        }

                        // Horizontal pass, written to the oriented position; two sums break the add chain. The
                        // indices stay within the weights' and the row's bounds by construction: wrapping
                        // arithmetic (`&+`, `&*`) spares an overflow check per tap.
                        for outputX in 0..<outputWidth {
                            let weights = columnWeights + outputX &* columns.stride
                            let pixels = rowBuffer + (columnStarts[outputX] &- firstColumn)
                            let count = columnCounts[outputX]
                            var even = SIMD4<Float>.zero
                            var odd = SIMD4<Float>.zero
                            var index = 0
                            while index &+ 1 < count {
                                even += weights[index] * pixels[index]
                                odd += weights[index &+ 1] * pixels[index &+ 1]
                                index &+= 2
                            }
                            if index < count { even += weights[index] * pixels[index] }
                            destinationBase.storeBytes(
                                of: Self.bytes(even + odd),
                                toByteOffset: offset,
                                as: SIMD4<UInt8>.self
                            )
                            offset &+= xStep
                        }
                    }
                }
            }
        }
    }
}

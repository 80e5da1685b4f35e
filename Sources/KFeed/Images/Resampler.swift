import Foundation

/// A separable Lanczos-3 resampler for RGBX images, in `Float`, with the EXIF orientation applied on output.
///
/// The vertical pass runs first, one output row at a time, over contiguous bytes (the compiler vectorises
/// it); the horizontal pass then works on `SIMD4<Float>` pixels. Weights are precomputed per output row and
/// column and normalised to sum to 1. Taps are clamped to the crop window, like cropping and then resizing.
struct Resampler: Sendable {
    /// A sub-pixel window of the source, in source pixels.
    struct Window: Equatable, Sendable {
        var x: Double
        var y: Double
        var width: Double
        var height: Double
    }

    /// Precomputed filter taps for one axis: output `i` reads `count[i]` samples from `start[i]`.
    struct Weights: Sendable {
        var start: [Int]
        var count: [Int]
        /// `stride` weights per output sample; unused slots are zero.
        var values: [Float]
        var stride: Int

        /// Weights mapping `[origin, origin + length)` of a source axis with `limit` samples onto `outputs` samples.
        init(origin: Double, length: Double, limit: Int, outputs: Int) {
            let scale = length / Double(outputs)
            let filterScale = max(scale, 1)
            let support = Resampler.lobes * filterScale
            let lowest = max(0, Int(origin.rounded(.down)))
            let highest = min(limit, Int((origin + length).rounded(.up))) - 1
            stride = Int((2 * support).rounded(.up)) + 2
            start = []
            count = []
            values = [Float](repeating: 0, count: stride * outputs)
            start.reserveCapacity(outputs)
            count.reserveCapacity(outputs)
            for output in 0..<outputs {
                let centre = origin + (Double(output) + 0.5) * scale
                let first = max(lowest, Int((centre - support - 0.5).rounded(.up)))
                let last = max(first, min(highest, Int((centre + support - 0.5).rounded(.down)), first + stride - 1))
                var weights: [Double] = []
                for sample in first...last {
                    weights.append(Resampler.lanczos((Double(sample) + 0.5 - centre) / filterScale))
                }
                var total = weights.reduce(0, +)
                if total.magnitude < 1e-9 {  // degenerate window: take the nearest sample
                    weights = weights.indices.map { $0 == 0 ? 1 : 0 }
                    total = 1
                }
                for (index, weight) in weights.enumerated() {
                    values[output * stride + index] = Float(weight / total)
                }
                start.append(first)
                count.append(weights.count)
            }
        }
    }

    static let lobes = 3.0

    /// The Lanczos-3 kernel.
    static func lanczos(_ x: Double) -> Double {
        let x = x.magnitude
        guard x < lobes else { return 0 }
        guard x > 1e-9 else { return 1 }
        let pix = Double.pi * x
        return lobes * sin(pix) * sin(pix / lobes) / (pix * pix)
    }

    /// Resamples `window` of an RGBX `source` to `outputWidth`×`outputHeight` (stored orientation), writing
    /// each pixel to its oriented position in `destination`, an RGBX image of the displayed size.
    static func resample(
        source: UnsafeRawBufferPointer,
        sourceWidth: Int,
        sourceHeight: Int,
        window: Window,
        outputWidth: Int,
        outputHeight: Int,
        orientation: EXIFOrientation,
        into destination: UnsafeMutableRawBufferPointer
    ) {
        precondition(source.count >= sourceWidth * sourceHeight * 4, "source smaller than its size")
        precondition(destination.count >= outputWidth * outputHeight * 4, "destination smaller than the output")
        guard outputWidth > 0, outputHeight > 0, let sourceBase = source.baseAddress,
            let destinationBase = destination.baseAddress
        else { return }
        let columns = Weights(origin: window.x, length: window.width, limit: sourceWidth, outputs: outputWidth)
        let rows = Weights(origin: window.y, length: window.height, limit: sourceHeight, outputs: outputHeight)
        let firstColumn = columns.start.min() ?? 0
        let lastColumn = zip(columns.start, columns.count).map { $0 + $1 }.max() ?? 0
        let span = lastColumn - firstColumn
        let displayWidth = orientation.swapsAxes ? outputHeight : outputWidth
        let mapping = orientation.displayMapping(storedWidth: outputWidth, storedHeight: outputHeight)
        let xStep = (mapping.xStep.dy * displayWidth + mapping.xStep.dx) * 4
        let yStep = (mapping.yStep.dy * displayWidth + mapping.yStep.dx) * 4
        let originOffset = (mapping.originY * displayWidth + mapping.originX) * 4
        let source8 = sourceBase.assumingMemoryBound(to: UInt8.self)

        let rowBuffer = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: max(span, 1))
        defer { rowBuffer.deallocate() }
        let row = UnsafeMutableRawPointer(rowBuffer).assumingMemoryBound(to: Float.self)
        let lanes = span * 4
        columns.values.withUnsafeBufferPointer { columnWeights in
            rows.values.withUnsafeBufferPointer { rowWeights in
                for outputY in 0..<outputHeight {
                    // Vertical pass: one row of `span` RGBX pixels as Float.
                    let weightBase = outputY * rows.stride
                    let top = rows.start[outputY]
                    let taps = rows.count[outputY]
                    let firstLine = source8 + (top * sourceWidth + firstColumn) * 4
                    let firstWeight = rowWeights[weightBase]
                    for lane in 0..<lanes { row[lane] = firstWeight * Float(firstLine[lane]) }
                    var tap = 1
                    while tap + 1 < taps {
                        let a = source8 + ((top + tap) * sourceWidth + firstColumn) * 4
                        let b = a + sourceWidth * 4
                        let weightA = rowWeights[weightBase + tap]
                        let weightB = rowWeights[weightBase + tap + 1]
                        for lane in 0..<lanes { row[lane] += weightA * Float(a[lane]) + weightB * Float(b[lane]) }
                        tap += 2
                    }
                    if tap < taps {
                        let a = source8 + ((top + tap) * sourceWidth + firstColumn) * 4
                        let weightA = rowWeights[weightBase + tap]
                        for lane in 0..<lanes { row[lane] += weightA * Float(a[lane]) }
                    }
                    // Horizontal pass, written to the oriented position.
                    var offset = originOffset + outputY * yStep
                    for outputX in 0..<outputWidth {
                        let columnBase = outputX * columns.stride
                        let left = columns.start[outputX] - firstColumn
                        var sum = SIMD4<Float>(repeating: 0.5)
                        for index in 0..<columns.count[outputX] {
                            sum += columnWeights[columnBase + index] * rowBuffer[left + index]
                        }
                        let clamped = sum.clamped(lowerBound: SIMD4(repeating: 0), upperBound: SIMD4(repeating: 255))
                        // Lane by lane: the generic `SIMD4<Int32>(_:rounding:)` is not specialized and cost more
                        // than the filter itself. The sum started at 0.5, so truncation rounds.
                        let pixel = SIMD4<UInt8>(
                            UInt8(clamped[0]),
                            UInt8(clamped[1]),
                            UInt8(clamped[2]),
                            UInt8(clamped[3])
                        )
                        destinationBase.storeBytes(of: pixel, toByteOffset: offset, as: SIMD4<UInt8>.self)
                        offset += xStep
                    }
                }
            }
        }
    }
}

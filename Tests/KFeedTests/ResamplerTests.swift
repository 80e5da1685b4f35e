import KFeedBase
import KFeedTestSupport
import Testing

@testable import KFeed
@testable import KFeedImages

struct ResamplerTests {
    @Test(arguments: [(100.0, 10), (10.0, 100), (37.5, 16), (300.0, 340)])
    func weightsSumToOneAndStayInTheWindow(length: Double, outputs: Int) {
        let weights = Resampler.Weights(origin: 5, length: length, limit: 400, outputs: outputs)
        for output in 0..<outputs {
            let start = weights.start[output]
            let values = weights.values[(output * weights.stride)..<(output * weights.stride + weights.count[output])]
            #expect(abs(values.reduce(0, +) - 1) < 1e-4)
            #expect(start >= 5 && start + weights.count[output] <= Int((5 + length).rounded(.up)))
        }
    }

    @Test func sharedWeightsAreTheWeightsOfTheirArguments() {
        for (origin, length, limit, outputs, lobes) in [(5.0, 100.0, 400, 10, 3.0), (113.5, 453.0, 680, 340, 3.0)] {
            let made = Resampler.Weights(origin: origin, length: length, limit: limit, outputs: outputs, lobes: lobes)
            for _ in 0..<2 {
                let shared = Resampler.Weights.shared(
                    origin: origin,
                    length: length,
                    limit: limit,
                    outputs: outputs,
                    lobes: lobes
                )
                #expect(shared.start == made.start && shared.count == made.count && shared.values == made.values)
                #expect(shared.stride == made.stride)
            }
        }
        let other = Resampler.Weights.shared(origin: 5, length: 100, limit: 400, outputs: 10, lobes: 2)
        #expect(other.values == Resampler.Weights(origin: 5, length: 100, limit: 400, outputs: 10, lobes: 2).values)
        #expect(other.values != Resampler.Weights(origin: 5, length: 100, limit: 400, outputs: 10, lobes: 3).values)
    }

    func resample(_ pixels: [UInt8], width: Int, height: Int, to size: (Int, Int)) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: size.0 * size.1 * 4)
        pixels.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { destination in
                Resampler.resample(
                    source: .packed(source, width: width, height: height),
                    window: .init(x: 0, y: 0, width: Double(width), height: Double(height)),
                    outputWidth: size.0,
                    outputHeight: size.1,
                    orientation: .identity,
                    into: destination
                )
            }
        }
        return output
    }

    @Test func aConstantImageStaysConstant() {
        let pixels = [UInt8](repeating: 77, count: 50 * 40 * 4)
        #expect(resample(pixels, width: 50, height: 40, to: (13, 7)).allSatisfy { $0 == 77 })
        #expect(resample(pixels, width: 50, height: 40, to: (120, 90)).allSatisfy { $0 == 77 })
    }

    @Test func aFineCheckerboardAveragesToGrey() {
        var pixels = [UInt8](repeating: 0, count: 64 * 64 * 4)
        for y in 0..<64 {
            for x in 0..<64 where (x + y) % 2 == 0 {
                for channel in 0..<4 { pixels[(y * 64 + x) * 4 + channel] = 255 }
            }
        }
        let output = resample(pixels, width: 64, height: 64, to: (8, 8))
        #expect(output.allSatisfy { (120...135).contains($0) })
    }

    @Test func orientationWritesPixelsWhereTheyAreDisplayed() {
        // A 2x1 image, red then blue, rotated 90° clockwise becomes 1x2: red on top.
        let pixels: [UInt8] = [255, 0, 0, 0, 0, 0, 255, 0]
        var output = [UInt8](repeating: 0, count: 8)
        pixels.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { destination in
                Resampler.resample(
                    source: .packed(source, width: 2, height: 1),
                    window: .init(x: 0, y: 0, width: 2, height: 1),
                    outputWidth: 2,
                    outputHeight: 1,
                    orientation: .rotate90,
                    into: destination
                )
            }
        }
        #expect(output[0] > 200 && output[2] < 50)
        #expect(output[4] < 50 && output[6] > 200)
    }

    @Test func readsOnlyTheWindowsRowsOnceInOrderAndOnlyItsColumns() {
        let (width, height) = (60, 50)
        let rgb = TestJPEG.noise(width: width, height: height)
        let pixels = (0..<width * height).flatMap { rgb[$0 * 3..<$0 * 3 + 3] + [255] }
        let window = Resampler.Window(x: 12.4, y: 7.6, width: 30.2, height: 25.5)
        let columns = window.columns(limit: width)
        #expect(columns == 12..<43)
        #expect(window.rows(limit: height) == 7..<34)
        var whole = [UInt8](repeating: 0, count: 17 * 11 * 4)
        var strips = whole
        var asked: [Int] = []
        pixels.withUnsafeBytes { source in
            whole.withUnsafeMutableBytes { destination in
                Resampler.resample(
                    source: .packed(source, width: width, height: height),
                    window: window,
                    outputWidth: 17,
                    outputHeight: 11,
                    orientation: .identity,
                    into: destination
                )
            }
            // Only the window's columns, copied into a row buffer that each call overwrites.
            let row = UnsafeMutablePointer<UInt8>.allocate(capacity: columns.count * 4)
            defer { row.deallocate() }
            let base = source.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let rows = Resampler.Source(
                width: width,
                height: height,
                firstColumn: columns.lowerBound,
                columnCount: columns.count
            ) {
                asked.append($0)
                row.update(from: base + ($0 * width + columns.lowerBound) * 4, count: columns.count * 4)
                return UnsafePointer(row)
            }
            strips.withUnsafeMutableBytes { destination in
                Resampler.resample(
                    source: rows,
                    window: window,
                    outputWidth: 17,
                    outputHeight: 11,
                    orientation: .identity,
                    into: destination
                )
            }
        }
        #expect(strips == whole)
        #expect(asked == Array(window.rows(limit: height)))
    }

    /// `window` of a noise image resampled to `size` with `kernel`; from bytes, or from floats as the first-pass decoder
    /// hands them over (with fractions and values a little outside 0…255, as its samples have).
    func resample(
        _ kernel: ResamplingKernel,
        noise: (width: Int, height: Int),
        window: Resampler.Window,
        to size: (Int, Int),
        orientation: EXIFOrientation = .identity,
        lobes: Double = Resampler.lobes,
        floats: Bool = false
    ) -> [UInt8] {
        let rgb = TestJPEG.noise(width: noise.width, height: noise.height)
        let pixels = (0..<noise.width * noise.height).flatMap { rgb[$0 * 3..<$0 * 3 + 3] + [255] }
        var output = [UInt8](repeating: 0, count: size.0 * size.1 * 4)
        pixels.withUnsafeBytes { bytes in
            var source = Resampler.Source.packed(bytes, width: noise.width, height: noise.height)
            if floats {
                source.floats = { row, first, count, into in
                    for lane in 0..<count * 4 {
                        let byte = Float(pixels[(row * noise.width + first) * 4 + lane])
                        into[lane] = byte * 1.07 - 8.3
                    }
                }
            }
            output.withUnsafeMutableBytes { destination in
                Resampler.resample(
                    source: source,
                    window: window,
                    outputWidth: size.0,
                    outputHeight: size.1,
                    orientation: orientation,
                    lobes: lobes,
                    kernel: kernel,
                    into: destination
                )
            }
        }
        return output
    }

    @Test(.enabled(if: ResamplingKernel.avx2.isAvailable, "the CPU has no AVX2"))
    func theAVX2KernelGivesThePortablePixelsByteForByte() {
        // Down and up, odd sizes, one row and one column, windows at fractions of a pixel, each orientation, both
        // kernels' lobes, bytes and floats: vertical taps from 1 to over 30, rows of lanes not a multiple of eight.
        let cases: [(noise: (Int, Int), window: Resampler.Window, size: (Int, Int))] = [
            ((680, 453), .init(x: 113.5, y: 0, width: 453, height: 453), (340, 340)),
            ((97, 61), .init(x: 0, y: 0, width: 97, height: 61), (13, 7)),
            ((97, 61), .init(x: 3.3, y: 2.7, width: 81.1, height: 50.9), (131, 77)),
            ((33, 1), .init(x: 0, y: 0, width: 33, height: 1), (5, 3)),
            ((1, 29), .init(x: 0, y: 0, width: 1, height: 29), (3, 4)),
            ((400, 400), .init(x: 0, y: 0, width: 400, height: 400), (96, 96)),
            ((250, 180), .init(x: 10.25, y: 5.5, width: 229.5, height: 170), (23, 17)),
            ((51, 47), .init(x: 0, y: 0, width: 51, height: 47), (51, 47)),
        ]
        for (noise, window, size) in cases {
            for orientation in [EXIFOrientation.identity, .rotate90, .flipHorizontal, .transverse] {
                for lobes in [3.0, 2.0] {
                    for floats in [false, true] {
                        let outputs = [ResamplingKernel.portable, .avx2].map { kernel in
                            resample(
                                kernel,
                                noise: noise,
                                window: window,
                                to: size,
                                orientation: orientation,
                                lobes: lobes,
                                floats: floats
                            )
                        }
                        let (portable, avx2) = (outputs[0], outputs[1])
                        let differing = zip(avx2, portable).filter { $0 != $1 }.count
                        #expect(
                            avx2.count == portable.count && differing == 0,
                            "\(differing) bytes differ: \(noise) \(window) to \(size), \(orientation), \(lobes) lobes, floats \(floats)"
                        )
                    }
                }
            }
        }
    }
}

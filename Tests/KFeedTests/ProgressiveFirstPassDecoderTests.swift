import Foundation
import KFeedBase
import KFeedTestSupport
import Testing

@testable import KFeed
@testable import KFeedImages

/// The first-pass decoder against TurboJPEG on recorded progressive JPEGs (`Fixtures/images/progressive`, made
/// by `Fixtures/tools/make-progressive.sh`): standard scripts, spectral selection only, one DC scan per
/// component, restart markers every 3 MCUs, an odd size, 4:2:0, 4:2:2, 4:4:4 and grey.
struct ProgressiveFirstPassDecoderTests {
    static let fixtures = [
        "standard-420", "standard-444", "restart-422-odd-size", "spectral-only-444", "dc-per-component-420",
        "grayscale",
    ]

    /// RGBX pixels and their size.
    struct Pixels {
        var width: Int
        var height: Int
        var rgbx: [UInt8]

        /// Channel differences (R, G, B) against `other`, which has the same size.
        func differences(to other: Pixels) -> (mean: Double, max: Int) {
            var total = 0
            var largest = 0
            for offset in rgbx.indices where offset % 4 != 3 {
                let difference = abs(Int(rgbx[offset]) - Int(other.rgbx[offset]))
                total += difference
                largest = max(largest, difference)
            }
            return (Double(total) / Double(width * height * 3), largest)
        }

        /// BT.601 luma of every pixel.
        var luma: [Double] {
            stride(from: 0, to: rgbx.count, by: 4).map { (offset: Int) -> Double in
                let red = 0.299 * Double(rgbx[offset])
                let green = 0.587 * Double(rgbx[offset + 1])
                let blue = 0.114 * Double(rgbx[offset + 2])
                return red + green + blue
            }
        }

        /// Each `factor`×`factor` cell's mean (cells at the right and bottom edges may be partial).
        func boxAveraged(by factor: Int) -> Pixels {
            let outputWidth = (width + factor - 1) / factor
            let outputHeight = (height + factor - 1) / factor
            var output = [UInt8](repeating: 255, count: outputWidth * outputHeight * 4)
            for y in 0..<outputHeight {
                for x in 0..<outputWidth {
                    for channel in 0..<3 {
                        var sum = 0
                        var count = 0
                        for sourceY in (y * factor)..<min((y + 1) * factor, height) {
                            for sourceX in (x * factor)..<min((x + 1) * factor, width) {
                                sum += Int(rgbx[(sourceY * width + sourceX) * 4 + channel])
                                count += 1
                            }
                        }
                        output[(y * outputWidth + x) * 4 + channel] = UInt8((sum + count / 2) / count)
                    }
                }
            }
            return Pixels(width: outputWidth, height: outputHeight, rgbx: output)
        }
    }

    func firstPass(_ jpeg: Data, eighths: Int) throws -> Pixels {
        try jpeg.withUnsafeBytes { bytes in
            let structure = try JPEGStructure.parse(bytes, maxScans: 100)
            let width = (structure.width * eighths + 7) / 8
            let height = (structure.height * eighths + 7) / 8
            var rgbx = [UInt8](repeating: 0, count: width * height * 4)
            try rgbx.withUnsafeMutableBytes { output in
                try ProgressiveFirstPassDecoder.decode(bytes, structure: structure, eighths: eighths, into: output)
            }
            return Pixels(width: width, height: height, rgbx: rgbx)
        }
    }

    func turboJPEG(_ jpeg: Data, eighths: Int) throws -> Pixels {
        try jpeg.withUnsafeBytes { bytes in
            let handle = try TurboJPEGHandle(.decompressor)
            let header = try handle.header(of: bytes)
            let factor = TurboJPEGHandle.ScalingFactor(numerator: eighths, denominator: 8)
            let width = factor.scaled(header.width)
            let height = factor.scaled(header.height)
            var rgbx = [UInt8](repeating: 0, count: width * height * 4)
            try rgbx.withUnsafeMutableBytes { output in
                try handle.decompressRGBX(bytes, width: width, height: height, into: output)
            }
            return Pixels(width: width, height: height, rgbx: rgbx)
        }
    }

    func fixture(_ name: String) throws -> Data { try Fixture.data("images/progressive/\(name).jpg") }

    @Test(arguments: fixtures)
    func everyFixtureIsProgressiveAndSupported(name: String) throws {
        let structure = try fixture(name).withUnsafeBytes { try JPEGStructure.parse($0, maxScans: 100) }
        #expect(structure.process == .progressive)
        #expect(structure.scanCount >= 5)
        #expect(ProgressiveFirstPassDecoder.supports(structure))
    }

    @Test(arguments: ["standard-444", "spectral-only-444", "grayscale"])
    func atOneEighthItMatchesTurboJPEGsOneEighthScale(name: String) throws {
        // Without chroma subsampling both are the blocks' DC values; only the YCbCr→RGB rounding differs
        // (libjpeg rounds Y, Cb, Cr and each term).
        let jpeg = try fixture(name)
        let ours = try firstPass(jpeg, eighths: 1)
        let reference = try turboJPEG(jpeg, eighths: 1)
        #expect(ours.width == reference.width && ours.height == reference.height)
        let (mean, largest) = ours.differences(to: reference)
        #expect(largest <= 2, "\(name): largest difference \(largest)")
        #expect(mean < 0.5, "\(name): mean difference \(mean)")
    }

    @Test(arguments: fixtures)
    func atOneEighthLumaIsTheBlocksDCEvenWithSubsampledChroma(name: String) throws {
        // Chroma differs by design (interpolated here; replicated or IDCT-scaled by libjpeg); luma must not.
        let jpeg = try fixture(name)
        let ours = try firstPass(jpeg, eighths: 1).luma
        let reference = try turboJPEG(jpeg, eighths: 1).luma
        #expect(ours.count == reference.count)
        let largest = zip(ours, reference).map { abs($0 - $1) }.max() ?? 0
        #expect(largest <= 2.5, "\(name): largest luma difference \(largest)")
    }

    @Test(arguments: [2, 4])
    func withoutRefinementScansSamplesAreTheFullDecodesBlockAverages(eighths: Int) throws {
        // Spectral selection only: every coefficient is whole after its first pass, so the result is the average
        // of TurboJPEG's full-size pixels, up to integer IDCT rounding and clamping of ringing at saturated edges:
        // closer than libjpeg's own reduced-size inverse DCT gets.
        let jpeg = try fixture("spectral-only-444")
        let ours = try firstPass(jpeg, eighths: eighths)
        let reference = try turboJPEG(jpeg, eighths: 8).boxAveraged(by: 8 / eighths)
        let (mean, largest) = ours.differences(to: reference)
        let libjpeg = try turboJPEG(jpeg, eighths: eighths).differences(to: reference)
        #expect(largest <= 6, "largest difference \(largest)")
        #expect(mean < 0.3, "mean difference \(mean)")
        #expect(mean < libjpeg.mean)
    }

    @Test(arguments: fixtures, [2, 4])
    func withRefinementScansSkippedSamplesStayCloseToTheFullDecode(name: String, eighths: Int) throws {
        // The AC coefficients lack their last refinement bits: within 2.5 levels (mean) of libjpeg's own decode
        // at the same scale, measured against the full decode's block averages. A wrong coefficient order,
        // weight or block position is off by tens of levels.
        let jpeg = try fixture(name)
        let reference = try turboJPEG(jpeg, eighths: 8).boxAveraged(by: 8 / eighths)
        let ours = try firstPass(jpeg, eighths: eighths).differences(to: reference)
        let libjpeg = try turboJPEG(jpeg, eighths: eighths).differences(to: reference)
        #expect(ours.mean < libjpeg.mean + 2.5, "\(name) at \(eighths)/8: \(ours.mean) against \(libjpeg.mean)")
    }

    @Test(arguments: fixtures, [2, 4])
    func theResamplersFloatRowsAreTheBytesBeforeRounding(name: String, eighths: Int) throws {
        let jpeg = try fixture(name)
        let bytes = try firstPass(jpeg, eighths: eighths)
        let worst = try jpeg.withUnsafeBytes { data in
            let structure = try JPEGStructure.parse(data, maxScans: 100)
            return try ProgressiveFirstPassDecoder.withRows(data, structure: structure, eighths: eighths) { source in
                // Columns from the middle, as a crop asks for them.
                let first = source.width / 3
                let count = source.width - first
                let floats = UnsafeMutablePointer<Float>.allocate(capacity: count * 4)
                defer { floats.deallocate() }
                var worst: Float = 0
                for y in 0..<source.height {
                    source.floats?(y, first, count, floats)
                    for index in 0..<(count * 4) {
                        let byte = Float(bytes.rgbx[(y * source.width + first) * 4 + index])
                        worst = max(worst, abs(floats[index] - byte))
                    }
                }
                return worst
            }
        }
        #expect(worst <= 0.5, "\(name) at \(eighths)/8: \(worst)")
    }

    @Test func aScanCutShortIsAFailureNotAGreyImage() throws {
        let jpeg = try fixture("standard-420")
        let firstScan = try #require(jpeg.firstRange(of: Data([0xFF, 0xDA])))
        let cut = jpeg.prefix(firstScan.upperBound + 200) + Data([0xFF, 0xD9])
        #expect(throws: ImageFailure.self) { _ = try firstPass(cut, eighths: 1) }
        #expect(throws: ImageFailure.self) { _ = try firstPass(cut, eighths: 2) }
    }

    @Test func aComponentWithoutADCScanIsCorrupt() throws {
        // Drop the first scan (DC of all components): its refinement scan alone must not pass as an image.
        let jpeg = try fixture("standard-444")
        let firstScan = try #require(jpeg.firstRange(of: Data([0xFF, 0xDA])))
        let secondSegment = jpeg.withUnsafeBytes { bytes in
            JPEGBitReader.nextMarker(
                bytes.baseAddress!.assumingMemoryBound(to: UInt8.self),
                bytes.count,
                from: firstScan.upperBound,
                stoppingAtRestarts: false
            )
        }
        try #require(secondSegment < jpeg.count)
        let withoutDC = jpeg[..<firstScan.lowerBound] + jpeg[secondSegment...]
        let error = #expect(throws: ImageFailure.self) { _ = try firstPass(Data(withoutDC), eighths: 1) }
        #expect(error?.reason == ImageFailure.corrupt.reason)
    }

    @Test func anOverfullHuffmanTableIsCorruptBeforeItIsBuilt() throws {
        // Three 1-bit codes (only two exist) with the total unchanged: a table that would index past its end.
        var jpeg = try fixture("standard-420")
        let table = try #require(jpeg.firstRange(of: Data([0xFF, 0xC4]))).upperBound + 2
        let counts = (table + 1)..<(table + 17)
        let donor = try #require(counts.dropFirst().first { jpeg[$0] >= 3 })
        jpeg[donor] -= 3
        jpeg[counts.lowerBound] += 3
        let error = #expect(throws: ImageFailure.self) { _ = try firstPass(jpeg, eighths: 1) }
        #expect(error?.reason == ImageFailure.corrupt.reason)
    }

    @Test func mutatedScanDataFailsOrDecodesButNeverCrashes() throws {
        let original = try fixture("restart-422-odd-size")
        let firstScan = try #require(original.firstRange(of: Data([0xFF, 0xDA]))).upperBound
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % bound
        }
        var failures = 0
        for round in 0..<300 {
            var jpeg = original
            for _ in 0..<(1 + random(8)) {
                let offset = firstScan + random(original.count - firstScan - 2)
                jpeg[offset] = UInt8(random(256))
            }
            do {
                _ = try firstPass(jpeg, eighths: [1, 2, 4][round % 3])
            } catch {
                failures += 1
            }
        }
        #expect(failures > 0)  // some mutations must be caught (markers, codes, runs), and none crashed
    }

    @Test func progressivePhotosUseTheFirstPassAtReducedScalesOnly() throws {
        let pixels = TestJPEG.gradient(width: 2_000, height: 1_600)
        let progressive = try TestJPEG.jpeg(pixels, width: 2_000, height: 1_600, progressive: true)
        let baseline = try TestJPEG.jpeg(pixels, width: 2_000, height: 1_600)
        func plan(_ jpeg: Data, _ size: ImageSize) throws -> JPEGThumbnailer.Plan {
            try jpeg.withUnsafeBytes { try JPEGThumbnailer().plan(for: $0, size: size) }
        }
        let small = try plan(progressive, .small)
        #expect(small.usesFirstPass)
        // The smallest scale leaving 0.7× the target (`firstPassCoverage`): 1600 px crop at 1/4 is 400 ≥ 238.
        #expect(small.factor == TurboJPEGHandle.ScalingFactor(numerator: 1, denominator: 4))
        #expect(try !plan(baseline, .small).usesFirstPass)
        // 1/2 leaves 1000 px of 1600 (0.63×): full size.
        #expect(try !plan(progressive, ImageSize(width: 1_600, height: 1_280)).usesFirstPass)
    }
}

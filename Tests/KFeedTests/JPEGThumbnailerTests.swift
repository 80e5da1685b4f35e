import Foundation
import KFeedBase
import KFeedTestSupport
import Testing

@testable import KFeed
@testable import KFeedImages

struct JPEGThumbnailerTests {
    typealias Colour = TestJPEG.Colour

    /// A decoded JPEG: size, TurboJPEG header and RGBX pixels.
    struct Decoded {
        var header: TurboJPEGHandle.Header
        var structure: JPEGStructure
        var pixels: [UInt8]

        func colour(x: Int, y: Int) -> Colour {
            let offset = (y * header.width + x) * 4
            return Colour(pixels[offset], pixels[offset + 1], pixels[offset + 2])
        }
    }

    func decode(_ jpeg: Data) throws -> Decoded {
        try jpeg.withUnsafeBytes { bytes in
            let structure = try JPEGStructure.parse(bytes, maxScans: 100)
            let handle = try TurboJPEGHandle(.decompressor)
            let header = try handle.header(of: bytes)
            var pixels = [UInt8](repeating: 0, count: header.width * header.height * 4)
            try pixels.withUnsafeMutableBytes { destination in
                try handle.decompressRGBX(bytes, width: header.width, height: header.height, into: destination)
            }
            return Decoded(header: header, structure: structure, pixels: pixels)
        }
    }

    func failure(_ body: () throws -> Data) -> ImageFailure? {
        #expect(throws: ImageFailure.self) { _ = try body() }
        do {
            _ = try body()
        } catch let error as ImageFailure {
            return error
        } catch {}
        return nil
    }

    static let notJPEGBodies: [(String, [UInt8])] = [
        ("PNG", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52]),
        ("GIF", Array("GIF89a\u{01}\u{00}\u{01}\u{00}".utf8)),
        ("WebP", Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBPVP8 ".utf8)),
        ("HTML", Array("<!DOCTYPE html><html><body>Rate limit exceeded</body></html>".utf8)),
        ("empty", []),
        ("2 bytes", [0xFF, 0xD8]),
        ("3 bytes, not JPEG", [0xFF, 0xD8, 0x00]),
    ]

    @Test(arguments: notJPEGBodies)
    func refusesBodiesThatAreNotJPEG(name: String, body: [UInt8]) {
        let error = failure { try JPEGThumbnailer().thumbnail(of: Data(body), size: .small) }
        #expect(error?.reason == "not a JPEG", "\(name)")
    }

    @Test func refusesABareStartOfImage() {
        let error = failure { try JPEGThumbnailer().thumbnail(of: Data([0xFF, 0xD8, 0xFF]), size: .small) }
        #expect(error?.reason == "truncated JPEG")
    }

    @Test func refusesAHeaderClaiming65500By65500BeforeDecoding() throws {
        let small = try TestJPEG.jpeg(TestJPEG.gradient(width: 16, height: 16), width: 16, height: 16)
        let huge = TestJPEG.claimingSize(width: 65_500, height: 65_500, in: small)
        let error = failure { try JPEGThumbnailer().thumbnail(of: huge, size: .small) }
        #expect(error?.reason == "image too large")
        #expect(throws: ImageFailure.self) { try JPEGThumbnailer().memoryCost(of: huge, size: .small) }
    }

    @Test func refusesAPixelCountAboveTheLimitWithSidesWithinIt() throws {
        let small = try TestJPEG.jpeg(TestJPEG.gradient(width: 16, height: 16), width: 16, height: 16)
        let wide = TestJPEG.claimingSize(width: 16_000, height: 4_000, in: small)  // 64 MP
        let error = failure { try JPEGThumbnailer().thumbnail(of: wide, size: .small) }
        #expect(error?.reason == "image too large")
    }

    @Test func refusesAProgressiveScanBomb() throws {
        let bomb = try TestJPEG.scanBomb(scans: 5_000)
        #expect(bomb.count < 200_000)
        let error = failure { try JPEGThumbnailer().thumbnail(of: bomb, size: .small) }
        #expect(error?.reason == "too many scans")
    }

    /// Found reviewing the marker walks for the fuzz targets: `FF 01` (TEM) is a standalone marker to the first-pass
    /// decoder but was read as a segment by the scan counter, whose "length" (the next marker's `FF DA`, 65,498)
    /// skipped the scans behind it. Those scans went uncounted, and the first-pass decoder decoded them all.
    @Test func refusesAScanBombHiddenBehindATEMMarker() throws {
        let bomb = [UInt8](try TestJPEG.scanBomb(scans: 400))
        let start = try #require(TestJPEG.firstScanOffset(in: Data(bomb)))
        let second = try #require((start + 2..<bomb.count - 1).first { bomb[$0] == 0xFF && bomb[$0 + 1] == 0xDA })
        var hidden = Array(bomb[..<second]) + [0xFF, 0x01] + Array(bomb[second..<(bomb.count - 2)])
        // Pad the last scan so that the counter's jump lands just before the end-of-image marker.
        let landing = second + 1 + 1 + 0xFFDA
        #expect(hidden.count <= landing)
        hidden += [UInt8](repeating: 0, count: max(landing - hidden.count, 0)) + [0xFF, 0xD9]
        let error = failure { try JPEGThumbnailer().thumbnail(of: Data(hidden), size: ImageSize(width: 2, height: 2)) }
        #expect(error?.reason == "too many scans")
    }

    @Test func turboJPEGItselfStopsAScanBomb() throws {
        // Bypasses the marker walk: TJFLAG_LIMITSCANS (or the bogus-progression warning) must stop it.
        let bomb = try TestJPEG.scanBomb(scans: 2_000)
        #expect(throws: ImageFailure.self) {
            try bomb.withUnsafeBytes { bytes in
                let handle = try TurboJPEGHandle(.decompressor)
                var pixels = [UInt8](repeating: 0, count: 16 * 16 * 4)
                try pixels.withUnsafeMutableBytes { try handle.decompressRGBX(bytes, width: 16, height: 16, into: $0) }
            }
        }
    }

    @Test func refusesAJPEGTruncatedMidScan() throws {
        let whole = try TestJPEG.jpeg(TestJPEG.noise(width: 256, height: 256), width: 256, height: 256)
        let cut = whole.prefix(whole.count * 6 / 10)
        let error = failure { try JPEGThumbnailer().thumbnail(of: Data(cut), size: .small) }
        #expect(error?.reason == "truncated JPEG")
    }

    @Test func turboJPEGWarningOnTruncatedDataIsAFailureAndPoisonsTheHandle() throws {
        let whole = try TestJPEG.jpeg(TestJPEG.noise(width: 256, height: 256), width: 256, height: 256)
        let cut = Data(whole.prefix(whole.count * 6 / 10))
        try cut.withUnsafeBytes { bytes in
            let handle = try TurboJPEGHandle(.decompressor)
            var pixels = [UInt8](repeating: 0, count: 256 * 256 * 4)
            let first = #expect(throws: ImageFailure.self) {
                try pixels.withUnsafeMutableBytes {
                    try handle.decompressRGBX(bytes, width: 256, height: 256, into: $0)
                }
            }
            #expect(first?.reason == "truncated JPEG")
            #expect(first?.detail?.contains("warning") == true)
            let second = #expect(throws: ImageFailure.self) { try handle.header(of: bytes) }
            #expect(second?.detail?.contains("reused") == true)
        }
    }

    @Test func aJPEGCutBeforeItsFirstScanFailsAndTheNextOneStillDecodes() throws {
        let thumbnailer = JPEGThumbnailer()
        let whole = try TestJPEG.jpeg(TestJPEG.gradient(width: 400, height: 300), width: 400, height: 300)
        let start = try #require(TestJPEG.firstScanOffset(in: whole))
        let error = failure { try thumbnailer.thumbnail(of: Data(whole.prefix(start)), size: .small) }
        #expect(error?.reason == "truncated JPEG")
        let thumbnail = try thumbnailer.thumbnail(of: whole, size: .small)
        #expect(try decode(thumbnail).header.width == 340)
    }

    @Test func grayscaleJPEGsWork() throws {
        let pixels = [UInt8](repeating: 100, count: 500 * 400)
        let gray = try TestJPEG.jpeg(pixels, width: 500, height: 400, format: .gray, subsampling: .gray)
        let decoded = try decode(try JPEGThumbnailer().thumbnail(of: gray, size: .medium))
        #expect(decoded.header.width == 720 && decoded.header.height == 340)
        #expect(decoded.colour(x: 360, y: 170).isClose(to: Colour(100, 100, 100), tolerance: 4))
    }

    @Test func cmykJPEGsAreRefused() throws {
        let pixels = [UInt8](repeating: 60, count: 200 * 200 * 4)
        let cmyk = try TestJPEG.jpeg(pixels, width: 200, height: 200, format: .cmyk)
        let error = failure { try JPEGThumbnailer().thumbnail(of: cmyk, size: .small) }
        #expect(error?.reason == "CMYK not supported")
    }

    static let orientations = EXIFOrientation.allCases.flatMap { [($0.rawValue, false), ($0.rawValue, true)] }

    /// The displayed image is four quadrants (red, green / blue, yellow); the stored pixels are transformed so
    /// that applying the EXIF orientation shows it upright.
    @Test(arguments: orientations)
    func allEightEXIFOrientationsComeOutUpright(orientation: Int, bigEndian: Bool) throws {
        let exif = try #require(EXIFOrientation(rawValue: orientation))
        let (displayWidth, displayHeight) = (320, 240)
        let display = TestJPEG.quadrants(width: displayWidth, height: displayHeight)
        let (storedWidth, storedHeight) = exif.swapsAxes ? (240, 320) : (320, 240)
        let mapping = exif.displayMapping(storedWidth: storedWidth, storedHeight: storedHeight)
        var stored = [UInt8](repeating: 0, count: storedWidth * storedHeight * 3)
        for y in 0..<storedHeight {
            for x in 0..<storedWidth {
                let target = mapping.display(x: x, y: y)
                let from = (target.y * displayWidth + target.x) * 3
                let to = (y * storedWidth + x) * 3
                stored[to..<(to + 3)] = display[from..<(from + 3)]
            }
        }
        let plain = try TestJPEG.jpeg(stored, width: storedWidth, height: storedHeight, subsampling: .s444)
        let jpeg = TestJPEG.withOrientation(orientation, in: plain, bigEndian: bigEndian)
        let size = ImageSize(width: 160, height: 120)
        let decoded = try decode(try JPEGThumbnailer().thumbnail(of: jpeg, size: size))
        #expect(decoded.header.width == 160 && decoded.header.height == 120)
        let samples = [(40, 30), (120, 30), (40, 90), (120, 90)].map { decoded.colour(x: $0.0, y: $0.1) }
        for (sample, expected) in zip(samples, TestJPEG.quadrantColours) {
            #expect(sample.isClose(to: expected), "orientation \(orientation): \(sample) is not \(expected)")
        }
    }

    @Test(arguments: [ImageSize.small, .medium, .large, .avatar, ImageSize(width: 100, height: 700)])
    func outputsAreExactlyTheSizeAsBaseline444WithoutAPP1(size: ImageSize) throws {
        let source = TestJPEG.withOrientation(
            6,
            in: try TestJPEG.jpeg(
                TestJPEG.gradient(width: 1000, height: 700),
                width: 1000,
                height: 700,
                progressive: true
            )
        )
        let thumbnail = try JPEGThumbnailer().thumbnail(of: source, size: size)
        let decoded = try decode(thumbnail)
        #expect(decoded.header.width == size.width && decoded.header.height == size.height)
        #expect(decoded.header.subsampling == JPEGEncoder.Subsampling.s444.turboJPEG)  // full colour resolution
        #expect(decoded.structure.process == .baseline)
        #expect(decoded.structure.orientation == .identity)
        let start = try #require(TestJPEG.firstScanOffset(in: thumbnail))
        let header = [UInt8](thumbnail.prefix(start))
        #expect(!zip(header, header.dropFirst()).contains { $0 == 0xFF && $1 == 0xE1 }, "APP1 in output")
    }

    @Test(arguments: [ImageSize.small, .medium, .large, .avatar])
    func placeholderIsABaselineJPEGOfTheSize(size: ImageSize) throws {
        let decoded = try decode(JPEGThumbnailer.placeholder(size: size))
        #expect(decoded.header.width == size.width && decoded.header.height == size.height)
        #expect(decoded.structure.process == .baseline)
        #expect(decoded.colour(x: 2, y: 2) != decoded.colour(x: size.width - 3, y: size.height - 3))
    }

    @Test(arguments: [false, true])
    func downscalingASmoothImageKeepsItsColours(progressive: Bool) throws {
        let (width, height) = (1_200, 900)
        let source = try TestJPEG.jpeg(
            TestJPEG.gradient(width: width, height: height),
            width: width,
            height: height,
            subsampling: .s444,
            progressive: progressive
        )
        let decoded = try decode(try JPEGThumbnailer().thumbnail(of: source, size: .small))
        // The centre crop of 1200x900 to a square keeps x in 150..<1050.
        for (x, y) in [(20, 20), (170, 170), (320, 40), (40, 320), (300, 300)] {
            let sourceX = 150 + (Double(x) + 0.5) * 900 / 340
            let sourceY = (Double(y) + 0.5) * 900 / 340
            let expected = Colour(
                UInt8(sourceX * 255 / Double(width - 1)),
                UInt8(sourceY * 255 / Double(height - 1)),
                128
            )
            #expect(decoded.colour(x: x, y: y).isClose(to: expected, tolerance: 8), "at \(x),\(y)")
        }
    }

    @Test(arguments: [
        (ImageSize.small, 1), (.small, 6), (.medium, 1), (.avatar, 8), (ImageSize(width: 100, height: 700), 1),
    ])
    func decodingOnlyTheCropRowByRowGivesTheWholeDecodesPixels(size: ImageSize, orientation: Int) throws {
        // 1000×760 4:2:0 with detail: at .small the crop is a centred 760 px square, decoded at 1/1 (oversampling 2).
        let rgb = zip(TestJPEG.noise(width: 1_000, height: 760), TestJPEG.gradient(width: 1_000, height: 760))
            .map { UInt8(Int($0) / 4 + Int($1) * 3 / 4) }
        let jpeg = TestJPEG.withOrientation(orientation, in: try TestJPEG.jpeg(rgb, width: 1_000, height: 760))
        let thumbnailer = JPEGThumbnailer()
        let streamed = try thumbnailer.pixels(of: jpeg, size: size)
        let expected = try jpeg.withUnsafeBytes { bytes in
            let plan = try thumbnailer.plan(for: bytes, size: size)
            #expect(!plan.usesFirstPass)
            var decoded = [UInt8](repeating: 0, count: plan.decodedWidth * plan.decodedHeight * 4)
            try decoded.withUnsafeMutableBytes {
                try TurboJPEGHandle(.decompressor)
                    .decompressRGBX(bytes, width: plan.decodedWidth, height: plan.decodedHeight, into: $0)
            }
            var output = [UInt8](repeating: 0, count: size.width * size.height * 4)
            decoded.withUnsafeBytes { source in
                output.withUnsafeMutableBytes { destination in
                    Resampler.resample(
                        source: .packed(source, width: plan.decodedWidth, height: plan.decodedHeight),
                        window: plan.window,
                        outputWidth: plan.storedWidth,
                        outputHeight: plan.storedHeight,
                        orientation: plan.structure.orientation,
                        into: destination
                    )
                }
            }
            return output
        }
        #expect(streamed == expected)
    }

    @Test func progressiveJPEGsCostTheirCoefficientsOnlyWhereTurboJPEGDecodesThem() throws {
        let pixels = TestJPEG.gradient(width: 2_000, height: 1_600)
        let baseline = try TestJPEG.jpeg(pixels, width: 2_000, height: 1_600, subsampling: .s444)
        let progressive = try TestJPEG.jpeg(pixels, width: 2_000, height: 1_600, subsampling: .s444, progressive: true)
        let thumbnailer = JPEGThumbnailer()
        // 1100×880 needs more than half the 2000×1600 source: a full-size decode, by TurboJPEG.
        let fullSize = ImageSize(width: 1_100, height: 880)
        #expect(try thumbnailer.memoryCost(of: baseline, size: .small) < 8 << 20)  // 1/2 scale (3 MiB), buffers
        // At 1/4 the first-pass decoder holds 20 bytes per block and the 500×400 decode.
        #expect(try thumbnailer.memoryCost(of: progressive, size: .small) < 8 << 20)
        // 2 bytes per coefficient, 3 full-size components.
        #expect(try thumbnailer.memoryCost(of: progressive, size: fullSize) >= 2_000 * 1_600 * 3 * 2)
        let limited = JPEGThumbnailer(limits: .init(maxDecodeMemory: 8 << 20))
        _ = try limited.thumbnail(of: progressive, size: .small)
        let error = failure { try limited.thumbnail(of: progressive, size: fullSize) }
        #expect(error?.reason == "image too large")
    }

    @Test func decodesAtTheSmallestFastScaleLeavingTwiceTheTarget() throws {
        let source = try TestJPEG.jpeg(TestJPEG.gradient(width: 2_720, height: 2_000), width: 2_720, height: 2_000)
        // Square crop 2000 px; 340 px target: 1/2 leaves 1000 px (≥ 680), 1/4 leaves 500 (≥ 340), 1/8 leaves 250.
        #expect(try JPEGThumbnailer().decodeScaleInEighths(of: source, size: .small) == 4)
        #expect(try JPEGThumbnailer(decodeOversampling: 1).decodeScaleInEighths(of: source, size: .small) == 2)
        #expect(try JPEGThumbnailer(decodeOversampling: 1).decodeScaleInEighths(of: source, size: .avatar) == 1)
    }

    @Test func ditheredRendersDecodeAtTheSmallestEighthCoveringThePanel() throws {
        let source = try TestJPEG.jpeg(TestJPEG.gradient(width: 2_560, height: 1_600), width: 2_560, height: 1_600)
        let panel = ImageSize(width: 800, height: 480)
        // 800/2560 = 0.3125: 3/8 (960×600) covers the panel; the fast scales alone would decode all of it (1/2 does
        // not leave twice the target), and 1/4 (640×400) does not cover it.
        let anyEighth = JPEGThumbnailer(decodeOversampling: 1, decodesAnyEighth: true, resamplingLobes: 2)
        #expect(try anyEighth.decodeScaleInEighths(of: source, size: panel) == 3)
        #expect(try JPEGThumbnailer().decodeScaleInEighths(of: source, size: panel) == 8)
        #expect(try DisplayRenderer(profile: .trmnl).thumbnailer.decodeScaleInEighths(of: source, size: panel) == 3)
        #expect(try DisplayRenderer(profile: .frame).thumbnailer.decodeScaleInEighths(of: source, size: panel) == 8)
        // The picture is the same, within a grey level or two on a smooth gradient.
        let fast = try JPEGThumbnailer().pixels(of: source, size: panel)
        let scaled = try anyEighth.pixels(of: source, size: panel)
        let worst = zip(fast, scaled).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 3, "\(worst) levels apart")
    }

    @Test func progressiveFirstPassLeavesSeventyPercentOfTheTarget() throws {
        let pixels = TestJPEG.gradient(width: 2_560, height: 1_600)
        let progressive = try TestJPEG.jpeg(pixels, width: 2_560, height: 1_600, progressive: true)
        let thumbnailer = JPEGThumbnailer()
        // 720 px of 2560: 1/4 leaves 640 px (0.89× the target, over 0.7×), where 1/2 would be the first to cover it.
        #expect(try thumbnailer.decodeScaleInEighths(of: progressive, size: .medium) == 2)
        #expect(try thumbnailer.coveringScaleInEighths(of: progressive, size: .medium) == 4)
        // 900 px: 1/4 leaves 0.71×; 1000 px: 0.64×, so 1/2.
        #expect(try thumbnailer.decodeScaleInEighths(of: progressive, size: ImageSize(width: 900, height: 300)) == 2)
        #expect(try thumbnailer.decodeScaleInEighths(of: progressive, size: ImageSize(width: 1_000, height: 300)) == 4)
        let thumbnail = try thumbnailer.thumbnail(of: progressive, size: .medium)
        let decoded = try decode(thumbnail)
        #expect(decoded.header.width == 720 && decoded.header.height == 340)
        // The gradient survives the upsampling: the left edge darker than the right in every channel it ramps.
        #expect(decoded.colour(x: 4, y: 170).red < decoded.colour(x: 715, y: 170).red)
    }

    @Test func budgetAdmitsWhatFitsAndRunsOversizedReservationsAlone() async {
        let budget = ImageDecodeBudget(capacity: 100)
        await budget.reserve(60)
        await budget.reserve(40)
        #expect(await budget.reservedBytes == 100)
        await budget.release(60)
        await budget.release(40)
        await budget.reserve(1_000)  // clamped to the capacity
        #expect(await budget.reservedBytes == 100)
        await budget.release(1_000)
        #expect(await budget.reservedBytes == 0)
    }
}

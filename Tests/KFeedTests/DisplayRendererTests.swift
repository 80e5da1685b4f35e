import Foundation
import KFeedBase
import KFeedTestSupport
import Testing

@testable import KFeed
@testable import KFeedImages

struct DisplayRendererTests {
    /// Photo-like sources: synthetic JPEGs made here, and the sample photos under `Fixtures/images/`.
    static let sources: [String] = ["gradient", "quadrants-portrait", "noise", "stage-1.jpg", "stage-4.jpg"]

    /// Each source made once: the synthetic ones take a while in a debug build.
    static let made: [String: Data] = {
        var made: [String: Data] = [:]
        made["gradient"] = try? TestJPEG.jpeg(
            TestJPEG.gradient(width: 1_600, height: 1_000),
            width: 1_600,
            height: 1_000
        )
        made["quadrants-portrait"] = try? TestJPEG.jpeg(
            TestJPEG.quadrants(width: 600, height: 900),
            width: 600,
            height: 900
        )
        made["noise"] = try? TestJPEG.jpeg(TestJPEG.noise(width: 1_600, height: 960), width: 1_600, height: 960)
        return made
    }()

    static func source(_ name: String) throws -> Data {
        if let made = made[name] { return made }
        return try Fixture.data("images/\(name)")
    }

    static let caption = DisplayCaption(
        name: "Kim Jisoo",
        username: "jisoo",
        time: "14:00",
        date: "22 Nov 2026",
        text: "Backstage before the encore #BLACKPINK https://t.co/AbCdEf1234",
        avatarJPEG: try? Fixture.data("images/avatar-1.jpg")
    )

    // MARK: - Checking files with independent decoders

    /// Checks a PNG or BMP render: size, bit depth, and every pixel one of the profile's palette colours.
    static func checkPalette(_ render: DisplayRender, _ profile: DisplayProfile) throws {
        let palette = try #require(DisplayPalette.of(profile.kind))
        let allowed = Set(palette.colours.map { Int($0.x) << 16 | Int($0.y) << 8 | Int($0.z) })
        switch profile.format {
        case .png:
            let png = try DecodedPNG(render.data)
            #expect(png.width == profile.width && png.height == profile.height)
            switch profile.kind {
            case .mono: #expect(png.bitDepth == 1 && png.colourType == 0)
            case .grey4: #expect(png.bitDepth == 2 && png.colourType == 0)
            case .grey16: #expect(png.bitDepth == 4 && png.colourType == 0)
            case .color7, .spectra6:
                #expect(png.bitDepth == 4 && png.colourType == 3)
                #expect(png.palette == palette.colours.map { [$0.x, $0.y, $0.z] })
            case .rgb: Issue.record("rgb is not a palette kind")
            }
            #expect(png.distinctColours.isSubset(of: allowed), "\(png.distinctColours.subtracting(allowed).count) off")
        case .bmp:
            let bmp = try BMPFile(render.data)
            #expect(bmp.width == profile.width && bmp.height == profile.height)
            #expect(Array(bmp.colourTable.prefix(palette.colours.count)) == palette.colours.map { [$0.x, $0.y, $0.z] })
            #expect(bmp.indices.allSatisfy { Int($0) < palette.colours.count })
        case .jpeg: Issue.record("JPEG is not a palette format")
        }
    }

    /// The parts of a BMP3 file a test checks, parsed here.
    struct BMPFile {
        var fileSize: Int
        var pixelOffset: Int
        var width: Int
        var height: Int
        var bitsPerPixel: Int
        var compression: Int
        var colourTable: [[UInt8]]
        /// Top-down, one index per pixel.
        var indices: [UInt8]

        init(_ data: Data) throws {
            let bytes = [UInt8](data)
            func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
            func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
            try #require(bytes.count >= 54 && bytes[0] == 0x42 && bytes[1] == 0x4D)
            fileSize = u32(2)
            pixelOffset = u32(10)
            try #require(u32(14) == 40)  // BITMAPINFOHEADER
            width = u32(18)
            height = u32(22)
            try #require(u16(26) == 1)
            bitsPerPixel = u16(28)
            compression = u32(30)
            let colours = u32(46) == 0 ? 1 << bitsPerPixel : u32(46)
            colourTable = (0..<colours).map { index in
                let at = 54 + index * 4
                return [bytes[at + 2], bytes[at + 1], bytes[at]]
            }
            let rowBytes = (width * bitsPerPixel + 31) / 32 * 4
            try #require(pixelOffset + rowBytes * height <= bytes.count)
            var indices = [UInt8](repeating: 0, count: width * height)
            let perByte = 8 / bitsPerPixel
            for y in 0..<height {
                let row = pixelOffset + (height - 1 - y) * rowBytes  // bottom-up
                for x in 0..<width {
                    let shift = 8 - bitsPerPixel * (x % perByte + 1)
                    indices[y * width + x] = bytes[row + x / perByte] >> shift & UInt8((1 << bitsPerPixel) - 1)
                }
            }
            self.indices = indices
        }
    }

    /// A JPEG's frame, by kfeed's marker walk; nil when it does not parse.
    static func frame(of jpeg: Data) -> JPEGStructure? {
        jpeg.withUnsafeBytes { try? JPEGStructure.parse($0, maxScans: 100) }
    }

    // MARK: - Profiles

    @Test(arguments: DisplayProfile.presets.filter(\.isDithered), sources)
    func palettePresetsAreExactSizeBitDepthAndPalette(profile: DisplayProfile, source: String) throws {
        let render = try DisplayRenderer(profile: profile).render(photo: try Self.source(source), caption: Self.caption)
        let written = try TemporaryDirectory.with { directory in
            let file = directory.appendingPathComponent("render.\(render.fileExtension)")
            try render.data.write(to: file)
            return DisplayRender(data: try Data(contentsOf: file), profile: profile)
        }
        try Self.checkPalette(written, profile)
        if let maxBytes = profile.maxBytes { #expect(render.data.count < maxBytes) }
        // White noise in 16 greys carries 4 bits a pixel, 1.3 MB at 1872×1404: TRMNL X's 750 kB needs the fallback.
        #expect(!render.isDegraded || (profile == .trmnlX && source == "noise"))
    }

    @Test(arguments: sources)
    func trmnlBMPIsExactly48062BytesWithABlackAndWhiteTable(source: String) throws {
        let render = try DisplayRenderer(profile: .trmnlBMP).render(
            photo: try Self.source(source),
            caption: Self.caption
        )
        #expect(render.data.count == 48_062)
        let bmp = try BMPFile(render.data)
        #expect(bmp.fileSize == 48_062 && bmp.pixelOffset == 62)
        #expect(bmp.width == 800 && bmp.height == 480)  // positive height: bottom-up rows
        #expect(bmp.bitsPerPixel == 1 && bmp.compression == 0)
        #expect(bmp.colourTable == [[0, 0, 0], [255, 255, 255]])
        #expect(Set(bmp.indices) == [0, 1])
    }

    @Test(arguments: [DisplayProfile.inkplate, .frame], sources)
    func jpegPresetsAreBaselineAtTheExactSize(profile: DisplayProfile, source: String) throws {
        let render = try DisplayRenderer(profile: profile).render(photo: try Self.source(source), caption: Self.caption)
        let frame = try #require(Self.frame(of: render.data))
        #expect(frame.process == .baseline, "\(frame.process): not baseline")
        #expect(frame.width == profile.width && frame.height == profile.height)
        #expect(frame.components.count == (profile.kind == .rgb ? 3 : 1))
        // TurboJPEG reads it back at that size.
        let pixels = try JPEGThumbnailer().pixels(of: render.data, size: profile.sourceSize)
        #expect(pixels.count == profile.width * profile.height * 4)
    }

    @Test func noisePhotoFitsTheTRMNLCapWithoutDegrading() throws {
        // 800×480 at 1 bit is 48,000 bytes of samples: even incompressible noise (stored deflate blocks, 480 filter
        // bytes, headers) stays near 48.6 kB, far under 90,000. The cap cannot be hit by this profile.
        let render = try DisplayRenderer(profile: .trmnl).render(photo: try Self.source("noise"), caption: nil)
        #expect(render.data.count < 49_000)
        #expect(!render.isDegraded)
    }

    @Test func aRenderIsAlwaysUnderItsCapNeverAtIt() throws {
        // TRMNL's firmware draws a PNG only when it is smaller than its board's limit: a file of exactly the cap is
        // made again, smaller.
        var profile = try DisplayProfile(parsing: "800x480:grey4")
        let photo = try Self.source("gradient")
        let full = try DisplayRenderer(profile: profile).render(photo: photo, caption: nil)
        profile.maxBytes = full.data.count
        let capped = try DisplayRenderer(profile: profile).render(photo: photo, caption: nil)
        #expect(capped.data.count < full.data.count)
        #expect(capped.isDegraded || capped.data != full.data)
    }

    @Test func aByteCapFallsBackToNearestColourDeterministically() throws {
        var profile = try DisplayProfile(parsing: "800x480:mono")
        let photo = try Self.source("gradient")
        let full = try DisplayRenderer(profile: profile).render(photo: photo, caption: nil)
        profile.maxBytes = full.data.count - 1
        let first = try DisplayRenderer(profile: profile).render(photo: photo, caption: nil)
        let second = try DisplayRenderer(profile: profile).render(photo: photo, caption: nil)
        #expect(first.isDegraded)
        #expect(first.data.count < profile.maxBytes ?? 0)
        #expect(first.data == second.data)
        try Self.checkPalette(first, profile)
    }

    @Test func customKindsKeepTheirPalettes() throws {
        for text in ["296x128:grey4:bmp", "600x448:color7:bmp", "640x400:grey16", "400x300:mono:bmp"] {
            let profile = try DisplayProfile(parsing: text)
            let render = try DisplayRenderer(profile: profile).render(
                photo: try Self.source("stage-2.jpg"),
                caption: nil
            )
            try Self.checkPalette(render, profile)
        }
    }

    @Test func rgbPNGIsEightBitColourAtTheExactSize() throws {
        let profile = try DisplayProfile(parsing: "640x360:rgb:png")
        let render = try DisplayRenderer(profile: profile).render(
            photo: try Self.source("stage-3.jpg"),
            caption: Self.caption
        )
        let png = try DecodedPNG(render.data)
        #expect(png.width == 640 && png.height == 360 && png.bitDepth == 8 && png.colourType == 2)
    }

    // MARK: - No caption, placeholders, failures

    @Test func noCaptionLeavesThePictureAlone() throws {
        let profile = try DisplayProfile(parsing: "640x360:rgb:png")
        let photo = try Self.source("stage-5.jpg")
        let bare = try DisplayRenderer(profile: profile).render(photo: photo, caption: nil)
        #expect(bare.caption == nil)
        let expected = try JPEGThumbnailer().pixels(of: photo, size: profile.sourceSize)
        let png = try DecodedPNG(bare.data)
        for index in 0..<(640 * 360) {
            guard png.rgba[index * 4] == expected[index * 4], png.rgba[index * 4 + 1] == expected[index * 4 + 1],
                png.rgba[index * 4 + 2] == expected[index * 4 + 2]
            else {
                Issue.record("pixel \(index) differs from the cover-cropped picture")
                return
            }
        }
        let captioned = try DisplayRenderer(profile: profile).render(photo: photo, caption: Self.caption)
        #expect(captioned.caption != nil)
        #expect(captioned.data != bare.data)
    }

    @Test(arguments: DisplayProfile.presets)
    func placeholderIsACardWithTheReasonInThePalette(profile: DisplayProfile) throws {
        let render = try DisplayRenderer(profile: profile).renderPlaceholder(
            reason: "truncated JPEG",
            caption: Self.caption
        )
        if profile.isDithered {
            try Self.checkPalette(render, profile)
        } else {
            #expect(Self.frame(of: render.data)?.process == .baseline)
        }
        #expect(render.caption?.nameLine == "Kim Jisoo")
    }

    @Test func placeholderReasonIsDrawnInTheMiddle() throws {
        let profile = DisplayProfile.trmnl
        let withReason = try DecodedPNG(
            try DisplayRenderer(profile: profile).renderPlaceholder(reason: "truncated JPEG", caption: nil).data
        )
        let withoutReason = try DecodedPNG(
            try DisplayRenderer(profile: profile).renderPlaceholder(reason: "", caption: nil).data
        )
        func ink(_ png: DecodedPNG, rows: Range<Int>) -> Int {
            var count = 0
            for y in rows { for x in 100..<700 where png.sample(x: x, y: y) == 0 { count += 1 } }
            return count
        }
        let reasonRows = 245..<300
        #expect(ink(withReason, rows: reasonRows) > 200)
        #expect(ink(withoutReason, rows: reasonRows) == 0)
        #expect(ink(withReason, rows: 180..<240) > 200)  // the "No picture" title
    }

    @Test(arguments: ["16x16:mono", "40x16:grey4:bmp", "16x4096:color7", "64x48:rgb"])
    func tinyAndOddPanelsStillRenderWithACaption(text: String) throws {
        let profile = try DisplayProfile(parsing: text)
        let renderer = DisplayRenderer(profile: profile)
        let photo = try renderer.render(photo: try Self.source("stage-6.jpg"), caption: Self.caption)
        let card = try renderer.renderPlaceholder(reason: "image too large", caption: Self.caption)
        if profile.isDithered {
            try Self.checkPalette(photo, profile)
            try Self.checkPalette(card, profile)
        } else {
            #expect(Self.frame(of: photo.data)?.width == profile.width)
            #expect(Self.frame(of: card.data)?.height == profile.height)
        }
    }

    @Test func theBudgetedRenderIsTheSameFileAndReleasesItsReservation() async throws {
        let budget = ImageDecodeBudget()
        let photo = try Self.source("stage-1.jpg")
        let renderer = DisplayRenderer(profile: .grey4)
        let budgeted = try await renderer.render(photo: photo, caption: Self.caption, budget: budget)
        #expect(budgeted.data == (try renderer.render(photo: photo, caption: Self.caption)).data)
        #expect(await budget.reservedBytes == 0)
    }

    @Test func undecodablePictureIsAnAPIResponseErrorWithTheImageFailure() throws {
        let error = #expect(throws: KFeedError.self) {
            try DisplayRenderer(profile: .trmnl).render(photo: try Fixture.data("images/broken.jpg"), caption: nil)
        }
        #expect(error?.code == .apiResponse)
        #expect((error?.underlying as? ImageFailure)?.reason == "not a JPEG")
    }

    // MARK: - Panels: TRMNL X and 2-bit, Spectra 6, Inkplate sizes

    /// The newer panels' presets, each from two real photos (the fixtures are photographs).
    @Test(arguments: [DisplayProfile.trmnlGrey4, .trmnlX, .spectra6, .spectra6Large], ["stage-1.jpg", "stage-4.jpg"])
    func panelPresetsAreExactSizeDepthAndWithinTheirCap(profile: DisplayProfile, source: String) throws {
        let render = try DisplayRenderer(profile: profile).render(photo: try Self.source(source), caption: Self.caption)
        try Self.checkPalette(render, profile)
        let png = try DecodedPNG(render.data)
        #expect(png.width == profile.width && png.height == profile.height)
        if let maxBytes = profile.maxBytes { #expect(render.data.count < maxBytes, "\(render.data.count) bytes") }
        var used = Set<Int>()
        for y in stride(from: 0, to: png.height, by: 3) {
            for x in stride(from: 0, to: png.width, by: 3) { used.insert(png.sample(x: x, y: y)) }
        }
        switch profile.kind {
        case .spectra6:
            #expect(used.isSubset(of: 0...5))
            #expect(used.count >= 4, "a photo uses most inks: \(used.sorted())")
        case .grey16: #expect(used.count >= 12, "a photo uses most of the 16 greys: \(used.sorted())")
        case .grey4: #expect(used == [0, 1, 2, 3])
        default: break
        }
    }

    @Test func trmnlXAndTheTwoBitTRMNLAreTheNamedPanels() throws {
        #expect(DisplayProfile.trmnlX.width == 1_872 && DisplayProfile.trmnlX.height == 1_404)
        #expect(DisplayProfile.trmnlX.kind == .grey16 && DisplayProfile.trmnlX.format == .png)
        #expect(DisplayProfile.trmnlX.maxBytes == 750_000)
        #expect(DisplayProfile.trmnlGrey4.kind == .grey4 && DisplayProfile.trmnlGrey4.maxBytes == 90_000)
        #expect(DisplayPalette.of(.spectra6)?.colours.count == 6)
    }

    @Test func noiseStaysUnderTheTwoBitTRMNLCap() throws {
        // 800×480 at 2 bits is 96,000 bytes of samples: noise can exceed 90,000, and the fallback must bring it under.
        let render = try DisplayRenderer(profile: .trmnlGrey4).render(photo: try Self.source("noise"), caption: nil)
        #expect(render.data.count < 90_000, "\(render.data.count) bytes")
        try Self.checkPalette(render, .trmnlGrey4)
    }

    @Test(arguments: [DisplayProfile.inkplate10, .inkplate6Plus])
    func inkplateSizesAreBaselineGreyJPEGs(profile: DisplayProfile) throws {
        let render = try DisplayRenderer(profile: profile).render(
            photo: try Self.source("stage-4.jpg"),
            caption: Self.caption
        )
        let frame = try #require(Self.frame(of: render.data))
        #expect(frame.process == .baseline)
        #expect(frame.width == profile.width && frame.height == profile.height)
        #expect(frame.components.count == 1)
    }
}

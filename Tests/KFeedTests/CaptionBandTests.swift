import Foundation
import KFeedBase
import KFeedTestSupport
import Testing

@testable import KFeed
@testable import KFeedImages

struct CaptionBandTests {
    static let photo = Result { try Fixture.data("images/stage-2.jpg") }
    static let text =
        "오늘 무대 사진 📸 Backstage before the encore, thank you all for coming tonight! #BLACKPINK https://t.co/AbCdEf1234"

    static func caption(
        name: String = "Kim Jisoo",
        text: String = "",
        style: DisplayCaption.Style = .band
    ) throws -> DisplayCaption {
        DisplayCaption(
            name: name,
            username: "jisoo",
            time: "14:03",
            date: "22 Nov 2026",
            text: text,
            avatarJPEG: try Fixture.data("images/avatar-2.jpg"),
            style: style
        )
    }

    static func render(name: String, profile: DisplayProfile = .trmnl) throws -> (DisplayRender, DecodedPNG) {
        let render = try DisplayRenderer(profile: profile).render(
            photo: try photo.get(),
            caption: try caption(name: name)
        )
        return (render, try DecodedPNG(render.data))
    }

    /// Black pixels of a 1-bit render inside the name line's box.
    static func ink(_ png: DecodedPNG, in report: CaptionBand.Report) -> Int {
        var count = 0
        let box = report.nameBox
        for y in max(box.y, 0)..<min(box.y + box.height, png.height) {
            for x in max(box.x, 0)..<min(box.x + box.width, png.width) where png.sample(x: x, y: y) == 0 { count += 1 }
        }
        return count
    }

    /// A render's pixels as luma, decoded by libspng (PNG), TurboJPEG (JPEG) or read from the BMP's rows, with what
    /// counts as the attribution's ink: dark on a palette panel's white band, light on a full-colour panel's
    /// darkened one.
    struct Pixels {
        var width: Int
        var height: Int
        var luma: [UInt8]
        var inkIsLight: Bool

        init(_ render: DisplayRender, profile: DisplayProfile) throws {
            width = profile.width
            height = profile.height
            inkIsLight = !profile.isDithered
            switch profile.format {
            case .png:
                let png = try DecodedPNG(render.data)
                luma = Self.luma(png.rgba)
            case .jpeg:
                luma = Self.luma(try JPEGThumbnailer().pixels(of: render.data, size: profile.sourceSize))
            case .bmp:
                // 1-bit, bottom-up rows padded to 4 bytes, after the 62-byte headers; index 0 is black.
                let bytes = [UInt8](render.data)
                let rowBytes = (profile.width + 31) / 32 * 4
                luma = (0..<(profile.width * profile.height)).map { index in
                    let (y, x) = index.quotientAndRemainder(dividingBy: profile.width)
                    let byte = bytes[62 + (profile.height - 1 - y) * rowBytes + x / 8]
                    return (byte >> (7 - UInt8(x % 8))) & 1 == 0 ? 0 : 255
                }
            }
        }

        /// The luma of 4-byte pixels (RGBA or RGBX), about Rec. 709's weights.
        static func luma(_ pixels: [UInt8]) -> [UInt8] {
            var luma = [UInt8](repeating: 0, count: pixels.count / 4)
            for index in luma.indices {
                let red = Int(pixels[index * 4])
                let green = Int(pixels[index * 4 + 1])
                let blue = Int(pixels[index * 4 + 2])
                luma[index] = UInt8((red * 2 + green * 5 + blue) / 8)
            }
            return luma
        }

        func isInk(_ x: Int, _ y: Int) -> Bool {
            guard x >= 0, y >= 0, x < width, y < height else { return false }
            let value = luma[y * width + x]
            return inkIsLight ? value > 170 : value < 128
        }

        /// Ink pixels inside a box.
        func ink(in box: CaptionBand.Report.Box) -> Int {
            var count = 0
            for y in box.y..<(box.y + box.height) {
                for x in box.x..<(box.x + box.width) where isInk(x, y) { count += 1 }
            }
            return count
        }

        /// Whether any pixel of the 3×3 around `point` (unit coordinates of `box`) is ink.
        func inkNear(_ point: SIMD2<Float>, in box: CaptionBand.Report.Box) -> Bool {
            let x = box.x + Int(point.x * Float(box.width))
            let y = box.y + Int(point.y * Float(box.height))
            return (-1...1).contains { dy in (-1...1).contains { dx in isInk(x + dx, y + dy) } }
        }
    }

    /// Points of the mark's box the X covers (the ends of both strokes, where they cross), and points it leaves
    /// empty (between the strokes on each side).
    static let markInk: [SIMD2<Float>] = [
        .init(0.18, 0.03), .init(0.82, 0.97), .init(0.88, 0.03), .init(0.12, 0.97), .init(0.5, 0.5),
    ]
    static let markEmpty: [SIMD2<Float>] = [.init(0.6, 0.1), .init(0.12, 0.45), .init(0.88, 0.55), .init(0.4, 0.92)]

    /// Checks the attribution's pixels: the X mark's pattern in its box, ink in the name's and the time's boxes, and
    /// in each line of text.
    static func checkAttribution(_ report: CaptionBand.Report, _ pixels: Pixels, _ label: String) {
        for point in markInk {
            #expect(pixels.inkNear(point, in: report.markBox), "\(label): no mark at \(point) of \(report.markBox)")
        }
        for point in markEmpty {
            #expect(!pixels.inkNear(point, in: report.markBox), "\(label): ink at \(point) of \(report.markBox)")
        }
        #expect(pixels.ink(in: report.nameBox) > 40, "\(label): no name")
        #expect(report.timeBox.width > 0 && pixels.ink(in: report.timeBox) > 30, "\(label): no time")
        for (line, box) in zip(report.textLines, report.textBoxes) {
            #expect(pixels.ink(in: box) > 3 * line.count, "\(label): the text line '\(line)' is not drawn")
        }
    }

    @Test(arguments: DisplayProfile.presets)
    func everyPresetsBandShowsTheMarkNameTimeAndText(profile: DisplayProfile) throws {
        let render = try DisplayRenderer(profile: profile).render(
            photo: try Self.photo.get(),
            caption: try Self.caption(text: Self.text)
        )
        let report = try #require(render.caption)
        #expect(report.style == .band)
        #expect(report.nameLine == "Kim Jisoo")
        #expect(!report.textLines.isEmpty, "\(profile): no text")
        #expect(report.textLines.count <= CaptionBand.textLines(width: profile.width, height: profile.height))
        Self.checkAttribution(report, try Pixels(render, profile: profile), profile.name)
    }

    @Test(arguments: DisplayProfile.presets)
    func everyPresetsSlimLineShowsTheMarkNameAndTime(profile: DisplayProfile) throws {
        let render = try DisplayRenderer(profile: profile).render(
            photo: try Self.photo.get(),
            caption: try Self.caption(text: Self.text, style: .line)
        )
        let report = try #require(render.caption)
        #expect(report.style == .line && report.textLines.isEmpty)
        #expect(report.top > profile.height * 9 / 10)  // slim: most of the picture stays
        Self.checkAttribution(report, try Pixels(render, profile: profile), profile.name)
    }

    @Test(arguments: [DisplayProfile.trmnl, .inkplate10])
    func placeholderCardsCarryTheAttributionToo(profile: DisplayProfile) throws {
        let render = try DisplayRenderer(profile: profile).renderPlaceholder(
            reason: "download failed",
            caption: try Self.caption(text: Self.text)
        )
        let report = try #require(render.caption)
        Self.checkAttribution(report, try Pixels(render, profile: profile), profile.name)
    }

    @Test func aSmallPanelHasNoRoomForTextButKeepsTheRest() throws {
        let profile = try DisplayProfile(parsing: "320x200:mono")
        #expect(CaptionBand.textLines(width: 320, height: 200) == 0)
        let render = try DisplayRenderer(profile: profile).render(
            photo: try Self.photo.get(),
            caption: try Self.caption(text: Self.text)
        )
        let report = try #require(render.caption)
        #expect(report.textLines.isEmpty && !report.isTextComplete)
        Self.checkAttribution(report, try Pixels(render, profile: profile), profile.name)
    }

    @Test func textIsWrappedInItsOrderAndCutWithAnEllipsisOnlyAtTheEnd() throws {
        let long = (1...40).map { "word\($0)" }.joined(separator: " ")
        let render = try DisplayRenderer(profile: .trmnl).render(
            photo: try Self.photo.get(),
            caption: try Self.caption(text: long)
        )
        let report = try #require(render.caption)
        #expect(report.textLines.count == 2 && !report.isTextComplete)
        let last = try #require(report.textLines.last)
        #expect(last.hasSuffix("…"))
        // The characters drawn are the text's own, from its start, in order; only the end is left out.
        let drawn = report.textLines.joined(separator: " ").dropLast()
        #expect(long.hasPrefix(drawn))
        #expect(report.textLines.allSatisfy { !$0.hasPrefix(" ") })
    }

    @Test func aShortTextIsDrawnWholeWithItsLineBreaks() throws {
        let text = "Encore!\n\n#BLACKPINK https://t.co/AbCdEf1234"
        let render = try DisplayRenderer(profile: .trmnl).render(
            photo: try Self.photo.get(),
            caption: try Self.caption(text: text)
        )
        let report = try #require(render.caption)
        #expect(report.textLines == ["Encore!", "#BLACKPINK https://t.co/AbCdEf1234"])
        #expect(report.isTextComplete)
    }

    @Test(arguments: ["김지수의 무대 사진입니다", "ひらがなとカタカナの文章です", "صور من الحفل الليلة", "🎤🎶✨ 💖"])
    func textInAnyScriptIsDrawn(text: String) throws {
        let render = try DisplayRenderer(profile: .trmnl).render(
            photo: try Self.photo.get(),
            caption: try Self.caption(text: text)
        )
        let report = try #require(render.caption)
        #expect(report.textLines == [text] && report.isTextComplete)
        Self.checkAttribution(report, try Pixels(render, profile: .trmnl), text)
    }

    @Test func rightToLeftTextIsAlignedRight() throws {
        let render = try DisplayRenderer(profile: .trmnl).render(
            photo: try Self.photo.get(),
            caption: try Self.caption(text: "صور من الحفل")
        )
        let box = try #require(render.caption?.textBoxes.first)
        #expect(box.x > 400 && box.x + box.width >= 800 - 40)
    }

    @Test func theMarkIsTheSameShapeAtEverySize() {
        // The unit square's pattern holds for the shapes themselves: the ink points inside, the empty ones outside.
        let bar = XMark.bar
        for point in Self.markInk { #expect(XMark.covers(point, bar: bar, hasSlit: true)) }
        for point in Self.markEmpty { #expect(!XMark.covers(point, bar: bar, hasSlit: true)) }
        #expect(!XMark.covers(.init(0.372, 0.3), bar: bar, hasSlit: true))  // the slit
        #expect(XMark.covers(.init(0.372, 0.3), bar: bar, hasSlit: false))
        let svg = XMark.svg(size: 20)
        #expect(svg.hasPrefix("<svg class=\"xmark\" viewBox=\"0 0 1000 1000\" width=\"20\" height=\"20\""))
        #expect(
            svg.contains("fill-rule=\"evenodd\"") && svg.contains("<polygon points=\"860,0 950,0 140,1000 50,1000\"/>")
        )
    }

    @Test(arguments: ["김지수", "عمر الشريف", "ひらがな", "Kim Jisoo"])
    func namesInAnyScriptAreDrawnNotReplaced(name: String) throws {
        let (render, png) = try Self.render(name: name)
        let report = try #require(render.caption)
        #expect(!report.fellBackToUsername)
        #expect(report.nameLine == name)
        #expect(Self.ink(png, in: report) > 60, "no ink where \(name) should be")
    }

    @Test func theNameMatchesTheSameTextDrawnStraightThroughTheFontStack() throws {
        // The band's name pixels equal the name drawn alone on white with the same stack, size and baseline.
        let profile = try DisplayProfile(parsing: "800x480:grey16:png")
        let (render, png) = try Self.render(name: "김지수", profile: profile)
        let report = try #require(render.caption)
        let metrics = CaptionBand.Metrics(width: 800, height: 480)
        let fonts = try FontStack.shared.get()
        let line = try #require(fonts.layout("김지수", pixelSize: metrics.nameSize, bold: true, maxWidth: 500))
        var canvas = RenderCanvas(width: 800, height: 480)
        let baseline = Float(report.top) + Float(metrics.height) * 0.47
        fonts.draw(line, x: Float(report.nameBox.x), baseline: baseline, colour: .init(0, 0, 0), on: &canvas)
        var compared = 0
        let box = report.nameBox
        for y in box.y..<(box.y + box.height) {
            for x in box.x..<(box.x + box.width) {
                let expected = Int((Float(canvas.pixels[(y * 800 + x) * 4]) / 17).rounded())
                #expect(png.sample(x: x, y: y) == expected, "(\(x), \(y))")
                compared += 1
            }
        }
        #expect(compared > 500)
    }

    @Test func aNameNoFontCanDrawFallsBackToTheUsername() throws {
        let (render, png) = try Self.render(name: "𐀀𐀁𐀂")
        let report = try #require(render.caption)
        #expect(report.fellBackToUsername)
        #expect(report.nameLine == "@jisoo")
        #expect(Self.ink(png, in: report) > 60)
    }

    @Test func aLongNameIsEllipsisedBeforeTheTime() throws {
        let name = "Kim Jisoo of BLACKPINK, official account, news, photos, schedules and fan meetings worldwide"
        let (render, _) = try Self.render(name: name)
        let report = try #require(render.caption)
        #expect(report.isEllipsised)
        #expect(report.nameLine.hasSuffix("…"))
        #expect(report.nameLine.hasPrefix("Kim Jisoo"))
        #expect(report.nameBox.x + report.nameBox.width < report.timeBox.x)  // the time keeps its place on the right
    }

    @Test func palettePanelsGetASolidWhiteBandUnderABlackRule() throws {
        let (render, png) = try Self.render(name: "Kim Jisoo")
        let top = try #require(render.caption?.top)
        #expect((0..<800).allSatisfy { png.sample(x: $0, y: top - 1) == 0 })  // the rule
        #expect((0..<800).allSatisfy { png.sample(x: $0, y: top + 2) == 1 })  // the band's margin, undithered
        #expect((0..<800).allSatisfy { png.sample(x: $0, y: 479) == 1 })
    }
}

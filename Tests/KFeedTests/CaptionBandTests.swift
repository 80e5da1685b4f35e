import Foundation
import KFeedBase
import KFeedTestSupport
import Testing

@testable import KFeed
@testable import KFeedImages

struct CaptionBandTests {
    static let photo = Result { try Fixture.data("images/stage-2.jpg") }

    static func render(name: String, profile: DisplayProfile = .trmnl) throws -> (DisplayRender, DecodedPNG) {
        let caption = DisplayCaption(
            name: name,
            username: "jisoo",
            hour: "14:00",
            avatarJPEG: try Fixture.data("images/avatar-2.jpg")
        )
        let render = try DisplayRenderer(profile: profile).render(photo: try photo.get(), caption: caption)
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

    @Test func aLongNameIsEllipsisedBeforeTheHour() throws {
        let name = "Kim Jisoo of BLACKPINK, official account, news, photos, schedules and fan meetings worldwide"
        let (render, _) = try Self.render(name: name)
        let report = try #require(render.caption)
        #expect(report.isEllipsised)
        #expect(report.nameLine.hasSuffix("…"))
        #expect(report.nameLine.hasPrefix("Kim Jisoo"))
        #expect(report.nameBox.x + report.nameBox.width < 800 - 100)  // the hour keeps its place on the right
    }

    @Test func palettePanelsGetASolidWhiteBandUnderABlackRule() throws {
        let (render, png) = try Self.render(name: "Kim Jisoo")
        let top = try #require(render.caption?.top)
        #expect((0..<800).allSatisfy { png.sample(x: $0, y: top - 1) == 0 })  // the rule
        #expect((0..<800).allSatisfy { png.sample(x: $0, y: top + 2) == 1 })  // the band's margin, undithered
        #expect((0..<800).allSatisfy { png.sample(x: $0, y: 479) == 1 })
    }
}

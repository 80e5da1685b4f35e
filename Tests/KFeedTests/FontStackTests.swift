import Foundation
import KFeedBase
import Testing

@testable import KFeed
@testable import KFeedImages

/// The caption font stack (fontconfig + HarfBuzz + FreeType). Needs the fonts `docs/renders.md` lists:
/// fonts-dejavu-core, fonts-wqy-microhei (Hangul, kana) and fonts-noto-color-emoji.
struct FontStackTests {
    static func fonts() throws -> FontStack { try FontStack.shared.get() }

    static func line(_ text: String, maxWidth: Float = 10_000) throws -> TextLine {
        try #require(try fonts().layout(text, pixelSize: 24, bold: true, maxWidth: maxWidth), "no layout for \(text)")
    }

    @Test(arguments: ["김지수", "ひらがな カタカナ", "عمر الشريف", "Zoë Ångström", "Jisoo 🌸"])
    func namesInEveryScriptShapeToRealGlyphs(text: String) throws {
        let line = try Self.line(text)
        #expect(!line.glyphs.isEmpty)
        #expect(line.glyphs.allSatisfy { $0.glyph != 0 }, ".notdef in \(text)")
        #expect(line.width > 0 && !line.isEllipsised)
    }

    @Test func hangulComesFromAFontThatCoversIt() throws {
        let line = try Self.line("김지수")
        #expect(line.glyphs.count == 3)
        let path = try #require(try Self.fonts().fontPath(of: line))
        #expect(!path.contains("DejaVu"), "\(path)")  // DejaVu has no Hangul: fontconfig's fallback must
    }

    @Test func arabicLettersJoin() throws {
        // Isolated letters shaped one by one versus the word: joining picks other (initial, medial, final) forms.
        let word = try Self.line("عمر")
        let isolated = try ["ع", "م", "ر"].map { try Self.line($0).glyphs[0].glyph }
        #expect(word.glyphs.count == 3)
        #expect(Set(word.glyphs.map(\.glyph)).isDisjoint(with: isolated))
    }

    @Test func rightToLeftNamesStartFromTheRight() throws {
        // "عمر abc": the paragraph is right to left, so the Latin run ends up on the left; "abc عمر" keeps it first.
        let latinA = try Self.line("a").glyphs[0].glyph
        let rightToLeft = try Self.line("عمر abc")
        let leftToRight = try Self.line("abc عمر")
        #expect(rightToLeft.glyphs.first?.glyph == latinA)
        #expect(leftToRight.glyphs.first?.glyph == latinA)
        // Within the Arabic run the glyphs are in visual order: the word's last letter (final ر) comes first.
        let word = try Self.line("عمر")
        #expect(Array(rightToLeft.glyphs.suffix(3)).map(\.glyph) == word.glyphs.map(\.glyph))
        #expect(rightToLeft.glyphs.map(\.x) == rightToLeft.glyphs.map(\.x).sorted())
    }

    @Test func textNoFontCoversHasNoLayout() throws {
        // Linear B: no font of the test machine covers it.
        #expect(try Self.fonts().layout("𐀀𐀁𐀂", pixelSize: 24, bold: true, maxWidth: 1_000) == nil)
        #expect(try Self.fonts().layout("Jisoo 𐀀", pixelSize: 24, bold: true, maxWidth: 1_000) == nil)
    }

    @Test func longTextIsEllipsisedToFit() throws {
        let line = try Self.line("A display name far too long for one line of any caption band", maxWidth: 200)
        #expect(line.isEllipsised)
        #expect(line.text.hasSuffix("…"))
        #expect(line.width <= 200)
        #expect(line.text.hasPrefix("A display"))
    }

    @Test func glyphsDrawInkAndColourEmojiKeepTheirColours() throws {
        let fonts = try Self.fonts()
        var canvas = RenderCanvas(width: 200, height: 40)
        let text = try Self.line("김 🌸")
        fonts.draw(text, x: 4, baseline: 30, colour: .init(0, 0, 0), on: &canvas)
        var dark = 0
        var coloured = 0
        for index in 0..<(200 * 40) {
            let red = Int(canvas.pixels[index * 4])
            let green = Int(canvas.pixels[index * 4 + 1])
            let blue = Int(canvas.pixels[index * 4 + 2])
            if red < 80 && green < 80 && blue < 80 { dark += 1 }
            if max(red, green, blue) - min(red, green, blue) > 60 { coloured += 1 }
        }
        #expect(dark > 40)  // the Hangul syllable, in black
        #expect(coloured > 40)  // the blossom, in its own pink
        #expect(canvas.crisp.contains(1))  // text is marked crisp for the ditherer
    }
}

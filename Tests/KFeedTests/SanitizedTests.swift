import Testing

@testable import KFeed
@testable import KFeedBase
@testable import KFeedImages

struct SanitizedTests {
    @Test(arguments: [
        ("plain text", "plain text"),
        ("line1\nline2", "line1 line2"),
        ("a\r\n\r\nb", "a b"),
        ("tabs\t\tand   spaces", "tabs and spaces"),
        ("  leading and trailing \n", "leading and trailing"),
        ("nul\u{0}byte", "nul byte"),
        ("bell\u{7}escape\u{1B}[31mred", "bell escape [31mred"),
        ("del\u{7F}x", "del x"),
        ("c1\u{85}next", "c1 next"),
        ("no\u{A0}break", "no break"),
        ("\u{202E}evil\u{202C}", "evil"),
        ("abc\u{2066}isolate\u{2069}def", "abc isolate def"),
        ("mark\u{200F}rtl\u{200E}", "mark rtl"),
        ("\n\t \u{0}", ""),
    ])
    func controlBidiAndWhiteSpaceFoldToSingleSpaces(text: String, expected: String) {
        #expect(Sanitized.excerpt(text) == expected)
    }

    @Test
    func arabicLetterMarkIsStripped() {
        #expect(Sanitized.excerpt("a\u{061C}b") == "a b")
        #expect("\u{061C}".unicodeScalars.allSatisfy { $0.properties.isBidiControl })
    }

    @Test func nonLatinTextIsKept() {
        #expect(Sanitized.excerpt("오늘 무대 💜 مرحبا") == "오늘 무대 💜 مرحبا")
    }

    @Test func emojiZWJSequencesAndFlagsAreKept() {
        let family = "👨‍👩‍👧"
        #expect(Sanitized.excerpt("\(family) family 🇰🇷 🏳️‍🌈") == "\(family) family 🇰🇷 🏳️‍🌈")
        #expect(Sanitized.excerpt(family).unicodeScalars.count == 5)
    }

    @Test func longTextIsCutToTheLimitWithAnEllipsis() {
        let text = String(repeating: "a", count: 200)
        let excerpt = Sanitized.excerpt(text)
        #expect(excerpt.count == 120)
        #expect(excerpt == String(repeating: "a", count: 119) + "…")
        #expect(Sanitized.excerpt(text, limit: 10) == "aaaaaaaaa…")
    }

    @Test func textAtTheLimitIsNotCut() {
        let text = String(repeating: "b", count: 120)
        #expect(Sanitized.excerpt(text) == text)
    }

    @Test func cuttingNeverSplitsAGraphemeCluster() {
        let family = "👨‍👩‍👧"
        let excerpt = Sanitized.excerpt(String(repeating: family, count: 30), limit: 10)
        #expect(excerpt == String(repeating: family, count: 9) + "…")
        #expect(excerpt.count == 10)
    }

    @Test func limitCountsAfterFolding() {
        let text = String(repeating: "x \n\t ", count: 50)
        let excerpt = Sanitized.excerpt(text, limit: 120)
        #expect(excerpt.count == 99)
        #expect(!excerpt.contains("  "))
    }
}

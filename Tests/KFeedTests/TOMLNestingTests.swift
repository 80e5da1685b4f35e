import Foundation
import KFeedBase
import KFeedConfig
import Testing

/// Deep keys, headers and values are refused before toml++ reads them (it recurses once per level): one error
/// naming the file and line, not a crash.
struct TOMLNestingTests {
    private static let url = URL(fileURLWithPath: "/etc/kfeed/kfeed.toml")
    private static let now = Date(timeIntervalSince1970: 1_795_338_000)
    private static let feed = "[feeds.kpop]\nquery = \"cats\"\n"

    static func parts(_ count: Int) -> String { Array(repeating: "a", count: count).joined(separator: ".") }

    @Test func theFeedsFilesOwnShapesPass() {
        let text = """
            # comment with [[[ and {{{ and a.b.c.d
            [budget]
            posts_per_day = 60
            usd_per_post = 0.005

            [feeds.kpop]
            contexts = ["55.888105153038958593", 'x.y.z']
            query = \"\"\"
            [[[[ not a header ]]]] "quoted" {{{{
            \"\"\"
            profiles = [
              "trmnl",
            ]

            [serve.trmnl]
            "AA:BB:CC:DD:EE:FF" = "kpop"
            when = 1979-05-27T07:32:00.999Z
            """
        #expect(TOMLNesting.firstExcess(in: text) == nil)
    }

    @Test(arguments: [64, 65, 150_000])
    func aDottedKeyHasAtMost64Parts(count: Int) {
        let text = Self.feed + "\n" + Self.parts(count) + " = 1\n"
        let found = TOMLNesting.firstExcess(in: text)
        if count <= TOMLNesting.maxKeyParts {
            #expect(found == nil)
        } else {
            #expect(found?.line == 4)
            #expect(found?.excess == .keyParts(count))
        }
    }

    @Test func quotedPartsAndSpacesAroundDotsCount() {
        let key = Array(repeating: "\"a\" . 'b'", count: 40).joined(separator: ".")
        let found = TOMLNesting.firstExcess(in: "\(key) = 1\n")
        #expect(found?.line == 1)
        #expect(found?.excess == .keyParts(80))
    }

    @Test(arguments: ["[", "[["])
    func aTableHeaderHasAtMost64Parts(opening: String) {
        let closing = opening == "[" ? "]" : "]]"
        let text = Self.feed + "\(opening)\(Self.parts(150_000))\(closing)\n"
        let found = TOMLNesting.firstExcess(in: text)
        #expect(found?.line == 3)
        #expect(found?.excess == .keyParts(150_000))
    }

    @Test(arguments: [("[", "]"), ("{a=", "}")])
    func valuesNestAtMost32Deep(open: String, close: String) {
        for depth in [32, 33, 100_000] {
            let value = String(repeating: open, count: depth) + "1" + String(repeating: close, count: depth)
            let found = TOMLNesting.firstExcess(in: Self.feed + "x = \(value)\n")
            if depth <= TOMLNesting.maxValueNesting {
                #expect(found == nil, "\(depth)")
            } else {
                #expect(found?.line == 3, "\(depth)")
                #expect(found.map { $0.excess == .valueNesting || $0.excess == .depth } == true, "\(depth)")
            }
        }
    }

    @Test func anArraySpanningLinesIsFollowed() {
        let text = "x = [\n" + String(repeating: "[\n", count: 40) + String(repeating: "]\n", count: 41)
        let found = TOMLNesting.firstExcess(in: text)
        #expect(found?.line == 33)
        #expect(found?.excess == .valueNesting)
    }

    @Test func headerKeyAndInlineTablesAddUp() {
        // 60 (the header) + 61 (the key and its table) + 6 + 5: each key under 64 parts, the whole past 128.
        let inner = "{ \(Self.parts(5)) = { \(Self.parts(5)) = 1 } }"
        let text = "[\(Self.parts(60))]\n\(Self.parts(60)) = \(inner)\n"
        let found = TOMLNesting.firstExcess(in: text)
        #expect(found?.line == 2)
        #expect(found?.excess == .depth)
    }

    @Test func bracketsInStringsAndCommentsDoNotCount() {
        let brackets = String(repeating: "[{", count: 100)
        let text = """
            a = "\(brackets) \\" \(brackets)"
            b = '\(brackets)'
            c = '''
            \(brackets)
            '''
            # \(brackets) \(Self.parts(100))
            d = "\(Self.parts(100))"
            """
        #expect(TOMLNesting.firstExcess(in: text) == nil)
    }

    @Test(arguments: [
        (
            "\n" + TOMLNestingTests.parts(150_000) + " = 1\n",
            ":4: a key of 150000 parts is deeper than kfeed reads (at most 64)"
        ),
        (
            "[" + TOMLNestingTests.parts(150_000) + "]\n",
            ":3: a key of 150000 parts is deeper than kfeed reads (at most 64)"
        ),
        ("x = " + String(repeating: "[", count: 150_000) + "\n", ":3: arrays and inline tables nested more than 32"),
        ("x = " + String(repeating: "{a=", count: 150_000) + "\n", ":3: arrays and inline tables nested more than 32"),
    ])
    func theFeedsFileRefusesItWithTheFileAndLine(tail: String, message: String) {
        let error = #expect(throws: KFeedError.self) {
            try FeedsFile.parse(Self.feed + tail, url: Self.url, now: Self.now)
        }
        #expect(error?.code == .configuration)
        #expect(error?.message.hasPrefix(Self.url.path + message) == true, "\(String(describing: error))")
        #expect(error?.message.contains("\n") == false)
    }
}

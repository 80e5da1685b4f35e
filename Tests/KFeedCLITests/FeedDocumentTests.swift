import Foundation
import KFeed
import KFeedBase
import KFeedHTTP
import KFeedTestSupport
import Testing

/// `/feed.json`, `/feed.xml` and `kfeed feed`, through the built binary, read back by real feed parsers (Debian's
/// feedparser for RSS, jsonfeed-util for JSON Feed: `Fixtures/tools/read-feed.py`), every item's fields compared
/// with the timeline's entries; posts whose text and alt text are hostile to XML (`]]>`, markup, control characters,
/// right-to-left overrides, emoji, line breaks).
@Suite(.timeLimit(.minutes(4)))
struct FeedDocumentTests {
    private static let refreshed = Date(timeIntervalSince1970: 1_795_338_000)  // 2026-11-22T09:00:00Z
    /// Three entries' hours have begun (09:00, 10:00, 11:00).
    private static let serving = Date(timeIntervalSince1970: 1_795_338_000 + 2 * 3_600 + 1_200)
    private static let token = "AAAAfeedDocumentToken0123456789abcd"

    /// Texts no feed may alter or break on.
    static let hostile = [
        "]]> <script>alert(\"x\")</script> & &amp; 'single' <![CDATA[ x ]]>",
        "bell\u{07} nul-free \u{01}\u{1F} controls\r\nand CRLF\nand LF\tand tab",
        "שלום \u{202E}abc\u{202C} مرحبا RTL",
        "emoji 🐱‍👤 👩🏽‍🚀 🇰🇷 \u{FE0F} astral 𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
    ]

    /// The kpop search with hostile text in its first posts and their alt texts.
    private static func hostileSearch() throws -> Data {
        var json = try #require(
            try JSONSerialization.jsonObject(with: try Fixture.data("recent-search.kpop.json")) as? [String: Any]
        )
        var posts = try #require(json["data"] as? [[String: Any]])
        var includes = try #require(json["includes"] as? [String: Any])
        var media = try #require(includes["media"] as? [[String: Any]])
        // The posts the timeline uses (a photo, not flagged sensitive).
        for (index, text) in zip([0, 2, 6, 7], hostile) {
            posts[index]["text"] = text
            let keys = (posts[index]["attachments"] as? [String: Any])?["media_keys"] as? [String] ?? []
            for position in media.indices where keys.contains(media[position]["media_key"] as? String ?? "") {
                media[position]["alt_text"] = "alt: " + text
            }
        }
        includes["media"] = media
        json["data"] = posts
        json["includes"] = includes
        return try JSONSerialization.data(withJSONObject: json, options: .withoutEscapingSlashes)
    }

    /// A cache refreshed at 09:00Z from the hostile search on a loopback X.
    private static func withCache(_ body: (_ directory: URL, _ cache: URL) async throws -> Void) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = directory.url.appendingPathComponent("cache")
        let photo = try TestJPEG.jpeg(TestJPEG.gradient(width: 800, height: 600), width: 800, height: 600)
        try await LoopbackServer.withServer(LoopbackServer.searching(try hostileSearch(), pictures: photo)) { server in
            let result = try await KFeedProcess.run(
                [
                    "refresh", "--api-base", server.baseURL.absoluteString, "--cache", cache.path, "--now",
                    InstantFormat.string(from: refreshed), "--no-repeat-days", "0",
                ],
                environment: ["X_BEARER_TOKEN": token, "NO_PROXY": "*"]
            )
            #expect(result.status == 0, "\(result.stderr)")
        }
        try await body(directory.url, cache)
    }

    /// What the parser read from `data` (`kind`: rss or json).
    static func parse(_ data: Data, as kind: String, in directory: URL) async throws -> [String: Any] {
        let file = directory.appendingPathComponent("feed.\(kind)")
        try data.write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Fixture.directory.appendingPathComponent("tools/read-feed.py").path, kind, file.path]
        process.environment = ["PYTHONPATH": "/usr/local/lib/kfeed-python", "PATH": "/usr/bin:/bin"]
        let result = try await KFeedProcess.outcome(of: process)
        #expect(result.status == 0, "\(kind): \(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    /// The text as an XML document can carry it: the characters XML 1.0 forbids as U+FFFD.
    static func xmlSafe(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { XMLForbidden.contains($0) ? "\u{FFFD}" : $0 }))
    }

    private enum XMLForbidden {
        static func contains(_ scalar: Unicode.Scalar) -> Bool {
            scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r"
        }
    }

    /// Every item against the timeline's entries up to `now`, newest first: `base` the feed's absolute URL.
    static func check(
        _ parsed: [String: Any],
        kind: String,
        manifest: Manifest,
        now: Date,
        base: String,
        cache: URL
    ) throws {
        let expected = manifest.entries.filter { $0.date <= now }.sorted { $0.date > $1.date }
        let items = try #require(parsed["items"] as? [[String: Any]])
        #expect(items.count == expected.count, "\(kind): \(items.count) items")
        #expect(!expected.isEmpty)
        #expect(
            expected.contains { !$0.placeholder },
            "no picture to check: \(expected.map { ($0.tweetID, $0.placeholderReason) })"
        )
        if kind == "rss" { #expect(parsed["version"] as? String == "rss20") }
        if kind == "json" { #expect(parsed["version"] as? String == "https://jsonfeed.org/version/1.1") }
        for (item, entry) in zip(items, expected) {
            // feedparser folds a CR LF in RSS text to LF, as XML's line-end handling would (the document carries the
            // CR as a reference: FeedDocumentXMLTests reads it back with libxml2).
            let text = kind == "rss" ? xmlSafe(entry.text).replacingOccurrences(of: "\r\n", with: "\n") : entry.text
            #expect(
                item["text"] as? String == text,
                "\(kind) text of \(entry.tweetID): \(String(describing: (item["text"] as? String)?.unicodeScalars.map(\.value))) vs \(text.unicodeScalars.map(\.value))"
            )
            #expect(item["link"] as? String == entry.url.absoluteString)
            #expect(item["id"] as? String == "\(entry.url.absoluteString)#\(Int(entry.date.timeIntervalSince1970))")
            #expect(item["published"] as? Int == Int(entry.date.timeIntervalSince1970), "\(kind) \(item)")
            let byline = "\(entry.author.name) (@\(entry.author.username))"
            #expect(item["author"] as? String == (kind == "rss" ? xmlSafe(byline) : byline))
            #expect(item["author_url"] as? String == "https://x.com/\(entry.author.username)")
            guard !entry.placeholder, let image = entry.image else {
                #expect(item["image"] as? String == nil, "a placeholder is no picture")
                continue
            }
            let url = try #require(item["image"] as? String, "\(kind) \(item)")
            #expect(url.hasPrefix(base + image), "\(url)")
            #expect(item["enclosure"] as? String == url)
            let size = try #require(
                (try FileManager.default.attributesOfItem(atPath: cache.appendingPathComponent(image).path))[.size]
                    as? Int
            )
            #expect(item["enclosure_length"] as? Int == size)
            let alt = entry.media.altText
            #expect(item["alt"] as? String == (kind == "rss" ? alt.map(xmlSafe) : alt), "\(kind) alt")
            if kind == "rss" {
                #expect(item["thumbnail"] as? String == url)
                #expect(item["credit"] as? String == "@\(entry.author.username)")
                #expect(item["width"] as? String == String(manifest.size.width))
            } else {
                #expect(item["username"] as? String == entry.author.username)
                let avatar = try #require(entry.author.avatar)
                #expect((item["avatar"] as? String)?.hasPrefix(base + avatar) == true)
            }
        }
    }

    private static func get(_ url: String, headers: [HTTPHeader] = []) async throws -> KFeedHTTP.HTTPResponse {
        try await CurlTransport().send(HTTPRequest(url: try #require(URL(string: url)), headers: headers))
    }

    @Test func theServedFeedsParseAndCarryEveryItemWithETags() async throws {
        try await Self.withCache { directory, cache in
            let manifest = try #require(try CacheStore(directory: cache).manifest())
            // X's text comes HTML-escaped (`&amp;`): the manifest holds it unescaped, and the feeds the manifest's.
            #expect(manifest.entries.count == Self.hostile.count)
            #expect(manifest.entries.contains { $0.text.hasPrefix("]]> <script>") }, "\(manifest.entries.map(\.text))")
            #expect(manifest.entries.contains { $0.text.contains("\u{202E}") })
            let server = try await RunningServer.start([
                "--cache", cache.path, "--now", InstantFormat.string(from: Self.serving), "--listen", "127.0.0.1:0",
            ])
            defer { Task { _ = await server.stop() } }
            for (path, kind, type) in [
                ("feed.xml", "rss", "application/rss+xml; charset=utf-8"),
                ("feed.json", "json", "application/feed+json; charset=utf-8"),
            ] {
                let response = try await Self.get("\(server.base)/\(path)")
                #expect(response.status == 200)
                #expect(response[header: "content-type"] == type)
                let parsed = try await Self.parse(response.body, as: kind, in: directory)
                try Self.check(
                    parsed,
                    kind: kind,
                    manifest: manifest,
                    now: Self.serving,
                    base: "\(server.base)/",
                    cache: cache
                )
                // The hostile texts' items are there, their hours begun or not: those up to now only.
                let etag = try #require(response[header: "etag"])
                let again = try await Self.get("\(server.base)/\(path)", headers: [HTTPHeader("If-None-Match", etag)])
                #expect(again.status == 304)
                #expect(again.body.isEmpty)
                #expect(response[header: "expires"] != nil, "fresh until the entry ends")
            }
        }
    }

    @Test func kfeedFeedWritesBothFormatsForStaticHosting() async throws {
        try await Self.withCache { directory, cache in
            let manifest = try #require(try CacheStore(directory: cache).manifest())
            let base = "https://pictures.example.org/kfeed/"
            for kind in ["rss", "json"] {
                let file = directory.appendingPathComponent("out.\(kind)")
                let result = try await KFeedProcess.run([
                    "feed", "--format", kind, "--cache", cache.path, "--base-url", base, "-o", file.path,
                    "--now", InstantFormat.string(from: Self.serving),
                ])
                #expect(result.status == 0, "\(result.stderr)")
                let parsed = try await Self.parse(try Data(contentsOf: file), as: kind, in: directory)
                try Self.check(parsed, kind: kind, manifest: manifest, now: Self.serving, base: base, cache: cache)
                // On stdout without -o, the same bytes.
                let printed = try await KFeedProcess.run([
                    "feed", "--format", kind, "--cache", cache.path, "--base-url", base,
                    "--now", InstantFormat.string(from: Self.serving),
                ])
                #expect(Data(printed.stdout.utf8) == (try Data(contentsOf: file)))
            }
            // Before any entry's hour: a feed with no item, still valid.
            let early = try await KFeedProcess.run([
                "feed", "--format", "rss", "--cache", cache.path, "--base-url", base,
                "--now", InstantFormat.string(from: Self.refreshed.addingTimeInterval(-60)),
            ])
            let none = try await Self.parse(Data(early.stdout.utf8), as: "rss", in: directory)
            #expect((none["items"] as? [Any])?.isEmpty == true)
            // Bad usage: one line, exit 64.
            for arguments in [
                ["feed", "--format", "rss", "--cache", cache.path],
                ["feed", "--format", "atom", "--cache", cache.path, "--base-url", base],
                ["feed", "--format", "rss", "--cache", cache.path, "--base-url", "ftp://x/"],
            ] {
                let result = try await KFeedProcess.run(arguments)
                #expect(result.status == 64, "\(arguments): \(result.stderr)")
                #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            }
            // No timeline: exit 69.
            let empty = try await KFeedProcess.run([
                "feed", "--format", "json", "--cache", directory.appendingPathComponent("none").path, "--base-url",
                base,
            ])
            #expect(empty.status == 69, "\(empty.stderr)")
        }
    }
}

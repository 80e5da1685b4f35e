import Foundation
import KFeedTestSupport
import Testing

@testable import KFeed
@testable import KFeedBase
@testable import KFeedImages
@testable import KFeedX

struct PreviewPageTests {
    /// 2026-11-22 09:00:00 UTC.
    private static let now = Date(timeIntervalSince1970: 1_795_338_000)
    private static let utc = TimeZone(identifier: "UTC")!

    /// Six hourly entries from the recorded K-pop search, with images, avatars and one placeholder (entry 1).
    private static func manifest(size: ImageSize = .small) throws -> Manifest {
        var results = SearchResults()
        try results.append(responseBody: try Fixture.data("recent-search.kpop.json"))
        let builder = TimelineBuilder(usesVideoPreviews: true)
        var manifest = builder.manifest(
            for: builder.selection(from: results.feedItems, isExhausted: true),
            query: .default,
            size: size,
            now: now
        )
        for index in manifest.entries.indices {
            manifest.entries[index].image = "images/3_18591700000001001\(index)-\(size).jpg"
            manifest.entries[index].author.avatar = "avatars/150000000000000000\(index)-96x96.jpg"
            manifest.entries[index].url = try #require(URL(string: "https://x.com/user\(index)/status/1859\(index)"))
        }
        manifest.entries[1].image = "placeholder-\(size).jpg"
        manifest.entries[1].placeholder = true
        manifest.entries[1].placeholderReason = "image too large"
        return manifest
    }

    private static func html(_ manifest: Manifest, now: Date = Self.now, timeZone: TimeZone = Self.utc) -> String {
        PreviewPage(manifest: manifest, now: now, timeZone: timeZone).html
    }

    /// The markup of each card, in order.
    private static func cards(_ html: String) -> [String] {
        let parts = html.components(separatedBy: "<li class=\"card")
        return parts.dropFirst().map { part in
            String(part[..<(part.range(of: "</li>")?.lowerBound ?? part.endIndex)])
        }
    }

    /// Every start tag in the page (escaped text holds no `<`, so these are the real elements).
    private static func tags(_ html: String) -> [String] {
        let pattern = /<[^>]*>/
        return html.matches(of: pattern).map { String($0.output) }
    }

    /// The value of every `attribute="…"` in the page.
    private static func attributeValues(_ name: String, in html: String) -> [String] {
        html.components(separatedBy: " \(name)=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    // MARK: - Cards

    @Test func everyEntryIsACardInManifestOrder() throws {
        let manifest = try Self.manifest()
        let cards = Self.cards(Self.html(manifest))
        #expect(cards.count == manifest.entries.count)
        for (index, card) in cards.enumerated() {
            #expect(card.contains("data-entry=\"\(index)\""))
            #expect(card.contains("https://x.com/user\(index)/status/1859\(index)"))
            #expect(card.contains("@\(HTMLEscaping.escape(manifest.entries[index].author.username))"))
            #expect(card.contains(HTMLEscaping.escape(Sanitized.excerpt(manifest.entries[index].author.name))))
        }
    }

    @Test func theEntryCoveringNowIsCurrentAndEndedOnesArePast() throws {
        let manifest = try Self.manifest()
        let now = Self.now.addingTimeInterval(2 * 3_600 + 1_800)  // 11:30Z, inside entry 2
        let cards = Self.cards(Self.html(manifest, now: now))
        #expect(cards.map { $0.contains("is-current") } == [false, false, true, false, false, false])
        #expect(cards.map { $0.contains("is-past") } == [true, true, false, false, false, false])
        #expect(cards.map { $0.contains("is-upcoming") } == [false, false, false, true, true, true])
        #expect(cards[2].contains("<span class=\"state\">Now</span>"))
        #expect(cards[0].contains("<span class=\"state\">Past</span>"))
        #expect(cards[3].contains("<span class=\"state\">in 30 min</span>"))
    }

    @Test(arguments: [-60.0, 6 * 3_600.0])
    func beforeOrAfterTheTimelineNothingIsCurrent(offset: TimeInterval) throws {
        let manifest = try Self.manifest()
        let cards = Self.cards(Self.html(manifest, now: Self.now.addingTimeInterval(offset)))
        #expect(!cards.contains { $0.contains("is-current") })
        #expect(cards.allSatisfy { $0.contains(offset < 0 ? "is-upcoming" : "is-past") })
    }

    @Test func placeholdersSayWhyInTextAndAlt() throws {
        let cards = Self.cards(Self.html(try Self.manifest()))
        #expect(cards[1].contains("is-placeholder"))
        #expect(cards[1].contains("<strong>Placeholder</strong><span class=\"reason\">image too large</span>"))
        #expect(cards[1].contains("src=\"placeholder-340x340.jpg\""))
        #expect(cards[1].contains("alt=\"Placeholder for a post by @"))
        #expect(cards[1].contains("(image too large)\""))
        #expect(!cards[0].contains("is-placeholder"))
    }

    @Test func imagesCarryAltTextOrADescriptiveFallback() throws {
        var manifest = try Self.manifest()
        manifest.entries[0].media.altText = "Singer on stage under purple lights"
        manifest.entries[2].media.altText = nil
        manifest.entries[2].author.username = "seoul_lens"
        manifest.entries[3].media.altText = "  "
        manifest.entries[3].media.type = "video"
        manifest.entries[3].author.username = "mv_stills"
        let cards = Self.cards(Self.html(manifest))
        #expect(cards[0].contains("alt=\"Singer on stage under purple lights\""))
        #expect(cards[2].contains("alt=\"Photo by @seoul_lens\""))
        #expect(cards[3].contains("alt=\"Video still by @mv_stills\""))
    }

    // MARK: - Safety

    @Test func escapingCoversTheFiveCharacters() {
        #expect(
            HTMLEscaping.escape(#"Tom & Jerry <b>"it's"</b>"#)
                == "Tom &amp; Jerry &lt;b&gt;&quot;it&#39;s&quot;&lt;/b&gt;"
        )
        #expect(HTMLEscaping.escape("무대 🎤") == "무대 🎤")
    }

    @Test(arguments: [
        "<script>alert(1)</script>", #""><img src=x onerror=alert(1)>"#, "' onmouseover='alert(1)", "Tom & Jerry",
    ])
    func postTextNamesAndAltTextAreEscaped(payload: String) throws {
        var manifest = try Self.manifest()
        manifest.entries[0].text = payload
        manifest.entries[0].author.name = payload
        manifest.entries[0].author.username = payload
        manifest.entries[0].media.altText = payload
        manifest.query = payload
        let html = Self.html(manifest)
        let escaped = HTMLEscaping.escape(payload)
        #expect(!html.contains(payload))
        let card = try #require(Self.cards(html).first)
        #expect(card.contains("<p class=\"text\" dir=\"auto\">\(escaped)</p>"))
        #expect(card.contains("<span class=\"name\">\(escaped)</span>"))
        #expect(card.contains("<span class=\"username\">@\(escaped)</span>"))
        #expect(card.contains("alt=\"\(escaped)\""))
        #expect(html.contains("<code>\(escaped)</code>"))
        let tags = Self.tags(html)
        #expect(!tags.contains { $0.lowercased().hasPrefix("<script") })
        #expect(!tags.contains { $0.lowercased().contains("<img src=x") })
    }

    @Test func thePageHasNoScriptsNoEventHandlersAndAPolicyForbiddingThem() throws {
        var manifest = try Self.manifest()
        manifest.entries[0].text = #""><img src=x onerror=alert(1)><script>alert(1)</script>"#
        let html = Self.html(manifest)
        #expect(!html.lowercased().contains("<script"))
        let handler = /\son[a-z]+\s*=/
        #expect(Self.tags(html).allSatisfy { $0.lowercased().firstMatch(of: handler) == nil })
        #expect(!html.contains("javascript:"))
        #expect(
            html.contains(
                #"<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">"#
            )
        )
        // Nothing loads from elsewhere: no URL but the x.com post links appears in the page.
        #expect(Self.attributeValues("src", in: html).allSatisfy { !$0.contains(":") })
        #expect(!html.contains("@import") && !html.contains("url("))
        #expect(!html.contains("<link"))
    }

    @Test(arguments: [
        ("https://x.com/someone/status/1859170000000000001", true),
        ("https://X.com/someone/status/1", true),
        ("http://x.com/someone/status/1", false),
        ("https://x.com.evil.example/someone/status/1", false),
        ("https://evil.example/x.com/status/1", false),
        ("https://user@x.com/someone/status/1", false),
        ("https://x.com:8443/someone/status/1", false),
        ("javascript:alert(1)", false),
        ("data:text/html,<script>alert(1)</script>", false),
    ])
    func onlyXComURLsBecomeLinks(url: String, isLink: Bool) throws {
        var manifest = try Self.manifest()
        manifest.entries[0].url = try #require(URL(string: url))
        let card = try #require(Self.cards(Self.html(manifest)).first)
        #expect(card.contains("<a class=\"link\" href=\"\(HTMLEscaping.escape(url))\"") == isLink)
        #expect(card.contains("<span class=\"link nolink\">Not an x.com link</span>") == !isLink)
        #expect(!card.contains("href=\"javascript") && !card.contains("href=\"data"))
    }

    @Test(arguments: [
        "../timeline.json", "/etc/passwd", "images/../../secret.jpg", "images/./a.jpg", "javascript:alert(1)",
        "images/a b.jpg", "images//a.jpg", "%2e%2e/a.jpg", "images\\..\\a.jpg", "images/a.jpg?x=1", "",
        "https://pbs.twimg.com/media/a.jpg", "//evil.example/a.jpg", "images/a\".jpg",
    ])
    func pathsThatLeaveTheCacheAreNotImages(path: String) throws {
        var manifest = try Self.manifest()
        manifest.entries[0].image = path
        manifest.entries[0].author.avatar = path
        let card = try #require(Self.cards(Self.html(manifest)).first)
        #expect(!card.contains("<img class=\"media\""))
        #expect(!card.contains("<img class=\"avatar\""))
        #expect(card.contains("No image"))
    }

    @Test func everyImagePathResolvesInsideTheCache() throws {
        let cache = URL(fileURLWithPath: "/var/cache/kfeed", isDirectory: true)
        let sources = Self.attributeValues("src", in: Self.html(try Self.manifest()))
        #expect(sources.count == 12)
        for source in sources {
            #expect(!source.hasPrefix("/") && !source.contains(".."))
            let resolved = try #require(URL(string: source, relativeTo: cache)).standardizedFileURL
            #expect(resolved.path.hasPrefix(cache.path + "/"), "\(source)")
        }
    }

    // MARK: - Size and time

    @Test(arguments: [
        (ImageSize.small, "--w: 170px; --h: 170px;", "width=\"170\" height=\"170\""),
        (.medium, "--w: 360px; --h: 170px;", "width=\"360\" height=\"170\""),
        (.large, "--w: 360px; --h: 380px;", "width=\"360\" height=\"380\""),
        (ImageSize(width: 501, height: 300), "--w: 250.5px; --h: 150px;", "width=\"251\" height=\"150\""),
    ])
    func cardsAreTheWidgetSizeInCSSPixels(size: ImageSize, variables: String, attributes: String) throws {
        let html = Self.html(try Self.manifest(size: size))
        #expect(html.contains(variables))
        #expect(html.contains("<ol class=\"grid size-\(size.name)\">"))
        #expect(html.contains("--ratio: \(size.width) / \(size.height);"))
        #expect(Self.cards(html).allSatisfy { $0.contains(attributes) })
    }

    @Test func timesAreLocalWithTheirOffsetAcrossADaylightSavingChange() throws {
        var manifest = try Self.manifest()
        let end = Date(timeIntervalSince1970: 1_792_888_200)  // 2026-10-25 00:30 UTC, 02:30 CEST
        manifest.entries[0].date = end
        manifest.entries[1].date = end.addingTimeInterval(3_600)  // 01:30 UTC, 02:30 CET again
        manifest.generatedAt = end
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        let html = Self.html(manifest, now: end, timeZone: berlin)
        let cards = Self.cards(html)
        #expect(
            cards[0].contains(
                #"<time class="when" datetime="2026-10-25T00:30:00Z" title="2026-10-25 02:30 +02:00"><b>02:30</b> <span class="zone">+02:00</span> <span class="day">Sun 25 Oct 2026</span></time>"#
            )
        )
        #expect(cards[1].contains(#"datetime="2026-10-25T01:30:00Z" title="2026-10-25 02:30 +01:00"><b>02:30</b>"#))
        #expect(cards[1].contains(#"<span class="zone">+01:00</span>"#))
        #expect(html.contains(#"<dt>Generated</dt><dd><time datetime="2026-10-25T00:30:00Z""#))
        #expect(html.contains("Times are in Europe/Berlin."))
    }

    @Test func theHeaderSaysWhenMadeWhatQueryAndWhenTheNextReloadIs() throws {
        var manifest = try Self.manifest()
        let html = Self.html(manifest, now: Self.now.addingTimeInterval(3 * 3_600))
        #expect(html.contains(#"<dt>Generated</dt><dd><time datetime="2026-11-22T09:00:00Z""#))
        #expect(html.contains("(3 h ago)"))
        #expect(html.contains(#"<dt>Next reload</dt><dd><time datetime="2026-11-22T14:00:00Z""#))
        #expect(html.contains("(in 2 h)"))
        #expect(html.contains("<code>\(HTMLEscaping.escape(manifest.query))</code>"))
        #expect(html.contains("<dt>Entries</dt><dd>6, every 1h, small (340×340 px)</dd>"))
        manifest.policy = .never
        manifest.reloadAfter = nil
        #expect(Self.html(manifest).contains("<dt>Next reload</dt><dd>never (only kfeed refresh --force)</dd>"))
    }

    @Test func anEmptyTimelineSaysWhy() throws {
        var manifest = try Self.manifest()
        manifest.entries = []
        manifest.emptyReason = "no posts with <images> matched"
        let html = Self.html(manifest)
        #expect(Self.cards(html).isEmpty)
        #expect(html.contains("This timeline has no entries: no posts with &lt;images&gt; matched."))
    }

    @Test func theWholeTextIsShownAsXSentIt() throws {
        var manifest = try Self.manifest()
        let long = String(repeating: "word ", count: 200) + "\n<b>&</b> \u{202E}end https://t.co/AbCdEf1234"
        manifest.entries[0].text = long
        let card = try #require(Self.cards(Self.html(manifest)).first)
        let text = try #require(card.firstMatch(of: /<p class="text" dir="auto">([^<]*)<\/p>/)?.output.1)
        #expect(text == HTMLEscaping.escape(long))
    }

    @Test func everyCardAttributesThePostWithLinksToTheAuthorAndThePost() throws {
        var manifest = try Self.manifest()
        manifest.entries[0].createdAt = Date(timeIntervalSince1970: 1_795_335_797)  // 08:23:17 UTC
        let cards = Self.cards(Self.html(manifest))
        #expect(cards.count == manifest.entries.count)
        for (card, entry) in zip(cards, manifest.entries) {
            let profile = "https://x.com/\(entry.author.username)"
            #expect(
                card.contains("<a class=\"who\" href=\"\(profile)\" rel=\"noopener noreferrer\" target=\"_blank\">")
            )
            #expect(card.contains("<span class=\"username\">@\(entry.author.username)</span>"))
            #expect(card.contains("<svg class=\"xmark\""))
            let posted = try #require(entry.postedAt)
            #expect(
                card.contains(
                    "<a href=\"\(entry.url.absoluteString)\" rel=\"noopener noreferrer\" target=\"_blank\"><time "
                        + "datetime=\"\(InstantFormat.string(from: posted))\">\(PostTime(posted, timeZone: Self.utc).text)"
                        + "</time></a>"
                )
            )
        }
        #expect(cards[0].contains("<time datetime=\"2026-11-22T08:23:17Z\">22 Nov 2026 08:23</time>"))
    }

    @Test func thePageIsAPureFunctionOfItsInputs() throws {
        let manifest = try Self.manifest()
        #expect(Self.html(manifest) == Self.html(manifest))
    }
}

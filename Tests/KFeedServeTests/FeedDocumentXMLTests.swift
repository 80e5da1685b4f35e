import Foundation
import KFeed
import KFeedBase
import Testing

@testable import KFeedServe

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `XMLText` and the RSS document, read back by libxml2 (Foundation's `XMLParser`): texts hostile to XML survive as
/// themselves (or, for what XML cannot carry at all, as U+FFFD), and the document is well-formed whatever they hold.
struct FeedDocumentXMLTests {
    static let hostile = [
        "]]> <script>alert('x')</script> & &amp; \"quoted\" <![CDATA[ x ]]>",
        "line\r\nbreaks\nand\ttabs\rand CR",
        "שלום \u{202E}abc\u{202C} RTL مرحبا",
        "emoji 🐱‍👤 👩🏽‍🚀 🇰🇷 astral 𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
        "controls \u{00}\u{01}\u{08}\u{0B}\u{0C}\u{1F} \u{FFFE}\u{FFFF} end",
    ]

    @Test func escapingKeepsEveryCharacterXMLCanCarry() {
        #expect(XMLText.escape("]]>") == "]]&gt;")
        #expect(XMLText.escape("a&b<c>\"'") == "a&amp;b&lt;c&gt;&quot;&apos;")
        #expect(XMLText.escape("\t\n\r") == "&#x9;&#xA;&#xD;")
        #expect(XMLText.escape("\u{01}\u{FFFE}x") == "\u{FFFD}\u{FFFD}x")
        #expect(XMLText.escape("🐱‍👤 שלום") == "🐱‍👤 שלום")
        #expect(XMLText.html("<b>&\"") == "&lt;b&gt;&amp;&quot;")
    }

    /// Collects each element's text.
    final class Texts: NSObject, XMLParserDelegate {
        var texts: [(name: String, text: String)] = []
        var attributes: [(name: String, attributes: [String: String])] = []
        private var current = ""

        func parser(
            _ parser: XMLParser,
            didStartElement name: String,
            namespaceURI: String?,
            qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            current = ""
            self.attributes.append((name, attributes))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            current += string
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            texts.append((name, current))
            current = ""
        }
    }

    @Test func theRSSDocumentIsWellFormedAndCarriesTheTextsUnaltered() throws {
        let start = Date(timeIntervalSince1970: 1_795_338_000)
        let entries = try Self.hostile.enumerated().map { index, text in
            let json: [String: Any] = [
                "date": InstantFormat.string(from: start.addingTimeInterval(Double(index) * 3_600)),
                "tweet_id": "\(index)", "text": text, "url": "https://x.com/a/status/\(index)",
                "author": ["id": "1", "name": "Ná<me> & \u{202E}", "username": "a_\(index)"],
                "media": ["key": "3_\(index)", "type": "photo", "alt_text": "alt " + text],
                "image": "images/3_\(index).jpg", "placeholder": false,
            ]
            return try InstantFormat.jsonDecoder().decode(
                Manifest.Entry.self,
                from: try JSONSerialization.data(withJSONObject: json)
            )
        }
        let manifest = Manifest(
            generatedAt: start,
            query: "q & <a>",
            policy: .atEnd,
            reloadAfter: nil,
            size: .small,
            interval: .hour,
            entries: entries
        )
        let document = FeedDocument(
            name: "hostile",
            manifest: manifest,
            now: start.addingTimeInterval(10 * 3_600),
            base: "http://127.0.0.1:8787/f/hostile/"
        ) { path in FeedDocument.Picture(url: "http://127.0.0.1:8787/f/hostile/\(path)?v=1&x=<2>", length: 10) }
        let parser = XMLParser(data: document.rss())
        parser.shouldProcessNamespaces = false
        let texts = Texts()
        parser.delegate = texts
        #expect(parser.parse(), "\(String(describing: parser.parserError))")
        let safe = { (text: String) in
            String(String.UnicodeScalarView(text.unicodeScalars.map { XMLText.isForbidden($0) ? "\u{FFFD}" : $0 }))
        }
        let descriptions = texts.texts.filter { $0.name == "description" }.dropFirst().map(\.text)
        #expect(descriptions == Self.hostile.reversed().map { XMLText.html(safe($0)) })
        let alts = texts.texts.filter { $0.name == "media:description" }.map(\.text)
        #expect(alts == Self.hostile.reversed().map { safe("alt " + $0) })
        let creators = Set(texts.texts.filter { $0.name == "dc:creator" }.map(\.text))
        #expect(creators.allSatisfy { $0.hasPrefix(safe("Ná<me> & \u{202E} (@a_")) }, "\(creators)")
        let urls = texts.attributes.filter { $0.name == "media:content" }.compactMap { $0.attributes["url"] }
        #expect(urls.first == "http://127.0.0.1:8787/f/hostile/images/3_4.jpg?v=1&x=<2>")

        // JSON Feed keeps every character.
        let json = try #require(try JSONSerialization.jsonObject(with: document.jsonFeed()) as? [String: Any])
        let items = try #require(json["items"] as? [[String: Any]])
        #expect(items.compactMap { $0["content_text"] as? String } == Self.hostile.reversed())
    }
}

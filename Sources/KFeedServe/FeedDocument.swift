package import Foundation
package import KFeed

/// A feed's timeline as a document for feed readers and dashboards (`docs/feeds.md`, "Feed readers"): JSON Feed 1.1
/// (`/feed.json`) or RSS 2.0 with Media RSS (`/feed.xml`), served by `kfeed serve` and written by `kfeed feed`.
///
/// Each item is an entry whose hour has begun, newest first: a reader sees each picture when its hour comes, as a
/// screen does, never ahead of it (an item dated in the future would show tomorrow's pictures tonight, and readers
/// sort and drop items by their date). Each carries the post's text as X gave it, its link, its author (name,
/// `@username`, profile URL, avatar), the entry's instant, the picture (absolute URL) and its alt text.
package struct FeedDocument: Sendable {
    /// One picture or avatar as the document links it.
    package struct Picture: Sendable, Hashable {
        /// Its absolute URL.
        package var url: String
        /// Its size in bytes, when known (RSS's `enclosure` needs one).
        package var length: Int?

        package init(url: String, length: Int? = nil) {
            self.url = url
            self.length = length
        }
    }

    /// The formats.
    package enum Format: String, Sendable, CaseIterable {
        case json, rss

        /// The media type it is served as.
        package var contentType: String {
            switch self {
            case .json: "application/feed+json; charset=utf-8"
            case .rss: "application/rss+xml; charset=utf-8"
            }
        }

        /// Its path under a feed's prefix.
        package var path: String {
            switch self {
            case .json: "feed.json"
            case .rss: "feed.xml"
            }
        }
    }

    /// The feed's name (`default` without a feeds file).
    package var name: String
    /// The timeline.
    package var manifest: Manifest
    /// The instant the document is made for: entries dated after it are left out.
    package var now: Date
    /// The feed's absolute base URL, ending with `/` (`http://HOST/` or `http://HOST/f/NAME/`).
    package var base: String
    /// The absolute URL (and size) of a file the manifest names (`images/….jpg`), nil when it cannot be had.
    package var picture: @Sendable (String) -> Picture?

    package init(
        name: String,
        manifest: Manifest,
        now: Date,
        base: String,
        picture: @escaping @Sendable (String) -> Picture?
    ) {
        self.name = name
        self.manifest = manifest
        self.now = now
        self.base = base.hasSuffix("/") ? base : base + "/"
        self.picture = picture
    }

    /// The entries the document lists: those whose hour has begun, newest first.
    package var entries: [Manifest.Entry] {
        manifest.entries.filter { $0.date <= now }.sorted { $0.date > $1.date }
    }

    /// The document in `format`, as UTF-8.
    package func data(_ format: Format) -> Data {
        switch format {
        case .json: jsonFeed()
        case .rss: rss()
        }
    }

    /// The feed's title.
    var title: String { name == "default" ? "kfeed" : "kfeed: \(name)" }

    /// What the feed is: the query its pictures come from.
    var summary: String { "A picture an hour from X's recent search: \(manifest.query)" }

    /// The item's stable id: the post's link and the entry's instant (a post shown again on another day is a new
    /// item).
    static func id(of entry: Manifest.Entry) -> String {
        "\(entry.url.absoluteString)#\(Int(entry.date.timeIntervalSince1970))"
    }

    /// The author's public profile.
    static func profile(of author: Manifest.Author) -> String {
        "https://x.com/\(author.username)"
    }

    /// `Name (@username)`, or `@username` without a name.
    static func byline(of author: Manifest.Author) -> String {
        author.name.isEmpty ? "@\(author.username)" : "\(author.name) (@\(author.username))"
    }

    /// The entry's picture: none for a placeholder (the post's picture could not be had).
    func image(of entry: Manifest.Entry) -> Picture? {
        guard !entry.placeholder, let path = entry.image else { return nil }
        return picture(path)
    }

    // MARK: - JSON Feed 1.1

    /// JSON Feed 1.1 (`https://jsonfeed.org/version/1.1`), with a `_kfeed` extension object per item (the
    /// username, the alt text, the media key, whether it is a repeat).
    package func jsonFeed() -> Data {
        let items = entries.map { entry in
            let image = image(of: entry)
            return JSONFeed.Item(
                id: Self.id(of: entry),
                url: entry.url.absoluteString,
                contentText: entry.text,
                image: image?.url,
                datePublished: InstantFormat.string(from: entry.date),
                authors: [
                    JSONFeed.Author(
                        name: Self.byline(of: entry.author),
                        url: Self.profile(of: entry.author),
                        avatar: entry.author.avatar.flatMap(picture)?.url
                    )
                ],
                attachments: image.map { image in
                    [
                        JSONFeed.Attachment(
                            url: image.url,
                            mimeType: "image/jpeg",
                            title: entry.media.altText,
                            sizeInBytes: image.length
                        )
                    ]
                },
                kfeed: JSONFeed.Extension(
                    username: entry.author.username,
                    name: entry.author.name,
                    altText: entry.media.altText,
                    mediaKey: entry.media.key,
                    isRepeat: entry.isRepeat ? true : nil
                )
            )
        }
        let feed = JSONFeed(
            title: title,
            homePageURL: base,
            feedURL: base + Format.json.path,
            description: summary,
            items: items
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(feed)) ?? Data("{}".utf8)) + Data("\n".utf8)
    }

    struct JSONFeed: Encodable {
        var version = "https://jsonfeed.org/version/1.1"
        var title: String
        var homePageURL: String
        var feedURL: String
        var description: String
        var items: [Item]

        enum CodingKeys: String, CodingKey {
            case version, title, description, items
            case homePageURL = "home_page_url"
            case feedURL = "feed_url"
        }

        struct Item: Encodable {
            var id: String
            var url: String
            var contentText: String
            var image: String?
            var datePublished: String
            var authors: [Author]
            var attachments: [Attachment]?
            var kfeed: Extension

            enum CodingKeys: String, CodingKey {
                case id, url, image, authors, attachments
                case contentText = "content_text"
                case datePublished = "date_published"
                case kfeed = "_kfeed"
            }
        }

        struct Author: Encodable {
            var name: String
            var url: String
            var avatar: String?
        }

        struct Attachment: Encodable {
            var url: String
            var mimeType: String
            var title: String?
            var sizeInBytes: Int?

            enum CodingKeys: String, CodingKey {
                case url, title
                case mimeType = "mime_type"
                case sizeInBytes = "size_in_bytes"
            }
        }

        struct Extension: Encodable {
            var username: String
            var name: String
            var altText: String?
            var mediaKey: String
            var isRepeat: Bool?

            enum CodingKeys: String, CodingKey {
                case username, name
                case altText = "alt_text"
                case mediaKey = "media_key"
                case isRepeat = "repeat"
            }
        }
    }

    // MARK: - RSS 2.0 with Media RSS

    /// RSS 2.0 with Media RSS (`media:content`, `media:thumbnail`, `media:description`, `media:credit`), the author
    /// as `dc:creator` and `atom:author` (with the profile URL), and an `enclosure` when the picture's size is known.
    /// Text is escaped by ``XMLText``; the description is the post's text as HTML (escaped again, so that a reader
    /// shows `<b>` as written, never as markup).
    package func rss() -> Data {
        var xml = XMLText.Writer()
        xml.raw(#"<?xml version="1.0" encoding="UTF-8"?>"#)
        xml.raw(
            #"<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/" "#
                + #"xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom">"#
        )
        xml.open("channel")
        xml.element("title", title)
        xml.element("link", base)
        xml.element("description", summary)
        xml.empty("atom:link", ["href": base + Format.rss.path, "rel": "self", "type": "application/rss+xml"])
        xml.element("generator", "kfeed")
        xml.element("ttl", String(max(1, Int(manifest.interval.seconds / 60))))
        xml.element("lastBuildDate", Self.rfc822(manifest.generatedAt))
        for entry in entries {
            xml.open("item")
            let byline = Self.byline(of: entry.author)
            xml.element("title", byline)
            xml.element("link", entry.url.absoluteString)
            xml.element("guid", Self.id(of: entry), ["isPermaLink": "false"])
            xml.element("pubDate", Self.rfc822(entry.date))
            xml.element("description", XMLText.html(entry.text))
            xml.element("dc:creator", byline)
            xml.open("atom:author")
            xml.element("atom:name", byline)
            xml.element("atom:uri", Self.profile(of: entry.author))
            xml.close("atom:author")
            if let image = image(of: entry) {
                if let length = image.length {
                    xml.empty("enclosure", ["url": image.url, "type": "image/jpeg", "length": String(length)])
                }
                var attributes = ["url": image.url, "type": "image/jpeg", "medium": "image"]
                attributes["width"] = String(manifest.size.width)
                attributes["height"] = String(manifest.size.height)
                xml.open("media:content", attributes)
                if let alt = entry.media.altText { xml.element("media:description", alt, ["type": "plain"]) }
                xml.element("media:credit", "@\(entry.author.username)", ["role": "author", "scheme": "urn:ebu"])
                xml.close("media:content")
                xml.empty(
                    "media:thumbnail",
                    ["url": image.url, "width": String(manifest.size.width), "height": String(manifest.size.height)]
                )
            }
            xml.close("item")
        }
        xml.close("channel")
        xml.raw("</rss>")
        return Data(xml.text.utf8)
    }

    /// RFC 822 (as RSS 2.0 writes dates, with a four-digit year), in UTC.
    static func rfc822(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let two = { (value: Int?) in String(format: "%02d", value ?? 0) }
        return "\(days[((parts.weekday ?? 1) - 1) % 7]), \(two(parts.day)) \(months[((parts.month ?? 1) - 1) % 12]) "
            + "\(parts.year ?? 1970) \(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) +0000"
    }
}

/// Escaping for XML 1.0 text and attribute values, and the small writer the RSS document is made with.
package enum XMLText {
    /// `text` as XML character data or an attribute value (quoted with `"`): `&`, `<`, `>`, `"` and `'` as
    /// entities; tab, line feed and carriage return as character references (so that neither attribute
    /// normalisation nor line-end handling changes them); the characters XML 1.0 forbids everywhere (C0 controls
    /// but those three, U+FFFE, U+FFFF) as U+FFFD, the replacement character, since no escape can carry them.
    package static func escape(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out.append(contentsOf: "&amp;".unicodeScalars)
            case "<": out.append(contentsOf: "&lt;".unicodeScalars)
            case ">": out.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": out.append(contentsOf: "&quot;".unicodeScalars)
            case "'": out.append(contentsOf: "&apos;".unicodeScalars)
            case "\t": out.append(contentsOf: "&#x9;".unicodeScalars)
            case "\n": out.append(contentsOf: "&#xA;".unicodeScalars)
            case "\r": out.append(contentsOf: "&#xD;".unicodeScalars)
            case _ where isForbidden(scalar): out.append("\u{FFFD}")
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// Whether XML 1.0 allows `scalar` nowhere, not even as a character reference.
    package static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r") || scalar.value == 0xFFFE
            || scalar.value == 0xFFFF
    }

    /// `text` as HTML (for RSS's `description`, which readers show as HTML): `&`, `<`, `>` and `"` escaped, line
    /// breaks kept. The result is escaped again as XML by the writer.
    package static func html(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }

    /// Appends elements, one per line, every text and attribute value escaped.
    package struct Writer {
        package private(set) var text = ""
        private var depth = 0

        package init() {}

        mutating func raw(_ line: String) {
            text += line + "\n"
        }

        mutating func open(_ name: String, _ attributes: [String: String] = [:]) {
            line("<\(name)\(Self.attributes(attributes))>")
            depth += 1
        }

        mutating func close(_ name: String) {
            depth -= 1
            line("</\(name)>")
        }

        mutating func element(_ name: String, _ value: String, _ attributes: [String: String] = [:]) {
            line("<\(name)\(Self.attributes(attributes))>\(XMLText.escape(value))</\(name)>")
        }

        mutating func empty(_ name: String, _ attributes: [String: String]) {
            line("<\(name)\(Self.attributes(attributes))/>")
        }

        private mutating func line(_ content: String) {
            text += String(repeating: "  ", count: depth) + content + "\n"
        }

        private static func attributes(_ attributes: [String: String]) -> String {
            attributes.keys.sorted().map { " \($0)=\"\(XMLText.escape(attributes[$0] ?? ""))\"" }.joined()
        }
    }
}

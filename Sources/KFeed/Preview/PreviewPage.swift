package import Foundation
import KFeedImages

/// `preview.html`: a timeline as widget-sized cards, one self-contained page that works offline from the cache
/// directory (relative image paths, no external fonts, scripts or styles), in light and dark mode.
///
/// Everything from outside (post text, names, alt text, the query) is HTML-escaped; a Content-Security-Policy
/// forbids scripts; only `https://x.com/…` URLs become links and only relative paths that stay inside the cache
/// directory become images. The page is a pure function of its inputs.
package struct PreviewPage: Sendable {
    /// The timeline shown.
    package var manifest: Manifest
    /// The instant that decides which entry is current and which are past.
    package var now: Date
    /// The zone times are shown in (the viewer's local zone), each with its UTC offset.
    package var timeZone: TimeZone

    /// The policy the page declares: nothing may load but images from the page's own origin and its inline styles.
    /// (A constant with no `"` or `<`, written into the attribute as is.)
    package static let contentSecurityPolicy =
        "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"

    /// Creates a page.
    /// - Parameters:
    ///   - manifest: the timeline, as read from `timeline.json`.
    ///   - now: the instant that decides the current entry (`Manifest.currentEntryIndex(at:)`) and the past ones.
    ///   - timeZone: the zone every time is shown in, with its offset; the UTC instant is kept in `<time datetime>`.
    package init(manifest: Manifest, now: Date, timeZone: TimeZone) {
        self.manifest = manifest
        self.now = now
        self.timeZone = timeZone
    }

    /// Where an entry stands relative to `now`.
    enum State: String {
        case past, current, upcoming
    }

    /// The state of each entry, in manifest order: the entry covering `now` is current, those that ended are past.
    var states: [State] {
        let current = manifest.currentEntryIndex(at: now)
        return manifest.entries.indices.map { index in
            if index == current { return .current }
            let end = manifest.entries[index].date.addingTimeInterval(manifest.interval.seconds)
            return end <= now ? .past : .upcoming
        }
    }

    /// Writes the page to `store`'s `preview.html` (``CacheStore/previewName``) atomically, replacing a symlink
    /// rather than following it.
    /// - Returns: the file's URL.
    /// - Throws: `KFeedError` `.cacheUnwritable` when the directory cannot be written, `.io` for a full disk.
    package func write(to store: CacheStore) throws -> URL {
        try store.writePreview(Data(html.utf8))
    }

    /// The whole document.
    package var html: String {
        let size = manifest.size
        let title = "kfeed preview · \(manifest.entries.count) entries"
        var page = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(Self.contentSecurityPolicy)">
            <meta name="referrer" content="no-referrer">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <meta name="generator" content="kfeed \(HTMLEscaping.escape(KFeedVersion.version))">
            <title>\(HTMLEscaping.escape(title))</title>
            <style>
            :root { --w: \(Self.cssPixels(size.width)); --h: \(Self.cssPixels(size.height)); \
            --ratio: \(size.width) / \(size.height); }
            \(Self.styleSheet)
            </style>
            </head>
            <body>

            """
        page += header
        page += "<main>\n"
        if manifest.entries.isEmpty {
            let reason = manifest.emptyReason.map { Sanitized.excerpt($0, limit: 300) } ?? "no usable posts"
            page += "<p class=\"empty\">This timeline has no entries: \(HTMLEscaping.escape(reason)).</p>\n"
        } else {
            page += "<ol class=\"grid size-\(HTMLEscaping.escape(size.name))\">\n"
            for (index, state) in states.enumerated() {
                page += card(manifest.entries[index], index: index, state: state)
            }
            page += "</ol>\n"
        }
        page += "</main>\n"
        page += """
            <footer>Made by kfeed \(HTMLEscaping.escape(KFeedVersion.version)) from the cache directory alone; \
            cards are \(size.name) widgets (\(size.width)×\(size.height) px images shown at 2×). \
            Times are in \(HTMLEscaping.escape(timeZone.identifier)).</footer>
            </body>
            </html>

            """
        return page
    }

    // MARK: - Parts

    private var header: String {
        let clock = LocalClock(timeZone: timeZone)
        let query = Sanitized.excerpt(manifest.query, limit: 512)
        var facts: [(String, String)] = [
            ("Generated", "\(clock.timeElement(manifest.generatedAt)) (\(relative(manifest.generatedAt)))"),
            ("Next reload", reloadText(clock)),
            ("Query", "<code>\(HTMLEscaping.escape(query))</code>"),
            (
                "Entries",
                "\(manifest.entries.count), every \(HTMLEscaping.escape(manifest.interval.description)), "
                    + "\(HTMLEscaping.escape(manifest.size.name)) (\(manifest.size.width)×\(manifest.size.height) px)"
            ),
            ("Shown at", clock.timeElement(now)),
        ]
        if let reason = manifest.emptyReason {
            facts.append(("Empty", HTMLEscaping.escape(Sanitized.excerpt(reason, limit: 300))))
        }
        var text = "<header class=\"page\">\n<h1>kfeed timeline</h1>\n<dl class=\"facts\">\n"
        for (term, value) in facts {
            text += "<div><dt>\(term)</dt><dd>\(value)</dd></div>\n"
        }
        return text + "</dl>\n</header>\n"
    }

    private func reloadText(_ clock: LocalClock) -> String {
        guard let reload = manifest.reloadAfter else { return "never (only kfeed refresh --force)" }
        let when = manifest.wantsReload(at: now) ? "due now" : relative(reload)
        return "\(clock.timeElement(reload)) (\(when))"
    }

    private func relative(_ date: Date) -> String {
        HTMLEscaping.escape(ScheduleText.relative(date, to: now))
    }

    private func card(_ entry: Manifest.Entry, index: Int, state: State) -> String {
        let clock = LocalClock(timeZone: timeZone)
        let username = Sanitized.excerpt(entry.author.username, limit: 64)
        let name = Sanitized.excerpt(entry.author.name, limit: 80)
        let handle = username.isEmpty ? "an unknown author" : "@\(username)"
        var classes = ["card", "is-\(state.rawValue)"]
        if entry.placeholder { classes.append("is-placeholder") }

        let label: String
        switch state {
        case .current: label = "Now"
        case .past: label = "Past"
        case .upcoming: label = relative(entry.date)
        }

        var text = "<li class=\"\(classes.joined(separator: " "))\" data-entry=\"\(index)\" data-state=\"\(state)\">\n"
        text += "<div class=\"widget\">\n"
        if let image = entry.image.flatMap(Self.safeRelativePath) {
            let alt = entry.placeholder ? placeholderAlt(entry, handle: handle) : mediaAlt(entry, handle: handle)
            text += "<img class=\"media\" src=\"\(HTMLEscaping.escape(image))\" alt=\"\(HTMLEscaping.escape(alt))\""
            text += " width=\"\(Self.cssPixelCount(manifest.size.width))\""
            text += " height=\"\(Self.cssPixelCount(manifest.size.height))\">\n"
        } else {
            text += "<div class=\"media missing\" role=\"img\" aria-label=\"No image\">No image</div>\n"
        }
        if entry.placeholder {
            let reason = Sanitized.excerpt(entry.placeholderReason ?? "", limit: 120)
            text += "<p class=\"placeholder-note\"><strong>Placeholder</strong>"
            text +=
                "<span class=\"reason\">\(HTMLEscaping.escape(reason.isEmpty ? "unknown reason" : reason))</span></p>\n"
        }
        text += "<span class=\"state\">\(label)</span>\n"
        if entry.isRepeat { text += "<span class=\"again\" title=\"shown before: too few new posts\">again</span>\n" }
        text += "</div>\n<div class=\"meta\">\n"
        text += clock.timeElement(entry.date, className: "when") + "\n"
        text += "<div class=\"author\">"
        if let avatar = entry.author.avatar.flatMap(Self.safeRelativePath) {
            text += "<img class=\"avatar\" src=\"\(HTMLEscaping.escape(avatar))\" alt=\"\" width=\"28\" height=\"28\">"
        } else {
            text += "<span class=\"avatar\"></span>"
        }
        var who = "<span class=\"name\">\(HTMLEscaping.escape(name.isEmpty ? handle : name))</span>"
        who += "<span class=\"username\">\(HTMLEscaping.escape(handle))</span>"
        if let profile = entry.author.profileURL.flatMap(Self.postLink) {
            text += "<a class=\"who\" href=\"\(HTMLEscaping.escape(profile))\" rel=\"noopener noreferrer\" "
            text += "target=\"_blank\">\(who)</a>"
        } else {
            text += "<span class=\"who\">\(who)</span>"
        }
        text += "</div>\n"
        // The X mark, and the post's time linking to the post.
        text += "<p class=\"posted\">\(XMark.svg(size: 12))"
        if let posted = entry.postedAt {
            let time = PostTime(posted, timeZone: timeZone)
            var when = "<time datetime=\"\(InstantFormat.string(from: posted))\">\(time.text)</time>"
            if let link = Self.postLink(entry.url) {
                when =
                    "<a href=\"\(HTMLEscaping.escape(link))\" rel=\"noopener noreferrer\" target=\"_blank\">\(when)</a>"
            }
            text += " Posted \(when)"
        }
        text += "</p>\n"
        // The post's text as X sent it (escaped, never shortened): the card grows to hold it.
        text += "<p class=\"text\" dir=\"auto\">\(HTMLEscaping.escape(entry.text))</p>\n"
        if let link = Self.postLink(entry.url) {
            text += "<a class=\"link\" href=\"\(HTMLEscaping.escape(link))\" rel=\"noopener noreferrer\" "
            text += "target=\"_blank\">View post on X</a>\n"
        } else {
            text += "<span class=\"link nolink\">Not an x.com link</span>\n"
        }
        return text + "</div>\n</li>\n"
    }

    private func mediaAlt(_ entry: Manifest.Entry, handle: String) -> String {
        let alt = Sanitized.excerpt(entry.media.altText ?? "", limit: 1_000)
        if !alt.isEmpty { return alt }
        switch entry.media.type {
        case "video": return "Video still by \(handle)"
        case "animated_gif": return "GIF still by \(handle)"
        default: return "Photo by \(handle)"
        }
    }

    private func placeholderAlt(_ entry: Manifest.Entry, handle: String) -> String {
        let reason = Sanitized.excerpt(entry.placeholderReason ?? "", limit: 120)
        return "Placeholder for a post by \(handle)" + (reason.isEmpty ? "" : " (\(reason))")
    }

    // MARK: - Validation

    /// `path` when it is a relative path that stays inside the cache directory and needs no escaping in a URL:
    /// components of letters, digits, `-`, `_` and `.`, separated by `/`, none of them `.` or `..`; nil otherwise
    /// (absolute paths, `..`, schemes such as `javascript:`, queries, percent signs, back slashes).
    static func safeRelativePath(_ path: String) -> String? {
        guard !path.isEmpty, path.utf8.count <= 255 else { return nil }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.".utf8)
        let components = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        for component in components {
            guard !component.isEmpty, component.allSatisfy(allowed.contains) else { return nil }
            let text = String(decoding: component, as: UTF8.self)
            guard text != ".", text != ".." else { return nil }
        }
        return path
    }

    /// The URL's text when it is `https://x.com/…` (no user, password or port); nil for anything else.
    static func postLink(_ url: URL) -> String? {
        guard let parts = URLComponents(url: url, resolvingAgainstBaseURL: false),
            parts.scheme?.lowercased() == "https", parts.host?.lowercased() == "x.com", parts.user == nil,
            parts.password == nil, parts.port == nil, parts.percentEncodedPath.hasPrefix("/")
        else { return nil }
        let text = url.absoluteString
        guard text.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value != 0x7F }) else { return nil }
        return text
    }

    // MARK: - Units

    /// Image pixels as CSS pixels (2× assets): `170px`, `170.5px`.
    static func cssPixels(_ pixels: Int) -> String {
        pixels % 2 == 0 ? "\(pixels / 2)px" : "\(pixels / 2).5px"
    }

    private static func cssPixelCount(_ pixels: Int) -> Int {
        (pixels + 1) / 2
    }
}

/// Times in one zone with their offset (`09:00`, `+09:00`, `Sun 22 Nov 2026`), inside `<time datetime="…Z">`.
private struct LocalClock {
    var timeZone: TimeZone

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `<time datetime="2026-11-22T09:00:00Z" title="2026-11-22 18:00 +09:00"><b>18:00</b> <span class="zone">+09:00
    /// </span> <span class="day">Sun 22 Nov 2026</span></time>`.
    func timeElement(_ date: Date, className: String? = nil) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .weekday], from: date)
        let weekday = Self.weekdays[((parts.weekday ?? 1) - 1 + 7) % 7]
        let month = Self.months[((parts.month ?? 1) - 1 + 12) % 12]
        let offset = InstantFormat.offset(timeZone.secondsFromGMT(for: date))
        let hour = "\(InstantFormat.padded(parts.hour ?? 0)):\(InstantFormat.padded(parts.minute ?? 0))"
        let day = "\(weekday) \(parts.day ?? 0) \(month) \(parts.year ?? 0)"
        let full = ScheduleText(timeZone: timeZone).localTime(date)
        let classAttribute = className.map { " class=\"\($0)\"" } ?? ""
        return "<time\(classAttribute) datetime=\"\(InstantFormat.string(from: date))\" title=\"\(full)\">"
            + "<b>\(hour)</b> <span class=\"zone\">\(offset)</span> <span class=\"day\">\(day)</span></time>"
    }
}

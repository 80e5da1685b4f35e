import Foundation
import KFeed
import KFeedBase
import KFeedImages

/// `/widget`: the current entry as one full-screen picture, like the seed iOS widget: the image filling the
/// viewport (cover), and over its bottom the post's attribution: the author's round avatar, name and `@username`
/// (linking to the profile on X), the post's time (linking to the post), the X mark (inline SVG) and the post's
/// text as X sent it.
///
/// One small static script, the only one its Content-Security-Policy lets run (by its SHA-256): it reloads the page
/// when the entry ends, an instant the page names (`data-until`), by the device's clock, so that a copy a cache keeps
/// until the entry's end reloads on time whenever it was read (``reloadScript``). Without scripts, the page reloads
/// every minute (`<noscript>`). It carries the meta tags that make it a phone home-screen web app, and is usable in
/// a Home Assistant webpage card or a MagicMirror iframe. All text from outside is HTML-escaped.
///
/// The picture offers the browser every size the cache holds for the entry (`srcset`: the image and the full-colour
/// renders without a caption band), with `sizes` saying how wide the picture is shown when it covers the viewport,
/// so that a phone at 3× picks the sharpest one there is.
struct WidgetPage {
    /// A size of the picture the page may show: a path the manifest names and its width in pixels.
    struct Source: Equatable {
        var path: String
        var width: Int
    }

    /// The entry shown; nil when no entry covers now.
    var entry: Manifest.Entry?
    /// The picture's sizes, smallest first (the first is `src`); empty shows the entry's image alone.
    var sources: [Source] = []
    /// The proportions of the image (the manifest's size), for `sizes`.
    var imageSize = ImageSize.small
    /// When the entry shown ends, by the server's clock (stale, when to look again: at most 15 minutes on); nil
    /// without an entry, when the page tries again in 30–45 s.
    var until: Date?
    /// The timeline's interval in seconds: the furthest ahead of a right clock `until` can be.
    var interval: Double
    /// The zone the post's time is shown in.
    var timeZone: TimeZone
    /// Turns a path the manifest names into the URL the page uses (relative, signed when a key is required).
    var link: (String) -> String

    /// The whole document.
    var html: String {
        var body: String
        var title = "kfeed"
        if let entry {
            let username = Sanitized.excerpt(entry.author.username, limit: 64)
            let name = Sanitized.excerpt(entry.author.name, limit: 80)
            let handle = username.isEmpty ? "" : "@\(username)"
            title = handle.isEmpty ? "kfeed" : "kfeed · \(handle)"
            let alt = Sanitized.excerpt(entry.media.altText ?? entry.text, limit: 200)
            let picture = entry.image.map { image in
                let sources = sources.isEmpty ? [Source(path: image, width: imageSize.width)] : sources
                var tag = "<img class=\"picture\" src=\"\(escape(link(sources[0].path)))\""
                if sources.count > 1 {
                    let set = sources.map { "\(link($0.path)) \($0.width)w" }.joined(separator: ", ")
                    // Covering the viewport, the picture is as wide as the viewport, or as tall (and so wider) when
                    // the viewport is narrower than the picture's proportions.
                    let ratio = "\(imageSize.width)/\(imageSize.height)"
                    tag += " srcset=\"\(escape(set))\""
                    tag +=
                        " sizes=\"(max-aspect-ratio: \(ratio)) calc(100vh * \(imageSize.width) / \(imageSize.height)), 100vw\""
                }
                return tag + " alt=\"\(escape(alt))\">"
            }
            let avatar = entry.author.avatar.map {
                "<img class=\"avatar\" src=\"\(escape(link($0)))\" alt=\"\" width=\"48\" height=\"48\">"
            }
            body = picture ?? "<div class=\"picture missing\"></div>"
            if let link = Self.postLink(entry.url) {
                body = "<a class=\"post\" href=\"\(escape(link))\" rel=\"noopener noreferrer\">\(body)</a>"
            }
            body += "\n<div class=\"caption\">\n<div class=\"head\">"
            body += avatar ?? ""
            var who = "<span class=\"name\">\(escape(name.isEmpty ? handle : name))</span>"
            who += "<span class=\"username\">\(escape(handle))</span>"
            if let profile = entry.author.profileURL.flatMap(Self.postLink) {
                who = "<a class=\"who\" href=\"\(escape(profile))\" rel=\"noopener noreferrer\">\(who)</a>"
            } else {
                who = "<div class=\"who\">\(who)</div>"
            }
            body += who
            if let posted = entry.postedAt {
                let time = PostTime(posted, timeZone: timeZone)
                var when = "<time class=\"posted\" datetime=\"\(InstantFormat.string(from: posted))\">"
                when += "<b>\(time.clock)</b><span class=\"day\">\(time.day)</span></time>"
                if let link = Self.postLink(entry.url) {
                    when = "<a class=\"when\" href=\"\(escape(link))\" rel=\"noopener noreferrer\">\(when)</a>"
                }
                body += when
            }
            body += XMark.svg(size: 22) + "</div>\n"
            if !entry.text.isEmpty {
                body += "<p class=\"text\" dir=\"auto\">\(escape(entry.text))</p>\n"
            }
            body += "</div>"
            if entry.isRepeat {
                body += "\n<p class=\"again\" title=\"shown before: a quiet day had too few new posts\">again</p>"
            }
            if entry.placeholder {
                body +=
                    "\n<p class=\"reason\">\(escape(Sanitized.excerpt(entry.placeholderReason ?? "", limit: 120)))</p>"
            }
        } else {
            body = "<p class=\"empty\">No picture for now: the timeline has no entry for this hour.</p>"
        }
        let reload = """
            <noscript><meta http-equiv="refresh" content="\(Self.fallbackReloadSeconds)"></noscript>
            <script>\(Self.reloadScript)</script>
            """
        var timing = ""
        if let until {
            timing = " data-until=\"\(InstantFormat.string(from: until))\" data-interval=\"\(Int(interval))\""
        }
        return """
            <!DOCTYPE html>
            <html lang="en"\(timing)>
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(Self.contentSecurityPolicy)">
            \(reload)
            <meta name="referrer" content="no-referrer">
            <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
            <meta name="apple-mobile-web-app-capable" content="yes">
            <meta name="mobile-web-app-capable" content="yes">
            <meta name="apple-mobile-web-app-status-bar-style" content="black-translucent">
            <meta name="apple-mobile-web-app-title" content="kfeed">
            <meta name="theme-color" content="#000000">
            <meta name="color-scheme" content="dark">
            <title>\(escape(title))</title>
            <style>
            \(Self.styleSheet)
            </style>
            </head>
            <body>
            <main class="widget">
            \(body)
            </main>
            </body>
            </html>

            """
    }

    private func escape(_ text: String) -> String { HTMLEscaping.escape(text) }

    /// How often a page that runs no script reloads itself, in seconds: 60 less the seconds a cache may still serve
    /// a copy after it expires (`stale-while-revalidate`). The page expires at the entry's end (an instant, however
    /// many caches pass it on), so a copy is served at the latest that many seconds after the end, and the reload it
    /// asks for comes at most 60 s after the end (the relative delay is never older than that).
    static let fallbackReloadSeconds = 60 - CachePolicy.hourlyStaleSeconds

    /// The page's one script, as the policy hashes it (every byte between `<script>` and `</script>`).
    ///
    /// It reloads 2 s after `data-until` by the device's clock (a clock a little fast then still finds the next
    /// entry). When that is not within the next interval (`data-interval`), because the copy was read past the
    /// entry's end or the device's clock is wrong, or when the page names no end, it reloads after 30–45 s instead,
    /// never in a tight loop: a reload at `data-until` + 2 s that finds the same page again is past that instant, so
    /// it waits. 45 s at most, so that a stale copy a cache may still hand out up to 10 s after the end
    /// (`stale-while-revalidate`) brings the next entry within the minute all the same.
    static let reloadScript = """
        (function () {
          var page = document.documentElement;
          var delay = Date.parse(page.getAttribute('data-until')) + 2000 - Date.now();
          if (!(delay > 0 && delay <= 1000 * Number(page.getAttribute('data-interval')) + 2000)) {
            delay = 30000 + Math.floor(Math.random() * 15000);
          }
          setTimeout(function () { location.reload(); }, delay);
        })();
        """

    /// ``reloadScript``'s SHA-256 as a policy names it: a constant, since the script is one. `ServeCommandTests`
    /// checks it against `sha256sum` of the script as served, so an edit to the script that forgets it fails there
    /// (and in Chromium, which would refuse the script).
    static let scriptHash = "'sha256-Ca5SsJlgW2ZOjisBTT9FBHGgbaXqJEsfaWhx+p1uilo='"

    /// The page's Content-Security-Policy: the preview page's (images from the server, inline styles, nothing else),
    /// and ``reloadScript`` alone by its hash. (A constant with no `"` or `<`, written into the attribute as is.)
    static let contentSecurityPolicy = "\(PreviewPage.contentSecurityPolicy); script-src \(scriptHash)"

    /// `https://x.com/…` (or twitter.com) links only.
    static func postLink(_ url: URL) -> String? {
        guard url.scheme == "https", let host = url.host?.lowercased(),
            ["x.com", "twitter.com", "www.x.com", "mobile.x.com"].contains(host)
        else { return nil }
        return url.absoluteString
    }

    private static let styleSheet = """
        html, body { margin: 0; height: 100%; background: #000; color: #fff; overflow: hidden;
          font: 15px/1.25 -apple-system, system-ui, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK KR",
          "Apple SD Gothic Neo", sans-serif; }
        .widget { position: fixed; inset: 0; }
        .post { display: block; width: 100%; height: 100%; }
        .picture { display: block; width: 100%; height: 100%; object-fit: cover; }
        .missing { background: #222; }
        .caption { position: absolute; left: 0; right: 0; bottom: 0;
          padding: 28px max(14px, env(safe-area-inset-right)) max(14px, env(safe-area-inset-bottom))
          max(14px, env(safe-area-inset-left));
          background: linear-gradient(to top, rgba(0, 0, 0, .78), rgba(0, 0, 0, .45) 70%, transparent); }
        .head { display: flex; align-items: center; gap: 10px; }
        .caption a { color: inherit; text-decoration: none; }
        .caption a:hover, .caption a:focus-visible { text-decoration: underline; }
        .avatar { width: 48px; height: 48px; border-radius: 50%; object-fit: cover; flex: none;
          box-shadow: 0 0 0 2px rgba(255, 255, 255, .85); }
        .who { display: flex; flex-direction: column; min-width: 0; flex: 1; text-shadow: 0 1px 2px #000; }
        .name { font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
        .username { opacity: .85; font-size: 13px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
        .when { display: flex; flex-direction: column; align-items: flex-end; flex: none; text-shadow: 0 1px 2px #000; }
        .posted { display: flex; flex-direction: column; align-items: flex-end; }
        .posted b { font-weight: 600; font-variant-numeric: tabular-nums; }
        .posted .day { font-size: 12px; opacity: .85; }
        .xmark { flex: none; filter: drop-shadow(0 1px 2px #000); }
        .text { margin: 8px 0 0; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 35vh; overflow-y: auto;
          text-shadow: 0 1px 2px #000; }
        .reason { position: absolute; top: 40%; left: 0; right: 0; text-align: center; opacity: .8; }
        .again { position: absolute; top: max(10px, env(safe-area-inset-top)); right: 12px; margin: 0;
          padding: 2px 8px; border-radius: 10px; font-size: 12px; background: rgba(0, 0, 0, .55); opacity: .85; }
        .empty { position: absolute; top: 45%; left: 0; right: 0; text-align: center; padding: 0 20px; }
        """
}

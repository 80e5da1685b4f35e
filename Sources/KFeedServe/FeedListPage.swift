import Foundation
import KFeed

/// `/` with a feeds file: every feed as a card like the preview page's, with its current picture, who posted it and
/// when, and links to its page (`f/NAME/`), its widget and its `current.json`. Links are relative to `/`, the
/// picture's signed when a key is required (never the key itself); everything from outside is HTML-escaped, and the
/// preview page's Content-Security-Policy lets no script run.
struct FeedListPage {
    /// One feed's card.
    struct Card {
        /// The feed's name (`[feeds.NAME]`: a-z, 0-9, `-`, `_`).
        var name: String
        /// The entry it shows now (its last one, stale, when its timeline ran out); nil without one.
        var entry: Manifest.Entry?
        /// The picture's URL relative to `/` (`f/NAME/images/…?v=…`); nil without a picture.
        var picture: String?
        /// Whether the timeline ran out and `entry` is its last.
        var isStale: Bool
    }

    var cards: [Card]
    /// The zone hours are shown in.
    var timeZone: TimeZone

    /// The whole document.
    var html: String {
        let items = cards.map(card).joined(separator: "\n")
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(PreviewPage.contentSecurityPolicy)">
            <meta name="referrer" content="no-referrer">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <meta name="generator" content="kfeed \(escape(KFeedVersion.version))">
            <title>kfeed · \(cards.count) feeds</title>
            <style>
            \(Self.styleSheet)
            </style>
            </head>
            <body>
            <header class="page"><h1>kfeed</h1><p class="facts">\(cards.count) feeds, each under <code>/f/NAME/</code>; \
            the paths outside it serve the first, <b>\(escape(cards.first?.name ?? ""))</b></p></header>
            <main>
            <ul class="grid">
            \(items)
            </ul>
            </main>
            </body>
            </html>

            """
    }

    /// One feed's `<li>`.
    private func card(_ card: Card) -> String {
        let base = "f/\(card.name)/"
        var media = "<div class=\"media missing\">no picture yet</div>"
        if let picture = card.picture {
            let alt = Sanitized.excerpt(card.entry?.media.altText ?? card.entry?.text ?? "", limit: 200)
            media = "<img class=\"media\" src=\"\(escape(picture))\" alt=\"\(escape(alt))\">"
        }
        var who = "no timeline yet: run kfeed refresh"
        if let entry = card.entry {
            let username = Sanitized.excerpt(entry.author.username, limit: 64)
            let name = Sanitized.excerpt(entry.author.name, limit: 80)
            who = "\(escape(name.isEmpty ? "@\(username)" : name)) <span class=\"muted\">@\(escape(username))</span>"
            who += " · <time datetime=\"\(InstantFormat.string(from: entry.date))\">"
            who += "\(ScheduleText(timeZone: timeZone).clockTime(entry.date))</time>"
            if card.isStale { who += " <span class=\"muted\">(the timeline ran out)</span>" }
        }
        return """
            <li class="card"><a class="widget" href="\(base)widget">\(media)</a>
            <div class="body"><h2><a href="\(base)">\(escape(card.name))</a></h2><p>\(who)</p>
            <p class="links"><a href="\(base)widget">widget</a> · <a href="\(base)current.json">current.json</a> · \
            <a href="\(base)">timeline</a></p></div></li>
            """
    }

    private func escape(_ text: String) -> String { HTMLEscaping.escape(text) }

    /// Cards in the preview page's palette, light and dark, system fonts only.
    private static let styleSheet = """
        :root { color-scheme: light dark; --bg: #f3f4f6; --card: #ffffff; --ink: #14171a; --muted: #5f6b7a;
          --line: #e2e6eb; --accent: #1d9bf0; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #0d1014; --card: #181c22; --ink: #e7e9ea; --muted: #9aa4b0; --line: #2a3038; --accent: #4cb3ff; }
        }
        body { margin: 0; background: var(--bg); color: var(--ink);
          font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK KR", sans-serif; }
        header.page, main { max-width: 1240px; margin: 0 auto; padding: 24px 24px 0; }
        h1 { font-size: 22px; margin: 0 0 8px; }
        .facts, .muted { color: var(--muted); }
        code { font: 12px ui-monospace, "DejaVu Sans Mono", monospace; background: var(--line); padding: 1px 6px;
          border-radius: 5px; }
        .grid { list-style: none; margin: 0; padding: 0 0 24px; display: grid; gap: 20px;
          grid-template-columns: repeat(auto-fill, minmax(min(340px, 100%), 340px)); }
        .card { background: var(--card); border-radius: 20px; overflow: hidden; box-shadow: 0 0 0 1px var(--line); }
        .widget { display: block; aspect-ratio: 1; background: var(--line); }
        .media { display: block; width: 100%; height: 100%; object-fit: cover; }
        .missing { display: grid; place-items: center; color: var(--muted); }
        .body { padding: 12px 16px 14px; }
        h2 { font-size: 17px; margin: 0 0 4px; }
        a { color: var(--accent); text-decoration: none; }
        .body p { margin: 0 0 4px; overflow-wrap: anywhere; }
        """
}

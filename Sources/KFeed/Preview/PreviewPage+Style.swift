extension PreviewPage {
    /// The page's only style sheet (inline, as the Content-Security-Policy allows): a responsive grid of cards
    /// whose widget area is exactly the widget's size in CSS pixels (`--w` × `--h`), light and dark palettes,
    /// system fonts only.
    static let styleSheet = """
        :root {
          color-scheme: light dark;
          --bg: #f3f4f6; --card: #ffffff; --ink: #14171a; --muted: #5f6b7a; --line: #e2e6eb;
          --accent: #1d9bf0; --accent-ink: #ffffff; --chip: rgba(15, 20, 25, .62);
          --shadow: 0 1px 2px rgba(16, 24, 40, .06), 0 6px 16px rgba(16, 24, 40, .07);
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --bg: #0d1014; --card: #181c22; --ink: #e7e9ea; --muted: #9aa4b0; --line: #2a3038;
            --accent: #4cb3ff; --accent-ink: #06121c; --chip: rgba(0, 0, 0, .6); --shadow: none;
          }
        }
        * { box-sizing: border-box; }
        html { -webkit-text-size-adjust: 100%; }
        body {
          margin: 0; background: var(--bg); color: var(--ink);
          font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK KR",
            "Apple SD Gothic Neo", "Liberation Sans", sans-serif, "Noto Color Emoji", "Apple Color Emoji";
        }
        header.page, main, footer { max-width: 1240px; margin: 0 auto; padding-left: 24px; padding-right: 24px; }
        header.page { padding-top: 24px; padding-bottom: 4px; }
        h1 { font-size: 22px; line-height: 1.2; margin: 0 0 10px; letter-spacing: -.01em; }
        .facts { display: flex; flex-wrap: wrap; gap: 6px 22px; margin: 0; color: var(--muted); font-size: 13px; }
        .facts div { display: flex; gap: 6px; align-items: baseline; min-width: 0; }
        .facts dt { font-weight: 600; color: var(--ink); }
        .facts dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
        .facts time b { font-weight: 600; color: var(--ink); }
        .facts .day::before { content: "· "; }
        code {
          font: 12px/1.4 ui-monospace, "DejaVu Sans Mono", monospace; background: var(--line);
          padding: 1px 6px; border-radius: 5px; overflow-wrap: anywhere;
        }
        main { padding-top: 18px; padding-bottom: 24px; }
        .grid {
          list-style: none; margin: 0; padding: 0; display: grid; gap: 20px; justify-content: start;
          grid-template-columns: repeat(auto-fill, minmax(min(var(--w), 100%), var(--w)));
        }
        .card {
          width: var(--w); max-width: 100%; background: var(--card); border-radius: 20px; overflow: hidden;
          box-shadow: 0 0 0 1px var(--line), var(--shadow); display: flex; flex-direction: column;
        }
        .card.is-current { box-shadow: 0 0 0 3px var(--accent), var(--shadow); }
        .card.is-past { opacity: .5; }
        .card.is-past .media { filter: grayscale(.7); }
        .widget {
          position: relative; width: var(--w); max-width: 100%; aspect-ratio: var(--ratio);
          background: var(--line); overflow: hidden;
        }
        .widget .media { display: block; width: 100%; height: 100%; object-fit: cover; }
        .widget .missing { display: grid; place-items: center; color: var(--muted); font-size: 13px; }
        .state {
          position: absolute; top: 8px; left: 8px; padding: 2px 9px; border-radius: 999px;
          background: var(--chip); color: #fff; font-size: 11px; font-weight: 600; letter-spacing: .02em;
        }
        .is-current .state { background: var(--accent); color: var(--accent-ink); }
        .again {
          position: absolute; top: 8px; right: 8px; padding: 2px 9px; border-radius: 999px;
          background: var(--chip); color: #fff; font-size: 11px; font-weight: 600; opacity: .85;
        }
        .placeholder-note {
          position: absolute; left: 8px; right: 8px; bottom: 8px; margin: 0; padding: 6px 9px; border-radius: 10px;
          background: var(--chip); color: #fff; font-size: 12px; line-height: 1.3; display: flex; flex-direction: column;
        }
        .placeholder-note strong { font-size: 11px; text-transform: uppercase; letter-spacing: .06em; opacity: .8; }
        .meta { padding: 10px 12px 12px; display: flex; flex-direction: column; gap: 7px; min-width: 0; flex: 1; }
        .when { color: var(--muted); font-size: 12px; display: flex; flex-wrap: wrap; align-items: baseline; gap: 0 5px; }
        .when b { color: var(--ink); font-size: 16px; font-weight: 700; letter-spacing: -.01em; }
        .when .day { flex-basis: 100%; font-size: 11px; }
        .author { display: flex; align-items: center; gap: 8px; min-width: 0; }
        .avatar { width: 28px; height: 28px; border-radius: 50%; flex: none; background: var(--line); }
        .who { display: flex; flex-direction: column; min-width: 0; line-height: 1.25; }
        .name, .username { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
        .name { font-weight: 600; font-size: 13px; }
        .username { color: var(--muted); font-size: 12px; }
        .text { margin: 0; font-size: 13px; overflow-wrap: anywhere; white-space: pre-wrap; }
        a.who { color: inherit; text-decoration: none; }
        a.who:hover .name, a.who:focus-visible .name { text-decoration: underline; }
        .posted { margin: 0; color: var(--muted); font-size: 12px; }
        .posted .xmark { color: var(--ink); vertical-align: -1px; }
        .posted a { color: inherit; }
        .link { margin-top: auto; font-size: 12px; font-weight: 600; color: var(--accent); text-decoration: none; }
        .link:hover, .link:focus-visible { text-decoration: underline; }
        .nolink { color: var(--muted); font-weight: 400; }
        .empty { color: var(--muted); font-size: 15px; }
        footer { padding-top: 4px; padding-bottom: 28px; color: var(--muted); font-size: 12px; }
        @media (max-width: 420px) {
          header.page, main, footer { padding-left: 12px; padding-right: 12px; }
        }
        """
}

import CKFeedText
import Foundation
import KFeedBase

/// The font stack of captions: fontconfig lists the installed fonts by closeness to `sans-serif` (bold or
/// regular), each character takes the first font that covers it, HarfBuzz shapes each run of one font and one
/// direction, and FreeType rasterises the glyphs.
///
/// Bidirectional text is handled per run: a run of right-to-left script (Arabic, Hebrew, Syriac, Thaana, N'Ko…)
/// is shaped right to left, neutral characters (spaces, punctuation, digits) join the run before them, and a line
/// whose first strong character is right to left lays its runs out from the right. That is the Unicode
/// bidirectional algorithm's answer for names with one direction, and a close one for mixed names; the full
/// algorithm (FriBidi) is not used.
///
/// A line is drawable only when every character has a font and every shaped glyph is a real glyph (never
/// `.notdef`, glyph 0); otherwise ``layout(_:pixelSize:bold:maxWidth:)`` returns `nil` and the caller shows
/// something else, so no tofu box is ever drawn.
///
/// The libraries are loaded on first use. All state (the FreeType library, open faces, fontconfig's lists) is
/// behind one lock: FreeType faces are not thread-safe, and captions are small next to the picture.
package final class FontStack: @unchecked Sendable {  // every mutable member is used only while `lock` is held
    /// The process's font stack, or why there is none (a missing library, no fonts).
    static let shared: Result<FontStack, KFeedError> = Result { () throws(KFeedError) -> FontStack in
        try FontStack()
    }

    /// A font fontconfig listed: its file, face index and the characters it covers.
    private struct Candidate {
        var path: String
        var index: Int
        var charset: OpaquePointer
    }

    private let lock = NSLock()
    private let library: OpaquePointer
    private let config: OpaquePointer
    private var candidates: [Bool: [Candidate]] = [:]
    private var fontSets: [UnsafeMutablePointer<FcFontSet>] = []
    private var faces: [FontFace] = []
    private var faceIndex: [String: Int] = [:]

    private init() throws(KFeedError) {
        let libraries: [(kfeed_text_library, String, String)] = [
            (KFEED_FONTCONFIG, "libfontconfig.so.1", "libfontconfig1"),
            (KFEED_FREETYPE, "libfreetype.so.6", "libfreetype6"),
            (KFEED_HARFBUZZ, "libharfbuzz.so.0", "libharfbuzz0b"),
        ]
        for (library, file, package) in libraries where kfeed_text_available(library) == 0 {
            throw KFeedError(.configuration, "captions need \(file): install the Debian package \(package)")
        }
        guard let config = kfeed_fc_init_load_config_and_fonts() else {
            throw KFeedError(.configuration, "fontconfig could not load its configuration: install fontconfig-config")
        }
        var library: OpaquePointer?
        let status = kfeed_ft_init(&library)
        guard status == 0, let library else {
            throw KFeedError(.configuration, "FreeType could not start (error \(status))")
        }
        self.config = config
        self.library = library
    }

    deinit {
        faces.removeAll()
        for set in fontSets { kfeed_fc_font_set_destroy(set) }
        _ = kfeed_ft_done(library)
    }

    /// Shapes `text` at `pixelSize` (pixels per em) on one line no wider than `maxWidth` pixels, shortening it
    /// with `…` at its logical end when it does not fit; `nil` when no installed font can draw all of it.
    func layout(_ text: String, pixelSize: Int, bold: Bool, maxWidth: Float) -> TextLine? {
        lock.withLock {
            guard let line = unlockedLayout(text, pixelSize: pixelSize, bold: bold) else { return nil }
            guard line.width > maxWidth else { return line }
            // The longest prefix that fits with "…" after it (widths grow with the prefix): binary search.
            let characters = Array(text)
            func shortened(_ count: Int) -> TextLine? {
                var prefix = characters[..<count]
                while prefix.last?.isWhitespace == true { prefix.removeLast() }
                let line = unlockedLayout(String(prefix) + "…", pixelSize: pixelSize, bold: bold)
                return line.map {
                    TextLine(
                        glyphs: $0.glyphs,
                        width: $0.width,
                        pixelSize: $0.pixelSize,
                        text: $0.text,
                        isEllipsised: true
                    )
                }
            }
            guard var best = shortened(0) else { return nil }
            var low = 1
            var high = characters.count - 1
            while low <= high {
                let middle = (low + high) / 2
                guard let candidate = shortened(middle) else { return nil }
                if candidate.width <= maxWidth {
                    best = candidate
                    low = middle + 1
                } else {
                    high = middle - 1
                }
            }
            return best
        }
    }

    /// Draws `line` with its left edge at `x` and its baseline at `baseline`.
    func draw(_ line: TextLine, x: Float, baseline: Float, colour: RenderCanvas.Colour, on canvas: inout RenderCanvas) {
        lock.withLock {
            for glyph in line.glyphs {
                faces[glyph.face].draw(
                    glyph: glyph.glyph,
                    pixelSize: line.pixelSize,
                    x: x + glyph.x,
                    baseline: baseline - glyph.yOffset,
                    colour: colour,
                    on: &canvas
                )
            }
        }
    }

    /// The file of the face that draws the first glyph of `line`; for tests.
    func fontPath(of line: TextLine) -> String? {
        lock.withLock { line.glyphs.first.map { faces[$0.face].path } }
    }

    // MARK: - Layout (lock held)

    private enum Direction { case leftToRight, rightToLeft }

    private struct Run {
        var candidate: Int
        var direction: Direction
        var text: String
    }

    private func unlockedLayout(_ text: String, pixelSize: Int, bold: Bool) -> TextLine? {
        let fonts = candidateList(bold: bold)
        // Each character: the first font covering it, and its direction when it is strong.
        var assigned: [(character: Character, candidate: Int, direction: Direction?)] = []
        for character in text {
            let needed = character.unicodeScalars.filter { !Self.isDefaultIgnorable($0) }
            guard
                let candidate = fonts.firstIndex(where: { font in
                    needed.allSatisfy { kfeed_fc_charset_has_char(font.charset, $0.value) != 0 }
                })
            else { return nil }
            assigned.append((character, candidate, Self.direction(of: character)))
        }
        let paragraph = assigned.lazy.compactMap(\.direction).first ?? .leftToRight
        // Neutrals take the direction before them (or after them at the start, or the paragraph's).
        var resolved: [Direction] = []
        var previous: Direction? = nil
        for (index, item) in assigned.enumerated() {
            if let direction = item.direction {
                previous = direction
                resolved.append(direction)
            } else {
                let following = assigned[index...].lazy.compactMap(\.direction).first
                resolved.append(previous ?? following ?? paragraph)
            }
        }
        var runs: [Run] = []
        for (index, item) in assigned.enumerated() {
            if let last = runs.last, last.candidate == item.candidate, last.direction == resolved[index] {
                runs[runs.count - 1].text.append(item.character)
            } else {
                runs.append(Run(candidate: item.candidate, direction: resolved[index], text: String(item.character)))
            }
        }
        if paragraph == .rightToLeft { runs.reverse() }

        var glyphs: [TextLine.Glyph] = []
        var pen: Float = 0
        for run in runs {
            guard let face = face(for: fonts[run.candidate]),
                let shaped = faces[face].shape(
                    run.text,
                    pixelSize: pixelSize,
                    isRightToLeft: run.direction == .rightToLeft
                )
            else { return nil }
            for glyph in shaped {
                guard glyph.glyph != 0 else { return nil }  // .notdef: this font cannot draw it after all
                glyphs.append(
                    TextLine.Glyph(face: face, glyph: glyph.glyph, x: pen + glyph.xOffset, yOffset: glyph.yOffset)
                )
                pen += glyph.xAdvance
            }
        }
        return TextLine(glyphs: glyphs, width: pen, pixelSize: pixelSize, text: text, isEllipsised: false)
    }

    /// The installed fonts by closeness to `sans-serif` in the weight asked for (fontconfig's `FcFontSort`).
    private func candidateList(bold: Bool) -> [Candidate] {
        if let cached = candidates[bold] { return cached }
        var list: [Candidate] = []
        if let pattern = kfeed_fc_name_parse(bold ? "sans-serif:weight=bold" : "sans-serif") {
            defer { kfeed_fc_pattern_destroy(pattern) }
            _ = kfeed_fc_config_substitute(config, pattern)
            kfeed_fc_default_substitute(pattern)
            var result = FcResultMatch
            if let set = kfeed_fc_font_sort(config, pattern, 1, &result) {
                fontSets.append(set)
                for index in 0..<Int(set.pointee.nfont) {
                    guard let font = set.pointee.fonts[index] else { continue }
                    var file: UnsafePointer<CChar>?
                    var faceNumber: Int32 = 0
                    var charset: OpaquePointer?
                    guard kfeed_fc_pattern_get_file(font, &file) == FcResultMatch, let file,
                        kfeed_fc_pattern_get_charset(font, &charset) == FcResultMatch, let charset
                    else { continue }
                    _ = kfeed_fc_pattern_get_index(font, &faceNumber)
                    list.append(Candidate(path: String(cString: file), index: Int(faceNumber), charset: charset))
                }
            }
        }
        candidates[bold] = list
        return list
    }

    private func face(for candidate: Candidate) -> Int? {
        let key = "\(candidate.path)#\(candidate.index)"
        if let index = faceIndex[key] { return index }
        guard let face = try? FontFace(library: library, path: candidate.path, index: candidate.index) else {
            return nil
        }
        faces.append(face)
        faceIndex[key] = faces.count - 1
        return faces.count - 1
    }

    // MARK: - Characters

    /// Format and variation characters fonts need not map (ZWJ, ZWNJ, bidi marks, variation selectors, tags).
    static func isDefaultIgnorable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00AD, 0x034F, 0x061C, 0x180B...0x180F, 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x206F,
            0xFE00...0xFE0F, 0xFEFF, 0xE0000...0xE0FFF:
            true
        default: false
        }
    }

    /// Whether a line of `text` reads from the right: its first strong character is right to left.
    static func isRightToLeft(_ text: String) -> Bool {
        text.lazy.compactMap { direction(of: $0) }.first == .rightToLeft
    }

    /// The direction of a strong character, `nil` for neutrals (spaces, punctuation, digits, symbols).
    private static func direction(of character: Character) -> Direction? {
        guard let scalar = character.unicodeScalars.first else { return nil }
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF:
            return scalar.properties.numericType == nil ? .rightToLeft : nil
        default:
            return scalar.properties.isAlphabetic ? .leftToRight : nil
        }
    }
}

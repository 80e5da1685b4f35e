import Foundation
public import KFeedBase

/// What an e-ink panel or photo frame is sent: its exact pixel size, palette and file format (`--profile P`).
///
/// The presets are the panels of the contract (``trmnl``, ``trmnlBMP``, ``trmnlGrey4``, ``trmnlX``, ``grey4``,
/// ``inky7``, ``spectra6``, ``spectra6Large``, ``inkplate``, ``inkplate10``, ``inkplate6Plus``, ``frame``);
/// `WxH:KIND[:FORMAT]` describes any other panel. Parse user input with ``init(parsing:)``.
public struct DisplayProfile: Sendable, Hashable, CustomStringConvertible {
    /// The pixels a panel can show.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        /// 1-bit black and white, Floyd–Steinberg dithered.
        case mono
        /// 4 greys: 0, 85, 170, 255.
        case grey4
        /// 16 greys: 0, 17, …, 255 (in a JPEG: any grey, the panel quantises).
        case grey16
        /// The 7 colours of a 7-colour ACeP panel (Pimoroni Inky Impression 7.3"'s saturated palette).
        case color7
        /// The 6 inks of an E Ink Spectra 6 panel (black, white, yellow, red, blue, green), dithered against the
        /// inks as the panel shows them (see `DisplayPalette.spectra6`).
        case spectra6
        /// Full colour.
        case rgb

        /// Whether every pixel is one palette colour (everything but `rgb`).
        package var isPalette: Bool { self != .rgb }
    }

    /// The file a render is written as.
    package enum Format: String, Sendable, Hashable, CaseIterable {
        /// PNG at the kind's bit depth: 1-bit grey, 2-bit grey, 4-bit grey, 4-bit palette, or 8-bit RGB.
        case png
        /// Windows BMP (BITMAPINFOHEADER, bottom-up): 1-bit for `mono`, 4-bit palette for greys and colours.
        case bmp
        /// Baseline JPEG (never progressive): greyscale for `grey16`, 4:2:0 colour for `rgb`.
        case jpeg = "jpg"

        /// The file name extension, without the dot.
        package var fileExtension: String { rawValue }
    }

    /// The name the profile was parsed from, lowercased (`trmnl`, `800x480:mono:png` …): the manifest's key.
    public var name: String
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// The pixels the panel shows.
    package var kind: Kind
    /// The file format.
    package var format: Format
    /// The panel's limit on a file, in bytes, when it has one: a render is always smaller (TRMNL's firmware draws a
    /// PNG only when it is under its board's limit).
    public var maxBytes: Int?
    /// The JPEG quality, 1…100, for JPEG formats.
    public var jpegQuality: Int

    /// TRMNL OG: 800×480 1-bit black and white PNG, under 90,000 bytes.
    public static let trmnl = DisplayProfile(
        name: "trmnl",
        width: 800,
        height: 480,
        kind: .mono,
        format: .png,
        maxBytes: 90_000
    )
    /// TRMNL firmware's BMP: 800×480 1-bit BMP3, exactly 48,062 bytes.
    public static let trmnlBMP = DisplayProfile(name: "trmnl-bmp", width: 800, height: 480, kind: .mono, format: .bmp)
    /// TRMNL OG in its 2-bit mode: 800×480 in 4 greys (0, 85, 170, 255) as a 2-bit greyscale PNG, under 90,000
    /// bytes (the ESP32-C3 boards' limit; 2 bits of noise would be 96,000 bytes, so the cap can bite here).
    public static let trmnlGrey4 = DisplayProfile(
        name: "trmnl-grey4",
        width: 800,
        height: 480,
        kind: .grey4,
        format: .png,
        maxBytes: 90_000
    )
    /// TRMNL X: 1872×1404 in 16 greys as a 4-bit greyscale PNG, under 750,000 bytes.
    public static let trmnlX = DisplayProfile(
        name: "trmnl-x",
        width: 1_872,
        height: 1_404,
        kind: .grey16,
        format: .png,
        maxBytes: 750_000
    )
    /// A 4-grey e-paper panel: 800×480, greys 0, 85, 170, 255, as a 2-bit PNG.
    public static let grey4 = DisplayProfile(name: "grey4", width: 800, height: 480, kind: .grey4, format: .png)
    /// Pimoroni Inky Impression 7.3": 800×480 in its 7 colours, as a palette PNG whose indices are Inky's.
    public static let inky7 = DisplayProfile(name: "inky7", width: 800, height: 480, kind: .color7, format: .png)
    /// E Ink Spectra 6 at 800×480 (Pimoroni Inky Impression 7.3" Spectra, Seeed reTerminal E1002): a 4-bit palette
    /// PNG whose indices are Inky's (0 black, 1 white, 2 yellow, 3 red, 4 blue, 5 green).
    public static let spectra6 = DisplayProfile(
        name: "spectra6",
        width: 800,
        height: 480,
        kind: .spectra6,
        format: .png
    )
    /// E Ink Spectra 6 at 1600×1200 (Pimoroni Inky Impression 13.3"), indices as ``spectra6``.
    public static let spectra6Large = DisplayProfile(
        name: "spectra6-13",
        width: 1_600,
        height: 1_200,
        kind: .spectra6,
        format: .png
    )
    /// Inkplate 6: 800×600 greys as a baseline greyscale JPEG (the device decodes no progressive JPEG).
    public static let inkplate = DisplayProfile(
        name: "inkplate",
        width: 800,
        height: 600,
        kind: .grey16,
        format: .jpeg,
        jpegQuality: 90
    )
    /// Inkplate 10: 1200×825 greys (its 3-bit mode shows 8), as a baseline greyscale JPEG like ``inkplate``.
    public static let inkplate10 = DisplayProfile(
        name: "inkplate10",
        width: 1_200,
        height: 825,
        kind: .grey16,
        format: .jpeg,
        jpegQuality: 90
    )
    /// Inkplate 6PLUS: 1024×758 greys (its 3-bit mode shows 8), as a baseline greyscale JPEG like ``inkplate``.
    public static let inkplate6Plus = DisplayProfile(
        name: "inkplate6plus",
        width: 1_024,
        height: 758,
        kind: .grey16,
        format: .jpeg,
        jpegQuality: 90
    )
    /// A photo frame or Home Assistant: 1280×800 full colour, baseline JPEG at quality 85.
    public static let frame = DisplayProfile(name: "frame", width: 1_280, height: 800, kind: .rgb, format: .jpeg)

    /// The named presets, in the order of the contract's table.
    public static let presets: [DisplayProfile] = [
        .trmnl, .trmnlBMP, .trmnlGrey4, .trmnlX, .grey4, .inky7, .spectra6, .spectra6Large, .inkplate, .inkplate10,
        .inkplate6Plus, .frame,
    ]

    /// Accepted sides, in pixels.
    public static let sideRange = 16...4_096

    /// Creates a profile without checking the kind/format combination; use ``init(parsing:)`` for user input.
    package init(
        name: String,
        width: Int,
        height: Int,
        kind: Kind,
        format: Format,
        maxBytes: Int? = nil,
        jpegQuality: Int = 85
    ) {
        self.name = name
        self.width = width
        self.height = height
        self.kind = kind
        self.format = format
        self.maxBytes = maxBytes
        self.jpegQuality = jpegQuality
    }

    /// Parses a preset name or `WxH:KIND[:FORMAT]` (KIND `mono`, `grey4`, `grey16`, `color7`, `spectra6`, `rgb`; FORMAT
    /// `png`, `bmp`, `jpg`; the default format is `png`, `jpg` for `rgb`). Sides are 16…4096 pixels.
    /// - Throws: `KFeedError` with code `.usage` and one line saying what to write instead.
    public init(parsing text: String) throws(KFeedError) {
        let lowered = text.lowercased()
        if let preset = Self.presets.first(where: { $0.name == lowered }) {
            self = preset
            return
        }
        let parts = lowered.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        let presetNames = Self.presets.map(\.name).joined(separator: ", ")
        guard (2...3).contains(parts.count) else {
            throw KFeedError(.usage, "unknown display profile '\(text)': use \(presetNames) or WxH:KIND[:FORMAT]")
        }
        let sides = parts[0].split(separator: "x", omittingEmptySubsequences: false)
        guard sides.count == 2, let width = Int(sides[0]), let height = Int(sides[1]),
            Self.sideRange.contains(width), Self.sideRange.contains(height)
        else {
            throw KFeedError(
                .usage,
                "bad size '\(parts[0])' in display profile '\(text)': write WxH with sides of 16 to 4096 pixels"
            )
        }
        guard let kind = Kind(rawValue: parts[1]) else {
            let kinds = Kind.allCases.map(\.rawValue).joined(separator: ", ")
            throw KFeedError(.usage, "unknown kind '\(parts[1])' in display profile '\(text)': use one of \(kinds)")
        }
        let format: Format
        if parts.count == 3 {
            guard let parsed = Format(rawValue: parts[2] == "jpeg" ? "jpg" : parts[2]) else {
                throw KFeedError(
                    .usage,
                    "unknown format '\(parts[2])' in display profile '\(text)': use png, bmp or jpg"
                )
            }
            format = parsed
        } else {
            format = kind == .rgb ? .jpeg : .png
        }
        if let problem = Self.problem(kind: kind, format: format, size: parts[0]) {
            throw KFeedError(.usage, "display profile '\(text)': \(problem)")
        }
        self.init(name: lowered, width: width, height: height, kind: kind, format: format)
    }

    /// Why `kind` cannot be written as `format`, and what to write instead; `nil` when it can.
    static func problem(kind: Kind, format: Format, size: String) -> String? {
        switch (kind, format) {
        case (.rgb, .bmp):
            "BMP renders are 1-bit or palette only; write \(size):rgb:jpg or \(size):rgb:png"
        case (.mono, .jpeg), (.grey4, .jpeg), (.color7, .jpeg), (.spectra6, .jpeg):
            "JPEG cannot keep a \(kind.rawValue) palette exact; write \(size):\(kind.rawValue):png"
                + (kind == .mono ? " or \(size):mono:bmp" : "")
        default: nil
        }
    }

    /// The profile's part of a render's file name, `renders/<media key>-<pathComponent>.<ext>`: the name, with
    /// `:` (in `WxH:KIND:FORMAT`) written as `-`, so the name is safe in a URL path and on any file system.
    package var pathComponent: String { name.replacingOccurrences(of: ":", with: "-") }

    /// The file name extension of renders, without the dot (`png`, `bmp`, `jpg`).
    package var fileExtension: String { format.fileExtension }

    /// The pixel size the source image should have at least: the panel's size. Fetch the smallest rendition
    /// whose sides both cover it after a centre crop; smaller sources are upscaled, which looks soft.
    package var sourceSize: ImageSize { ImageSize(width: width, height: height) }

    /// Whether renders are error-diffused to a palette (PNG and BMP of every kind but `rgb`).
    package var isDithered: Bool { kind.isPalette && format != .jpeg }

    public var description: String { name }
}

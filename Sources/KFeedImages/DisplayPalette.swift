/// The exact colours of a palette kind, in the order of the file's indices.
package struct DisplayPalette: Sendable, Equatable {
    /// sRGB colours written in the file's colour table (`PLTE`, the BMP table); a render's pixel index `i` is
    /// `colours[i]` in the file.
    var colours: [SIMD3<UInt8>]
    /// The same inks as the panel shows them, in the same order: what the ditherer matches against. Equal to
    /// `colours` unless the panel's measured inks differ from the colours its driver expects in a file.
    var inks: [SIMD3<UInt8>]
    /// Whether every colour is a grey evenly spaced from black to white (index `i` = `i × 255 / (count − 1)`).
    var isEvenGreys: Bool
    /// Whether the picture's white is first mapped to the paper's white (``inks``' white, duller than sRGB white),
    /// so the picture keeps its tones relative to the paper instead of every light tone becoming plain paper.
    var mapsWhiteToPaper = false

    /// A palette whose file colours are the inks as shown.
    init(colours: [SIMD3<UInt8>], isEvenGreys: Bool) {
        self.colours = colours
        self.inks = colours
        self.isEvenGreys = isEvenGreys
    }

    /// A palette whose file colours (what the driver reads) differ from the measured inks (what the panel shows).
    init(colours: [SIMD3<UInt8>], inks: [SIMD3<UInt8>], mapsWhiteToPaper: Bool) {
        precondition(colours.count == inks.count, "one ink per colour")
        self.colours = colours
        self.inks = inks
        self.isEvenGreys = false
        self.mapsWhiteToPaper = mapsWhiteToPaper
    }

    /// `count` evenly spaced greys from black to white.
    static func greys(_ count: Int) -> DisplayPalette {
        DisplayPalette(
            colours: (0..<count).map { index in
                let value = UInt8(index * 255 / (count - 1))
                return SIMD3(value, value, value)
            },
            isEvenGreys: true
        )
    }

    /// Pimoroni Inky Impression 7.3" (AC073TC1A): `SATURATED_PALETTE` of Pimoroni's `inky` library
    /// (`inky/inky_ac073tc1a.py`), in the panel's own index order, so a palette PNG's index is the colour the
    /// panel draws: black, white, green, blue, red, yellow, orange. These are measured panel colours, not
    /// pure primaries, so dithering to them predicts what the panel shows.
    static let inky7 = DisplayPalette(
        colours: [
            SIMD3(0, 0, 0),  // black
            SIMD3(217, 242, 255),  // white
            SIMD3(3, 124, 76),  // green
            SIMD3(27, 46, 198),  // blue
            SIMD3(245, 80, 34),  // red
            SIMD3(255, 255, 68),  // yellow
            SIMD3(239, 121, 44),  // orange
        ],
        isEvenGreys: false
    )

    /// E Ink Spectra 6 (Inky Impression 7.3" and 13.3" Spectra, reTerminal E1002), in the index order of
    /// Pimoroni's `inky` Python library for these panels: 0 black, 1 white, 2 yellow, 3 red, 4 blue, 5 green (the
    /// library turns these into the controller's codes itself).
    ///
    /// The file's colours are the pure inks that library expects in a 6-colour palette image. The inks dithered
    /// against are the panel's measured colours, published in the same library (its saturated palette, the same
    /// numbers for both panels): white (161, 164, 165), yellow (208, 190, 71), red (156, 72, 75), blue (61, 59, 94),
    /// green (58, 91, 70), black (0, 0, 0). Sources and index order in `docs/renders.md`, "spectra6 palette".
    static let spectra6 = DisplayPalette(
        colours: [
            SIMD3(0, 0, 0),  // black
            SIMD3(255, 255, 255),  // white
            SIMD3(255, 255, 0),  // yellow
            SIMD3(255, 0, 0),  // red
            SIMD3(0, 0, 255),  // blue
            SIMD3(0, 255, 0),  // green
        ],
        inks: [
            SIMD3(0, 0, 0),  // black
            SIMD3(161, 164, 165),  // white: the paper is a light grey
            SIMD3(208, 190, 71),  // yellow
            SIMD3(156, 72, 75),  // red
            SIMD3(61, 59, 94),  // blue
            SIMD3(58, 91, 70),  // green
        ],
        mapsWhiteToPaper: true
    )

    /// The palette of a palette kind; `nil` for `rgb`.
    static func of(_ kind: DisplayProfile.Kind) -> DisplayPalette? {
        switch kind {
        case .mono: .greys(2)
        case .grey4: .greys(4)
        case .grey16: .greys(16)
        case .color7: .inky7
        case .spectra6: .spectra6
        case .rgb: nil
        }
    }

    /// Bits per index in a PNG or BMP: 1 for 2 colours, 2 for 4, 4 for up to 16.
    var bitDepth: Int {
        switch colours.count {
        case ...2: 1
        case ...4: 2
        default: 4
        }
    }
}

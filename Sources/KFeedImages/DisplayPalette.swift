/// The exact colours of a palette kind, in the order of the file's indices.
package struct DisplayPalette: Sendable, Equatable {
    /// sRGB colours; a render's pixel index `i` shows `colours[i]`.
    var colours: [SIMD3<UInt8>]
    /// Whether every colour is a grey evenly spaced from black to white (index `i` = `i × 255 / (count − 1)`).
    var isEvenGreys: Bool

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

    /// The palette of a palette kind; `nil` for `rgb`.
    static func of(_ kind: DisplayProfile.Kind) -> DisplayPalette? {
        switch kind {
        case .mono: .greys(2)
        case .grey4: .greys(4)
        case .grey16: .greys(16)
        case .color7: .inky7
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

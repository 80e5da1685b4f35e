import Foundation

/// A colour in OKLab (Björn Ottosson, 2020): lightness 0…1 and two opponent axes, about −0.4…0.4.
struct OKLab: Sendable, Hashable {
    var l: Double
    var a: Double
    var b: Double

    /// Converts a colour in linear light (sRGB primaries, 0…1 a channel).
    init(linearRed red: Float, green: Float, blue: Float) {
        let (r, g, b) = (Double(red), Double(green), Double(blue))
        let long = Self.cubeRoot(0.412_221_470_8 * r + 0.536_332_536_3 * g + 0.051_445_992_9 * b)
        let medium = Self.cubeRoot(0.211_903_498_2 * r + 0.680_699_545_1 * g + 0.107_396_956_6 * b)
        let short = Self.cubeRoot(0.088_302_461_9 * r + 0.281_718_837_6 * g + 0.629_978_700_5 * b)
        self.l = 0.210_454_255_3 * long + 0.793_617_785_0 * medium - 0.004_072_046_8 * short
        self.a = 1.977_998_495_1 * long - 2.428_592_205_0 * medium + 0.450_593_709_9 * short
        self.b = 0.025_904_037_1 * long + 0.782_771_766_2 * medium - 0.808_675_766_0 * short
    }

    /// The cube root of `x` (0 or more), within a few ulps of the C library's `cbrt` (4 at most over the light levels
    /// a signature's cells take: `OKLabTests`) and about twice as fast: the exponent divided by three in the bits, two
    /// of Halley's steps and one of Newton's. A signature takes over 16,000 of them; its bytes are as with `cbrt`.
    @inline(__always)
    static func cubeRoot(_ x: Double) -> Double {
        guard x > 0 else { return 0 }
        var root = Double(bitPattern: x.bitPattern / 3 &+ 0x2A9F_7893_782D_A1CE)
        for _ in 0..<2 {
            let cube = root * root * root
            root *= (cube + 2 * x) / (2 * cube + x)
        }
        return root - (root * root * root - x) / (3 * root * root)
    }

    /// sRGB's transfer function undone, for each byte.
    static let linearTable: [Float] = (0...255).map { byte in
        let value = Double(byte) / 255
        return Float(value <= 0.040_45 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4))
    }
}

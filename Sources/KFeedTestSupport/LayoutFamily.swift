import Foundation

/// Families of pictures that share one composition and differ in colour and content, as a teaser series or a
/// fan-sign set does: distinct pictures to a viewer that a grey layout hash calls alike. Tests and the repost
/// benchmark use them for the side of repost detection that must never fire.
package enum LayoutFamily: String, CaseIterable, Sendable {
    /// The bundled sample's look: a vertical gradient, seven spotlight discs, a figure, a stage panel below.
    case stage
    /// A seeded tint over one gradient, split in two at a seeded height, with a seeded band of small shapes.
    case tint

    /// RGB pixels of member `seed` of the family, `width`×`height`.
    package func picture(seed: Int, width: Int, height: Int) -> [UInt8] {
        var random = SeededRandom(seed: UInt64(truncatingIfNeeded: seed) &+ (self == .stage ? 0 : 1 << 32))
        var canvas = Canvas(width: width, height: height)
        switch self {
        case .stage:
            let top = random.colour()
            let bottom = random.colour()
            canvas.gradient(from: top, to: bottom)
            let light = random.colour()
            for disc in 0..<7 {
                // The spotlights' places are the composition's; only their colour is the member's.
                let x = Double((disc * 97 + 53) % 544) / 544
                let y = Double((disc * 61 + 29) % 340) / 680
                canvas.disc(x: x, y: y, radius: Double(30 + (disc * 17) % 60) / 680, colour: light)
            }
            let figure = random.colour()
            let offset = random.unit() * 0.2 - 0.1
            canvas.disc(x: 0.5 + offset, y: 0.42, radius: 0.09, colour: figure)
            canvas.rectangle(x: 0.38 + offset, y: 0.5, width: 0.24, height: 0.25, colour: figure)
            canvas.rectangle(x: 0.25, y: 0.72, width: 0.5, height: 0.28, colour: random.colour())
        case .tint:
            let tint = random.colour()
            let split = 0.3 + random.unit() * 0.4
            canvas.gradient(from: tint, to: TestJPEG.Colour(250, 250, 250), rows: 0...split)
            canvas.gradient(from: random.colour(), to: tint, rows: split...1)
            let shapes = random.colour()
            for shape in 0..<6 {
                let size = 0.04 + random.unit() * 0.08
                canvas.disc(x: (Double(shape) + 0.5) / 6, y: split, radius: size, colour: shapes)
            }
        }
        return canvas.pixels
    }

    /// A 64-bit generator (SplitMix64): one seed, one sequence, on every machine.
    private struct SeededRandom {
        var state: UInt64

        init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 }

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

        mutating func colour() -> TestJPEG.Colour {
            TestJPEG.Colour(UInt8(next() >> 56), UInt8(next() >> 56), UInt8(next() >> 56))
        }
    }

    /// Packed RGB pixels with a few drawing operations in relative coordinates.
    private struct Canvas {
        let width: Int
        let height: Int
        var pixels: [UInt8]

        init(width: Int, height: Int) {
            self.width = width
            self.height = height
            self.pixels = [UInt8](repeating: 0, count: width * height * 3)
        }

        mutating func set(_ x: Int, _ y: Int, _ colour: TestJPEG.Colour) {
            let offset = (y * width + x) * 3
            pixels[offset] = colour.red
            pixels[offset + 1] = colour.green
            pixels[offset + 2] = colour.blue
        }

        /// A vertical gradient over `rows` (fractions of the height).
        mutating func gradient(
            from top: TestJPEG.Colour,
            to bottom: TestJPEG.Colour,
            rows: ClosedRange<Double> = 0...1
        ) {
            let first = Int(rows.lowerBound * Double(height))
            let last = max(first + 1, Int(rows.upperBound * Double(height)))
            for y in first..<min(height, last) {
                let t = Double(y - first) / Double(max(1, last - first - 1))
                func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8(Double(a) + (Double(b) - Double(a)) * t) }
                let colour = TestJPEG.Colour(
                    mix(top.red, bottom.red),
                    mix(top.green, bottom.green),
                    mix(top.blue, bottom.blue)
                )
                for x in 0..<width { set(x, y, colour) }
            }
        }

        mutating func disc(x: Double, y: Double, radius: Double, colour: TestJPEG.Colour) {
            let scale = Double(min(width, height))
            let (cx, cy, r) = (x * Double(width), y * Double(height), radius * scale)
            for row in max(0, Int(cy - r))..<min(height, Int(cy + r) + 1) {
                for column in max(0, Int(cx - r))..<min(width, Int(cx + r) + 1) {
                    let (dx, dy) = (Double(column) - cx, Double(row) - cy)
                    if dx * dx + dy * dy <= r * r { set(column, row, colour) }
                }
            }
        }

        mutating func rectangle(x: Double, y: Double, width w: Double, height h: Double, colour: TestJPEG.Colour) {
            for row in max(0, Int(y * Double(height)))..<min(height, Int((y + h) * Double(height))) {
                for column in max(0, Int(x * Double(width)))..<min(width, Int((x + w) * Double(width))) {
                    set(column, row, colour)
                }
            }
        }
    }
}

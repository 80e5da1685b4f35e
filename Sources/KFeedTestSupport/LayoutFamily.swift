import Foundation
import KFeedImages

/// Families of pictures that share one composition and differ in colour and content, as a teaser series or a
/// fan-sign set does: distinct pictures to a viewer that a grey layout hash calls alike. Tests and the repost
/// benchmark use them for the side of repost detection that must never fire. Members of the later families
/// (`backdrop` on) are distinct by construction: no two share a subject's place, size and colour.
package enum LayoutFamily: String, CaseIterable, Sendable {
    /// The bundled sample's look: a vertical gradient, seven spotlight discs, a figure, a stage panel below.
    case stage
    /// A seeded tint over one gradient, split in two at a seeded height, with a seeded band of small shapes.
    case tint
    /// One backdrop (a fixed colour gradient) and one subject, a disc of about 3 % of the frame: member n puts it
    /// at the (n mod 20)th of 20 places, in the (n / 20)th of three hues, at one of three sizes (2.5–3.5 %).
    case backdrop
    /// A teaser series: one template (a dark frame, a banner with a logo, a name strip) around a picture window of
    /// 60 % × 55 % holding the member's own picture (a seeded grid of colour blocks) and a name of its own length.
    case teaser
    /// Near-black night shots: one dark gradient and two dim lights (2 % of the frame each) at member-owned places.
    case night
    /// Flat colour and noise: 12 hues 30° apart at four brightnesses; flat at the first and third, noisy (±40
    /// a channel, seeded) at the second and fourth.
    case flat
    /// Text-heavy graphics drawn with the project's font stack: 5–9 lines of seeded words at one of three sizes
    /// (7–12 % of the width), on one of four papers.
    case text

    /// RGB pixels of member `seed` of the family, `width`×`height`.
    package func picture(seed: Int, width: Int, height: Int) -> [UInt8] {
        var random = SeededRandom(seed: UInt64(truncatingIfNeeded: seed) &+ (self == .stage ? 0 : 1 << 32))
        var canvas = Canvas(width: width, height: height)
        let area = Double(width * height) / Double(min(width, height) * min(width, height))
        /// The radius (of the shorter side) of a disc covering `share` of the frame.
        func radius(_ share: Double) -> Double { (share * area / Double.pi).squareRoot() }
        switch self {
        case .backdrop:
            canvas.gradient(from: TestJPEG.Colour(40, 60, 140), to: TestJPEG.Colour(200, 120, 80))
            let place = seed % 20
            let colour = Self.hsv(hue: Double(seed / 20 % 3) * 120 + 30, saturation: 0.9, value: 0.95)
            let share = [0.025, 0.03, 0.035][seed / 5 % 3]
            canvas.disc(
                x: 0.2 + Double(place % 5) * 0.15,
                y: 0.25 + Double(place / 5) * 0.5 / 3,
                radius: radius(share),
                colour: colour
            )
        case .teaser:
            canvas.gradient(from: TestJPEG.Colour(20, 20, 30), to: TestJPEG.Colour(30, 24, 40))
            canvas.rectangle(x: 0, y: 0, width: 1, height: 0.15, colour: TestJPEG.Colour(230, 40, 90))
            canvas.rectangle(x: 0.05, y: 0.03, width: 0.2, height: 0.09, colour: TestJPEG.Colour(250, 250, 250))
            let (left, top) = (Int(0.2 * Double(width)), Int(0.2 * Double(height)))
            let (w, h) = (Int(0.6 * Double(width)), Int(0.55 * Double(height)))
            let photo = TestJPEG.blocks(seed: seed + 1_000, width: w, height: h)
            for row in 0..<h {
                for column in 0..<w {
                    let offset = (row * w + column) * 3
                    canvas.set(
                        left + column,
                        top + row,
                        TestJPEG.Colour(photo[offset], photo[offset + 1], photo[offset + 2])
                    )
                }
            }
            let name = 0.15 + Double(seed % 7) * 0.1
            canvas.rectangle(
                x: 0.5 - name / 2,
                y: 0.82,
                width: name,
                height: 0.06,
                colour: TestJPEG.Colour(240, 240, 240)
            )
        case .night:
            canvas.gradient(from: TestJPEG.Colour(4, 4, 10), to: TestJPEG.Colour(16, 14, 24))
            for (index, place) in [seed % 20, (seed / 20 * 7 + seed + 3) % 20].enumerated() {
                let level = 60 + 25 * ((seed / 20 + index) % 3)
                canvas.disc(
                    x: 0.2 + Double(place % 5) * 0.15,
                    y: 0.25 + Double(place / 5) * 0.5 / 3,
                    radius: radius(0.02),
                    colour: TestJPEG.Colour(UInt8(level), UInt8(level * 9 / 10), UInt8(level * 7 / 10))
                )
            }
        case .flat:
            let level = seed / 12 % 4
            let colour = Self.hsv(hue: Double(seed % 12) * 30, saturation: 0.6, value: [0.9, 0.7, 0.5, 0.3][level])
            canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: colour)
            if level % 2 == 1 {
                for index in stride(from: 0, to: canvas.pixels.count, by: 1) {
                    let jitter = Int(random.next() % 81) - 40
                    canvas.pixels[index] = UInt8(max(0, min(255, Int(canvas.pixels[index]) + jitter)))
                }
            }
        case .text:
            let papers: [[UInt8]] = [[255, 255, 255], [250, 240, 215], [24, 24, 28], [30, 60, 120]]
            let paper = papers[seed % 4]
            let ink: [UInt8] = seed % 4 < 2 ? [20, 20, 20] : [245, 245, 245]
            let words = [
                "tour", "announcement", "tickets", "on", "sale", "friday", "seoul", "stage", "live", "new", "album",
                "comeback", "schedule", "teaser", "open", "the", "fan", "meeting", "photo", "week", "concept",
            ]
            let lines = (0..<(5 + seed % 5)).map { _ in
                (0..<(2 + Int(random.next() % 4))).map { _ in words[Int(random.next() % UInt64(words.count))] }
                    .joined(separator: " ")
            }
            let size = [40, 52, 64][seed / 4 % 3] * min(width, height) / 544
            guard
                let rgbx = FontStack.graphic(
                    lines,
                    width: width,
                    height: height,
                    pixelSize: size,
                    ink: ink,
                    paper: paper
                )
            else { return canvas.pixels }
            for index in 0..<(width * height) {
                canvas.pixels[index * 3] = rgbx[index * 4]
                canvas.pixels[index * 3 + 1] = rgbx[index * 4 + 1]
                canvas.pixels[index * 3 + 2] = rgbx[index * 4 + 2]
            }
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

    /// An sRGB colour from hue (degrees), saturation and value (0…1).
    private static func hsv(hue: Double, saturation: Double, value: Double) -> TestJPEG.Colour {
        let h = (hue.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) / 60
        let c = value * saturation
        let x = c * (1 - abs(h.truncatingRemainder(dividingBy: 2) - 1))
        let (r, g, b): (Double, Double, Double) =
            switch Int(h) {
            case 0: (c, x, 0)
            case 1: (x, c, 0)
            case 2: (0, c, x)
            case 3: (0, x, c)
            case 4: (x, 0, c)
            default: (c, 0, x)
            }
        let m = value - c
        func byte(_ v: Double) -> UInt8 { UInt8(max(0, min(255, ((v + m) * 255).rounded()))) }
        return TestJPEG.Colour(byte(r), byte(g), byte(b))
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

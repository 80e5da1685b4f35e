import Foundation
import KFeedBase
import Testing

@testable import KFeed
@testable import KFeedImages

struct DithererTests {
    static func solid(_ value: UInt8, width: Int, height: Int) -> [UInt8] {
        var pixels = [UInt8](repeating: value, count: width * height * 4)
        for index in 0..<(width * height) { pixels[index * 4 + 3] = 255 }
        return pixels
    }

    @Test(arguments: [2, 4, 16])
    func everyIndexIsInThePalette(levels: Int) {
        let width = 97
        let height = 61
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for index in 0..<(width * height) {
            pixels[index * 4] = UInt8(index * 7 % 256)
            pixels[index * 4 + 1] = UInt8(index * 13 % 256)
            pixels[index * 4 + 2] = UInt8(index * 29 % 256)
        }
        let indices = Ditherer.indices(
            rgbx: pixels,
            width: width,
            height: height,
            palette: .greys(levels),
            crisp: [UInt8](repeating: 0, count: width * height),
            toneStep: levels == 2
        )
        #expect(indices.count == width * height)
        #expect(indices.allSatisfy { Int($0) < levels })
    }

    @Test func midGreyDithersToHalfWhiteInSRGBValues() {
        // 128 of 255 in sRGB-encoded values: about half the dots white (in linear light it would be about 22%).
        let indices = Ditherer.indices(
            rgbx: Self.solid(128, width: 200, height: 100),
            width: 200,
            height: 100,
            palette: .greys(2),
            crisp: [UInt8](repeating: 0, count: 20_000),
            toneStep: false
        )
        let white = Double(indices.filter { $0 == 1 }.count) / 20_000
        #expect(abs(white - 128.0 / 255) < 0.01)
    }

    @Test func crispPixelsTakeTheNearestColourAndLeakNoError() {
        let width = 40
        let height = 40
        var crisp = [UInt8](repeating: 0, count: width * height)
        for index in 0..<(width * 20) { crisp[index] = 1 }  // the top half
        let indices = Ditherer.indices(
            rgbx: Self.solid(100, width: width, height: height),
            width: width,
            height: height,
            palette: .greys(2),
            crisp: crisp,
            toneStep: false
        )
        #expect(indices[..<(width * 20)].allSatisfy { $0 == 0 })  // 100 is nearer black
        #expect(indices[(width * 20)...].contains(1))  // the diffused half still mixes white in
    }

    @Test func colourPaletteIndicesAreInkyIndicesAndPureColoursMapToThemselves() {
        let palette = DisplayPalette.inky7
        #expect(palette.colours.count == 7)
        for (index, colour) in palette.colours.enumerated() {
            var pixels = [UInt8](repeating: 255, count: 16 * 16 * 4)
            for pixel in 0..<256 {
                pixels[pixel * 4] = colour.x
                pixels[pixel * 4 + 1] = colour.y
                pixels[pixel * 4 + 2] = colour.z
            }
            let indices = Ditherer.indices(
                rgbx: pixels,
                width: 16,
                height: 16,
                palette: palette,
                crisp: [UInt8](repeating: 0, count: 256),
                toneStep: false
            )
            #expect(indices.allSatisfy { Int($0) == index }, "colour \(index)")
        }
    }

    @Test func toneStepStretchesALowContrastPictureToBothEnds() {
        let width = 64
        let height = 64
        var luma = (0..<(width * height)).map { Float(90 + $0 % width) }  // 90…153 only
        Ditherer.applyToneStep(&luma, width: width, height: height, crisp: [UInt8](repeating: 0, count: width * height))
        #expect((luma.min() ?? 255) < 10)
        #expect((luma.max() ?? 0) > 245)
    }

    @Test func theToneCurveTableIsWithinATenthOfAGreyOfTheCurve() throws {
        let luma = (0..<(64 * 64)).map { Float($0 % 256) }
        let tone = try #require(
            Ditherer.ToneStep(luma: luma, width: 64, height: 64, crisp: [UInt8](repeating: 0, count: 64 * 64))
        )
        var worst: Float = 0
        tone.curve.withUnsafeBufferPointer { curve in
            for step in 0...10_000 {
                let x = Float(step) / 10_000
                let smooth = x * x * (3 - 2 * x)
                let exact = powf(x + Ditherer.curveStrength * (smooth - x), Ditherer.midtoneGamma) * 255
                // A pixel whose blurred luma is its own is not sharpened: its position on the curve is x.
                let value = x * (1 / tone.scale) + tone.low
                let tabled = Ditherer.ToneStep.value(
                    value,
                    blurred: value,
                    low: tone.low,
                    scale: tone.scale,
                    curve: curve
                )
                worst = max(worst, abs(tabled - exact))
            }
        }
        #expect(worst < 0.1, "\(worst)")
    }

    /// A flat `width`×`height` patch of one sRGB colour, and its indices when every pixel takes the nearest ink.
    static func nearest(_ colour: SIMD3<UInt8>, palette: DisplayPalette) -> Set<UInt8> {
        var pixels = [UInt8](repeating: 255, count: 8 * 8 * 4)
        for pixel in 0..<64 {
            pixels[pixel * 4] = colour.x
            pixels[pixel * 4 + 1] = colour.y
            pixels[pixel * 4 + 2] = colour.z
        }
        let crisp = [UInt8](repeating: 1, count: 64)
        return Set(
            Ditherer.indices(rgbx: pixels, width: 8, height: 8, palette: palette, crisp: crisp, toneStep: false)
        )
    }

    @Test func spectraPureInksTakeTheirOwnIndexInInkysOrder() {
        let palette = DisplayPalette.spectra6
        #expect(palette.colours.count == 6 && palette.inks.count == 6)
        // The file's colours, in the driver's order: black, white, yellow, red, blue, green. The measured green ink
        // is dark and dull, so pure sRGB green is nearer the yellow ink; diffused, it is yellow and green dots.
        for (index, colour) in palette.colours.enumerated().dropLast() {
            #expect(Self.nearest(colour, palette: palette) == [UInt8(index)], "colour \(index)")
        }
        let green = Self.diffused(SIMD3(0, 255, 0), palette: palette)
        let counts = (0..<6).map { ink in green.filter { $0 == ink }.count }
        #expect(counts[5] > 9_600 / 5 && counts[2] + counts[5] > 9_600 * 3 / 4, "\(counts)")
    }

    /// A flat 120×80 patch of one sRGB colour, error-diffused.
    static func diffused(_ colour: SIMD3<UInt8>, palette: DisplayPalette) -> [UInt8] {
        var pixels = [UInt8](repeating: 255, count: 9_600 * 4)
        for pixel in 0..<9_600 {
            pixels[pixel * 4] = colour.x
            pixels[pixel * 4 + 1] = colour.y
            pixels[pixel * 4 + 2] = colour.z
        }
        let crisp = [UInt8](repeating: 0, count: 9_600)
        return Ditherer.indices(rgbx: pixels, width: 120, height: 80, palette: palette, crisp: crisp, toneStep: false)
    }

    @Test func spectraMeasuredInksSeenOnThePaperTakeTheirOwnIndex() {
        // The picture's white is the paper's white, so a measured ink is the colour `ink / paper` in linear light
        // (clamped where the ink is brighter than the paper in a channel, as yellow is).
        let palette = DisplayPalette.spectra6
        let paper = palette.inks[1]
        func linear(_ value: UInt8) -> Float { Ditherer.linearTable[Int(value)] }
        func encoded(_ value: Float) -> UInt8 {
            let clamped = min(max(value, 0), 1)
            let srgb = clamped <= 0.003_130_8 ? clamped * 12.92 : 1.055 * powf(clamped, 1 / 2.4) - 0.055
            return UInt8((srgb * 255).rounded())
        }
        for (index, ink) in palette.inks.enumerated() {
            let seen = SIMD3(
                encoded(linear(ink.x) / linear(paper.x)),
                encoded(linear(ink.y) / linear(paper.y)),
                encoded(linear(ink.z) / linear(paper.z))
            )
            #expect(Self.nearest(seen, palette: palette) == [UInt8(index)], "ink \(index) seen as \(seen)")
        }
    }

    @Test(arguments: [SIMD3<UInt8>(128, 128, 128), SIMD3(60, 60, 60), SIMD3(210, 210, 210)])
    func spectraDiffusedPatchAveragesToItsColourOnThePaper(colour: SIMD3<UInt8>) {
        // The dots' mean, in linear light with the measured inks, is the grey scaled to the paper's white (greys
        // lie between the black and white inks), within 0.02 in linear light: a small patch loses error at its edges.
        let palette = DisplayPalette.spectra6
        func linear(_ value: UInt8) -> Float { Ditherer.linearTable[Int(value)] }
        func linear(_ colour: SIMD3<UInt8>) -> SIMD3<Float> {
            SIMD3(linear(colour.x), linear(colour.y), linear(colour.z))
        }
        let indices = Self.diffused(colour, palette: palette)
        var sum = SIMD3<Float>(repeating: 0)
        for index in indices { sum += linear(palette.inks[Int(index)]) }
        let mean = sum / Float(indices.count)
        let wanted = linear(colour) * linear(palette.inks[1])
        #expect(((mean - wanted) * (mean - wanted)).max() < 0.000_4, "mean \(mean), wanted \(wanted)")  // 0.02
    }
}

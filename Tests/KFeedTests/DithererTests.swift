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
}

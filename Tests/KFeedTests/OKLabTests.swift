import Foundation
import Testing

@testable import KFeedImages

/// OKLab's conversion, on which the detail signature's lightness and chroma bytes rest.
struct OKLabTests {
    @Test func itsCubeRootAgreesWithTheCLibrarysToAFewUlps() {
        // Over the light levels a signature's cells take (0…1, many of them near black), and at zero.
        #expect(OKLab.cubeRoot(0) == 0)
        for step in 1...200_000 {
            let x = Double(step) / 200_000 * (step.isMultiple(of: 2) ? 1 : 1e-4)
            let expected = cbrt(x)
            #expect(abs(OKLab.cubeRoot(x) - expected) <= 8 * expected.ulp, "x \(x)")
        }
    }

    @Test func whiteIsLightnessOneAndGreyHasNoChroma() {
        let white = OKLab(linearRed: 1, green: 1, blue: 1)
        #expect(abs(white.l - 1) < 1e-6)
        for level: Float in [0.001, 0.18, 0.5, 1] {
            let grey = OKLab(linearRed: level, green: level, blue: level)
            #expect(abs(grey.a) < 1e-6 && abs(grey.b) < 1e-6, "level \(level)")
            #expect(abs(grey.l - cbrt(Double(level))) < 1e-6, "level \(level)")
        }
    }
}

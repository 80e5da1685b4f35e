import Foundation
import KFeedBase
import KFeedTestSupport
import Testing

@testable import KFeed
@testable import KFeedImages

struct EXIFOrientationTests {
    func orientation(of jpeg: Data) throws -> EXIFOrientation {
        try jpeg.withUnsafeBytes { try JPEGStructure.parse($0, maxScans: 100).orientation }
    }

    static let cases = EXIFOrientation.allCases.flatMap { [($0, false), ($0, true)] }

    @Test(arguments: cases)
    func readsTheTagInBothByteOrders(expected: EXIFOrientation, bigEndian: Bool) throws {
        let plain = try TestJPEG.jpeg(TestJPEG.gradient(width: 16, height: 16), width: 16, height: 16)
        let tagged = TestJPEG.withOrientation(expected.rawValue, in: plain, bigEndian: bigEndian)
        #expect(try orientation(of: tagged) == expected)
    }

    @Test func missingOrInvalidTagsMeanUpright() throws {
        let plain = try TestJPEG.jpeg(TestJPEG.gradient(width: 16, height: 16), width: 16, height: 16)
        #expect(try orientation(of: plain) == .identity)
        #expect(try orientation(of: TestJPEG.withOrientation(9, in: plain)) == .identity)
        #expect(try orientation(of: TestJPEG.withOrientation(0, in: plain)) == .identity)
    }

    @Test func garbageAfterTheExifHeaderNeverCrashes() {
        var state: UInt64 = 7
        for length in 0..<3_000 {
            let count = length % 64
            var bytes: [UInt8] =
                Array("Exif".utf8) + [0, 0] + (length % 2 == 0 ? [0x49, 0x49, 42, 0] : [0x4D, 0x4D, 0, 42])
            for _ in 0..<count {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes.append(UInt8(truncatingIfNeeded: state >> 59))  // small values make plausible offsets
            }
            let parsed = bytes.withUnsafeBytes { EXIFOrientation.parse(app1: $0) }
            #expect(parsed == nil || (1...8).contains(parsed?.rawValue ?? 0))
        }
    }

    @Test(arguments: EXIFOrientation.allCases)
    func displayMappingIsABijectionOntoTheDisplayedSize(orientation: EXIFOrientation) {
        let (width, height) = (5, 3)
        let (displayWidth, displayHeight) = orientation.swapsAxes ? (height, width) : (width, height)
        let mapping = orientation.displayMapping(storedWidth: width, storedHeight: height)
        var seen = Set<Int>()
        for y in 0..<height {
            for x in 0..<width {
                let point = mapping.display(x: x, y: y)
                #expect((0..<displayWidth).contains(point.x) && (0..<displayHeight).contains(point.y))
                seen.insert(point.y * displayWidth + point.x)
            }
        }
        #expect(seen.count == width * height)
    }

    @Test func rotate90MovesTheStoredTopLeftToTheDisplayedTopRight() {
        let mapping = EXIFOrientation.rotate90.displayMapping(storedWidth: 4, storedHeight: 2)
        #expect(mapping.display(x: 0, y: 0) == (x: 1, y: 0))
        #expect(mapping.display(x: 3, y: 0) == (x: 1, y: 3))
    }
}

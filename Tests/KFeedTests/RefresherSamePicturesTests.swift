import Foundation
import KFeedImages
import Synchronization
import Testing

@testable import KFeed

/// The comparisons ``Refresher/SamePictures`` makes on every lane, and ``Refresher/together(_:)``, which writes the
/// files before a manifest side by side.
struct RefresherSamePicturesTests {
    /// A 64×64 RGBX picture: a diagonal gradient of `hue`, with a bright square of side `side` at `corner`.
    static func identity(hue: Int, corner: Int, side: Int = 20) throws -> PictureIdentity {
        var pixels = [UInt8](repeating: 255, count: 64 * 64 * 4)
        for y in 0..<64 {
            for x in 0..<64 {
                let inSquare = (corner..<corner + side).contains(x) && (corner..<corner + side).contains(y)
                let base = (x + y) * 2
                pixels[(y * 64 + x) * 4] = UInt8((base + hue) % 256)
                pixels[(y * 64 + x) * 4 + 1] = inSquare ? 250 : UInt8(base / 2)
                pixels[(y * 64 + x) * 4 + 2] = inSquare ? 240 : UInt8((255 - base + hue) % 256)
            }
        }
        return try #require(
            pixels.withUnsafeBytes {
                PictureIdentity.of(pixels: $0, width: 64, height: 64, bytesPerRow: 256, channels: 4)
            }
        )
    }

    @Test func theTableAnswersAsComparingOneAtATime() async throws {
        let first = try Self.identity(hue: 0, corner: 4)
        let other = try Self.identity(hue: 90, corner: 40)
        let third = try Self.identity(hue: 180, corner: 20, side: 30)
        let identities: [PictureIdentity?] = [first, other, nil, first, third, other]
        let mayBeKept = [true, true, true, true, false, true]
        let shownAt = Date(timeIntervalSince1970: 1_800_000_000)
        let shown = [(identity: third, shownAt: shownAt), (identity: third, shownAt: shownAt.addingTimeInterval(60))]
        let lanes = DecodeLanes(count: 2)
        var same = await Refresher.SamePictures(identities, mayBeKept: mayBeKept, shown: shown, on: lanes)
        #expect(first.isSamePicture(as: first) && !first.isSamePicture(as: other) && !other.isSamePicture(as: third))
        for index in identities.indices {
            for earlier in 0..<index where mayBeKept[earlier] {
                let expected = identities[index].flatMap { a in identities[earlier].map { a.isSamePicture(as: $0) } }
                #expect(same.isSame(index, as: earlier) == (expected ?? false), "\(index) against \(earlier)")
            }
            let latest = shown.filter { identities[index]?.isSamePicture(as: $0.identity) == true }.map(\.shownAt).max()
            #expect(same.lastShown(index) == (mayBeKept[index] ? latest : nil), "\(index) against the shown")
        }
        #expect(same.isSame(3, as: 0) && same.isSame(5, as: 1) && !same.isSame(4, as: 0))
        #expect(same.lastShown(4) == nil && same.lastShown(0) == nil)
        let shownTwice = await Refresher.SamePictures([third], mayBeKept: [true], shown: shown, on: lanes)
        #expect(shownTwice.lastShown(0) == shownAt.addingTimeInterval(60))
        // Comparisons left until asked for (the pictures from the third on that may be kept) answer the same.
        for onDemandFrom in [0, 2, 5] {
            var later = await Refresher.SamePictures(
                identities,
                mayBeKept: mayBeKept,
                shown: shown,
                onDemandFrom: onDemandFrom,
                on: lanes
            )
            for index in identities.indices.reversed() {
                #expect(later.lastShown(index) == same.lastShown(index), "\(index) against the shown")
                for earlier in 0..<index where mayBeKept[earlier] {
                    #expect(later.isSame(index, as: earlier) == same.isSame(index, as: earlier), "\(index), \(earlier)")
                }
            }
        }
    }

    struct Failed: Error, Equatable { var index: Int }

    @Test func togetherRunsEveryWriteAndThrowsTheFirstFailure() async throws {
        let done = Mutex<Set<Int>>([])
        try await Refresher.together((0..<3).map { index in { done.withLock { _ = $0.insert(index) } } })
        #expect(done.withLock { $0 } == [0, 1, 2])
        done.withLock { $0 = [] }
        await #expect(throws: Failed(index: 1)) {
            try await Refresher.together(
                (0..<4).map { index in
                    {
                        done.withLock { _ = $0.insert(index) }
                        if index % 2 == 1 { throw Failed(index: index) }
                    }
                }
            )
        }
        #expect(done.withLock { $0 } == [0, 1, 2, 3])
    }
}

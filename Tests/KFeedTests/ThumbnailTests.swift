import Foundation
import KFeedTestSupport
import Testing

@testable import KFeedImages

/// A thumbnail's identity computed from the pixels it encodes (what a refresh does, with no second decode) is the
/// identity of the thumbnail JPEG decoded again, up to the encoder's loss.
struct ThumbnailTests {
    private static func sources() throws -> [(name: String, jpeg: Data)] {
        let stage = LayoutFamily.stage.picture(seed: 3, width: 1_200, height: 800)
        let tint = LayoutFamily.tint.picture(seed: 5, width: 800, height: 1_000)
        return [
            ("stage", try TestJPEG.jpeg(stage, width: 1_200, height: 800)),
            ("tint, progressive", try TestJPEG.jpeg(tint, width: 800, height: 1_000, progressive: true)),
            ("gradient", try TestJPEG.jpeg(TestJPEG.gradient(width: 900, height: 700), width: 900, height: 700)),
        ]
    }

    @Test(arguments: [ImageSize.small, .medium, .large])
    func identityFromThePixelsIsTheDecodedThumbnails(size: ImageSize) throws {
        for source in try Self.sources() {
            let thumbnail = try JPEGThumbnailer().thumbnailAndPixels(of: source.jpeg, size: size)
            #expect(thumbnail.size == size)
            #expect(thumbnail.pixels.count == size.width * size.height * 4)
            let fromPixels = try #require(thumbnail.identity(), "\(source.name)")
            let decoded = try #require(PictureIdentity.of(jpeg: thumbnail.jpeg), "\(source.name)")
            #expect(
                fromPixels.hash.distance(to: decoded.hash) <= PictureIdentity.candidateHashDistance / 3,
                "\(source.name) at \(size)"
            )
            #expect(
                fromPixels.detail.distance(to: decoded.detail) < DetailSignature.samePictureThreshold / 2,
                "\(source.name) at \(size)"
            )
            #expect(fromPixels.isSamePicture(as: decoded), "\(source.name) at \(size)")
            // Both keep the finer cells (the thumbnail at half scale has at least 128 pixels a side).
            #expect(fromPixels.detail.finer != nil && decoded.detail.finer != nil, "\(source.name) at \(size)")
        }
    }

    @Test func thumbnailsTooSmallForTheQuarterScaleGiveTheirPixelsWhole() throws {
        let size = ImageSize(width: 48, height: 48)
        let thumbnail = try JPEGThumbnailer().thumbnailAndPixels(of: try Self.sources()[0].jpeg, size: size)
        let fromPixels = try #require(thumbnail.identity())
        let decoded = try #require(PictureIdentity.of(jpeg: thumbnail.jpeg))
        #expect(fromPixels.hash.distance(to: decoded.hash) <= 10)
        #expect(fromPixels.isSamePicture(as: decoded))
        #expect(fromPixels.detail.finer == nil && decoded.detail.finer == nil)
        // Another picture at that size is not the same.
        let other = try JPEGThumbnailer().thumbnailAndPixels(of: try Self.sources()[1].jpeg, size: size)
        #expect(try #require(other.identity()).isSamePicture(as: fromPixels) == false)
    }

    @Test func twoByTwoBlockMeansAverageEachBlock() {
        // 3×2: columns 0–1 of each row 100 and 200 (a block mean of 150), column 2 alone (padded by itself).
        let pixels: [UInt8] = [
            100, 10, 0, 255, 200, 30, 0, 255, 50, 0, 0, 255,
            200, 10, 0, 255, 100, 30, 0, 255, 50, 0, 0, 255,
        ]
        let means = Thumbnail.blockMeans(pixels, width: 3, height: 2, block: 2)
        #expect(means.width == 2 && means.height == 1)
        #expect(Array(means.pixels[0..<4]) == [150, 20, 0, 255])
        #expect(Array(means.pixels[4..<8]) == [50, 0, 0, 255])
    }

    @Test func blockMeansPadAPartialBlockByRepeatingItsEdge() {
        // 10×9: the last column 200, the rest 0. Block (2, 0) holds columns 8 and 9 and two copies of column 9.
        let (width, height) = (10, 9)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height { pixels[(y * width + 9) * 4] = 200 }
        let means = Thumbnail.blockMeans(pixels, width: width, height: height, block: 4)
        #expect(means.width == 3 && means.height == 3)
        #expect(means.pixels[0] == 0 && means.pixels[4] == 0)
        #expect(means.pixels[8] == 150)  // (3 × 200) / 4
        #expect(means.pixels[32] == 150)  // the bottom row repeats too
        #expect(means.pixels[7] == 255)
    }
}

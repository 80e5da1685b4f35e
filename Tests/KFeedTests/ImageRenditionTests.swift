import Foundation
import KFeedBase
import Testing

@testable import KFeed
@testable import KFeedImages

/// Which image URLs a refresh asks for: the smallest rendition covering the widget, then the plain URL.
struct ImageRenditionTests {
    private static let photo = URL(string: "https://pbs.twimg.com/media/GkP00001aXoAAqzR.jpg")

    @Test(arguments: [
        (1200, 1500, ImageSize.small, "small"),  // small: 544×680 covers 340×340
        (4000, 1000, ImageSize.small, "large"),  // small 680×170 and medium 1200×300 are too short; large 2048×512
        (1200, 1500, ImageSize.large, "medium"),  // small 544×680 is too small for 720×760; medium 960×1200
        (1080, 1350, ImageSize.medium, "medium"),  // small 544×680 is too narrow for 720
        (300, 200, ImageSize.large, "small"),  // nothing covers: the original, which small already is
        (3000, 2000, ImageSize.large, "medium"),  // small 680×453 is too short; medium 1200×800
        (6000, 4000, ImageSize(width: 2000, height: 1500), "orig"),  // large 2048×1365 is too short
    ])
    func chooseTheSmallestRenditionThatCoversTheTarget(width: Int, height: Int, target: ImageSize, expected: String) {
        #expect(ImageRendition.renditionName(width: width, height: height, target: target) == expected)
    }

    @Test func photoCandidatesAreTheRenditionThenThePlainURL() throws {
        let url = try #require(Self.photo)
        let candidates = ImageRendition.photoCandidates(for: url, width: 1200, height: 1500, target: .small)
        #expect(
            candidates.map(\.absoluteString) == [
                "https://pbs.twimg.com/media/GkP00001aXoAAqzR?format=jpg&name=small",
                "https://pbs.twimg.com/media/GkP00001aXoAAqzR.jpg",
            ]
        )
    }

    @Test(arguments: [
        "https://pbs.twimg.com/ext_tw_video_thumb/1/pu/img/Vt1.jpg", "http://127.0.0.1:8080/media/x.jpg",
        "https://example.com/media/x.jpg",
    ])
    func otherURLsAreUsedAsGiven(text: String) throws {
        let url = try #require(URL(string: text))
        #expect(ImageRendition.photoCandidates(for: url, width: 100, height: 100, target: .small) == [url])
    }

    @Test func avatarsAskForThe400RenditionThenBiggerThenNormal() throws {
        let url = try #require(URL(string: "https://pbs.twimg.com/profile_images/123/abc_normal.jpg"))
        #expect(
            ImageRendition.avatarCandidates(for: url).map(\.lastPathComponent) == [
                "abc_400x400.jpg", "abc_bigger.jpg", "abc_normal.jpg",
            ]
        )
        let original = try #require(URL(string: "https://pbs.twimg.com/profile_images/123/abc.jpg"))
        #expect(ImageRendition.avatarCandidates(for: original) == [original])
    }
}

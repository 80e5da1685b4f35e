import Foundation
import KFeedBase
import KFeedTestSupport
import Testing

@testable import KFeed
@testable import KFeedImages

/// Repost detection on both of its sides, on pictures made as a refresh makes them (a `small` widget thumbnail):
/// pictures that share only a layout are distinct, another rendition, a re-encode, a crop or a border of one photo
/// is the same. `bench/reposts.sh` runs the same measurement on the photo corpus.
struct PictureIdentityTests {
    private static let thumbnailer = JPEGThumbnailer()

    private static func identity(_ jpeg: Data) throws -> PictureIdentity {
        try #require(PictureIdentity.of(jpeg: try thumbnailer.thumbnail(of: jpeg, size: .small)))
    }

    private static func distinctPairs(_ identities: [PictureIdentity]) -> [(Int, Int)] {
        identities.indices.flatMap { first in
            identities.indices.filter { $0 > first && identities[first].isSamePicture(as: identities[$0]) }
                .map { (first, $0) }
        }
    }

    @Test(arguments: LayoutFamily.allCases)
    func layoutSiblingsAreNeverTheSamePicture(family: LayoutFamily) throws {
        // 26 members: 325 pairs a family, many of them within the difference hash's old threshold.
        let identities = try (0..<26).map { seed in
            try Self.identity(
                TestJPEG.jpeg(family.picture(seed: seed, width: 544, height: 680), width: 544, height: 680)
            )
        }
        let hashAlike = identities.indices.flatMap { a in
            identities.indices.filter { $0 > a && identities[a].hash.distance(to: identities[$0].hash) <= 6 }
        }
        #expect(!hashAlike.isEmpty, "the family should fool a grey layout hash, or it tests nothing")
        #expect(Self.distinctPairs(identities).isEmpty)
    }

    @Test func theSamplesPicturesAreAllDistinct() throws {
        let files = try FileManager.default.contentsOfDirectory(
            at: Fixture.directory.appendingPathComponent("images"),
            includingPropertiesForKeys: nil
        ).filter { $0.lastPathComponent.hasPrefix("stage-") }
        #expect(files.count >= 24)
        let identities = try files.map { try Self.identity(Data(contentsOf: $0)) }
        #expect(Self.distinctPairs(identities).isEmpty)
    }

    @Test(arguments: ["stage-2.jpg", "stage-5.jpg", "stage-30.jpg"])
    func repostsOfAPictureAreTheSame(name: String) throws {
        let jpeg = try Fixture.data("images/\(name)")
        let original = try Self.identity(jpeg)
        let copies = try Repost.all(of: jpeg)
        #expect(copies.count == 14)
        for (kind, copy) in copies {
            let repost = try Self.identity(copy)
            #expect(
                original.isSamePicture(as: repost),
                "\(kind): hash \(original.hash.distance(to: repost.hash)), colour \(original.signature.distance(to: repost.signature))"
            )
        }
    }

    @Test func repostsOfAPhotoLikePictureAreTheSameAndOtherPhotosAreNot() throws {
        let photos = try (1...4).map { seed in
            try TestJPEG.jpeg(TestJPEG.blocks(seed: seed, width: 1_600, height: 1_200), width: 1_600, height: 1_200)
        }
        let originals = try photos.map(Self.identity)
        #expect(Self.distinctPairs(originals).isEmpty)
        for (photo, original) in zip(photos, originals) {
            for (kind, copy) in try Repost.all(of: photo) {
                #expect(original.isSamePicture(as: try Self.identity(copy)), "\(kind)")
            }
        }
    }

    @Test func theSignatureRoundTripsThroughBase64AndRejectsOtherLengths() throws {
        let identity = try Self.identity(Fixture.data("images/stage-1.jpg"))
        let decoded = try #require(ColourSignature(base64: identity.signature.base64))
        #expect(decoded == identity.signature)
        #expect(decoded.distance(to: identity.signature) == 0)
        #expect(ColourSignature(base64: Data([1, 2, 3]).base64EncodedString()) == nil)
        #expect(ColourSignature(base64: "not base64") == nil)
    }

    @Test func aLayoutSiblingWithTheSameHashIsStillADifferentPicture() throws {
        // Two members of the stage family: same composition, other colours.
        let pictures = try [3, 7].map { seed in
            try Self.identity(
                TestJPEG.jpeg(LayoutFamily.stage.picture(seed: seed, width: 544, height: 680), width: 544, height: 680)
            )
        }
        let candidate = PictureIdentity(hash: pictures[0].hash, signature: pictures[1].signature)
        #expect(!pictures[0].isSamePicture(as: candidate))
        #expect(pictures[0].signature.distance(to: pictures[1].signature) > ColourSignature.samePictureThreshold)
    }
}

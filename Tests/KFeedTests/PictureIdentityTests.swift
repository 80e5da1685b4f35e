import Foundation
import KFeedBase
import KFeedTestSupport
import Testing

@testable import KFeed
@testable import KFeedImages

/// Repost detection on both of its sides, on pictures made as a refresh makes them (a `small` widget thumbnail):
/// every kind of repost (`Repost.kinds`: rescales 0.4×–2.5×, re-encodes q40–95, crops up to 8 %, borders up to
/// 10 %, caption bands up to 12 %, brightness and contrast ±10 %) is the same picture; members of each look-alike
/// family (`LayoutFamily`) are not. `bench/reposts.sh` runs the same measurement on many more pictures.
struct PictureIdentityTests {
    private static let thumbnailer = JPEGThumbnailer()

    private static func identity(_ jpeg: Data) throws -> PictureIdentity {
        try #require(PictureIdentity.of(jpeg: try thumbnailer.thumbnail(of: jpeg, size: .small)))
    }

    private static func sameAsAnother(_ identities: [PictureIdentity]) -> [(Int, Int)] {
        identities.indices.flatMap { first in
            identities.indices.filter { $0 > first && identities[first].isSamePicture(as: identities[$0]) }
                .map { (first, $0) }
        }
    }

    private static func member(_ family: LayoutFamily, _ seed: Int) throws -> Data {
        try TestJPEG.jpeg(family.picture(seed: seed, width: 544, height: 680), width: 544, height: 680)
    }

    @Test(arguments: Repost.kinds)
    func aRepostOfEachKindIsTheSamePicture(kind: String) throws {
        // Members of three of the families the threshold was set on. On other pictures some kinds are missed:
        // `bench/reposts.sh` reports them (mostly 10 % borders and 12 % caption bands on sharp detail, and +10 %
        // brightness where it clips highlights).
        let sources = [try Self.member(.stage, 3), try Self.member(.tint, 5), try Self.member(.backdrop, 7)]
        for (index, source) in sources.enumerated() {
            let original = try Self.identity(source)
            let repost = try Self.identity(try Repost.copy(source, kind: kind))
            let same = original.isSamePicture(as: repost)
            let hash = original.hash.distance(to: repost.hash)
            let detail = original.detail.distance(to: repost.detail)
            #expect(same, "source \(index): hash \(hash), detail \(detail)")
        }
    }

    @Test(arguments: [LayoutFamily.backdrop, .stage, .tint, .teaser, .night, .flat])
    func membersOfALookAlikeFamilyAreDistinct(family: LayoutFamily) throws {
        // 12 members: 66 pairs, most of them within the candidate hash distance.
        let identities = try (0..<12).map { try Self.identity(Self.member(family, $0)) }
        let candidates = identities.indices.flatMap { a in
            identities.indices.filter {
                $0 > a && identities[a].hash.distance(to: identities[$0].hash) <= PictureIdentity.candidateHashDistance
            }
        }
        #expect(!candidates.isEmpty, "the family should pass the hash's cheap test, or it tests nothing")
        let same = Self.sameAsAnother(identities)
        #expect(same.isEmpty, "\(same)")
    }

    @Test func aContrastChangeThatClipsANightShotIsTheSamePicture() throws {
        // +10 % contrast clips a near-black sky to black: through OKLab's plain cube root that was a change of a
        // tenth of the lightness scale everywhere.
        for seed in 0..<4 {
            let source = try Self.member(.night, seed)
            let original = try Self.identity(source)
            let repost = try Self.identity(try Repost.copy(source, kind: "contrast +10 %"))
            #expect(
                original.isSamePicture(as: repost),
                "member \(seed): detail \(original.detail.distance(to: repost.detail))"
            )
        }
    }

    @Test(arguments: ["border 5 % black", "caption 12 % bottom"])
    func aHardEdgedPictureBorderedOrCaptionedIsTheSamePicture(kind: String) throws {
        // Teaser members: hard-edged colour blocks and a name strip at the bottom edge of the widget's crop, which
        // the border or the band brings into view or pushes out of it.
        for seed in 1..<4 {
            let source = try Self.member(.teaser, seed)
            let original = try Self.identity(source)
            let repost = try Self.identity(try Repost.copy(source, kind: kind))
            #expect(
                original.isSamePicture(as: repost),
                "member \(seed): detail \(original.detail.distance(to: repost.detail))"
            )
        }
    }

    @Test(arguments: ["border 10 % white", "border 10 % grey"])
    func aTenPercentBorderAroundSharpDetailIsTheSamePicture(kind: String) throws {
        // Framed, the picture is shown smaller, so the framed copy's cells blur its sharp tiles and edges: compared
        // cell for cell with the unframed picture's sharper cells, these were over the threshold (3.1–3.3) until the
        // unframed cells were blurred to the framed copy's cell footprint.
        let source = try Self.member(.collage, 1)
        let original = try Self.identity(source)
        let repost = try Self.identity(try Repost.copy(source, kind: kind))
        #expect(original.isSamePicture(as: repost), "detail \(original.detail.distance(to: repost.detail))")
    }

    @Test(arguments: [(LayoutFamily.teaser, 0), (.collage, 2)])
    func aTenPercentWhiteBorderAroundSharpDetailIsTheSamePicture(family: LayoutFamily, seed: Int) throws {
        // Framed at a scale of 0.82, these scored 3.20–3.30 on the 32×32 cells (teaser member 0 was a known miss):
        // a framed way a little over the threshold is the same picture when the fine cells, blurred to the framed
        // copy's footprint, agree (`DetailSignature.framedAllowance`, `framedFineThreshold`).
        let source = try Self.member(family, seed)
        let original = try Self.identity(source)
        let repost = try Self.identity(try Repost.copy(source, kind: "border 10 % white"))
        #expect(original.isSamePicture(as: repost), "detail \(original.detail.distance(to: repost.detail))")
    }

    @Test func calendarPagesUnderOneSceneAreDistinct() throws {
        // Pages of one layout under one scene: other months, other day numbers, another ringed day. Eight of these
        // 28 pairs (0–21, 2–38, 15–17, 15–40, 15–65, 17–40, 17–65, 40–65) were called one picture while the fine
        // cells' threshold was 6: day numbers of 4 % of the width scored 4.3–6 on the 64×64 cells.
        let identities = try [0, 2, 15, 17, 21, 38, 40, 65].map { try Self.identity(Self.member(.calendar, $0)) }
        let same = Self.sameAsAnother(identities)
        #expect(same.isEmpty, "\(same)")
    }

    @Test(arguments: [LayoutFamily.product, .collage, .spotlight])
    func membersOfAFamilyTheRuleWasNotDesignedForAreDistinct(family: LayoutFamily) throws {
        // Families the rule was not designed for (held out until 2026-11-27, then tuned on): one object turned or
        // recoloured on a plain ground, the same tiles arranged otherwise, beams at other places. (The quote cards,
        // one layout with other words, are not all kept apart: the bench reports them.) Members 0, 30 and 60 of
        // `product` are one bottle in three poses.
        let seeds = family == .product ? [0, 1, 2, 3, 30, 31, 32, 60, 61, 62] : Array(0..<10)
        let identities = try seeds.map { try Self.identity(Self.member(family, $0)) }
        let same = Self.sameAsAnother(identities)
        #expect(same.isEmpty, "\(same)")
    }

    @Test(arguments: [LayoutFamily.chart, .map])
    func membersOfTheChartAndMapFamiliesAreDistinct(family: LayoutFamily) throws {
        // Two of `bench/reposts.sh`'s families (held out until a rule change was measured on them, tuned on since):
        // bar charts of one style with other data, street maps of one style with other streets and pins.
        let identities = try (0..<10).map { try Self.identity(Self.member(family, $0)) }
        let same = Self.sameAsAnother(identities)
        #expect(same.isEmpty, "\(same)")
    }

    @Test(arguments: [LayoutFamily.chess, .boarding, .chat, .code])
    func membersOfTheFamiliesHeldOutOnTheTwentySeventhAreDistinct(family: LayoutFamily) throws {
        // Four of the families `bench/reposts.sh` held out from 2026-11-27 07:55 (measured once, with the rule as
        // it was): one chess board with a few pieces moved, boarding passes of one airline, chat screenshots of
        // one app, code screenshots of one editor theme.
        let identities = try (0..<10).map { try Self.identity(Self.member(family, $0)) }
        let same = Self.sameAsAnother(identities)
        #expect(same.isEmpty, "\(same)")
    }

    @Test(arguments: ["rescale 0.4×", "re-encode q40", "crop 8 % centred", "contrast −10 %"])
    func aChatScreenshotRepostedIsTheSamePicture(kind: String) throws {
        let jpeg = try Self.member(.chat, 1)
        let copy = try Repost.copy(jpeg, kind: kind)
        #expect(try Self.identity(jpeg).isSamePicture(as: Self.identity(copy)))
    }

    @Test(arguments: [(LayoutFamily.teaser, 0), (.teaser, 3), (.meme, 3), (.calendar, 1)])
    func aBrightnessChangeThatClipsAWhiteGroundIsTheSamePicture(family: LayoutFamily, seed: Int) throws {
        // +10 % brightness clips white pixels inside cells that also hold text or shapes: those cells move less
        // than the fitted gain says, and the fine test lets them lie between the fit and no change.
        let jpeg = try Self.member(family, seed)
        let copy = try Repost.copy(jpeg, kind: "brightness +10 %")
        #expect(try Self.identity(jpeg).isSamePicture(as: Self.identity(copy)))
    }

    @Test func memesOfOnePhotoUnderOtherWordsAreDistinct() throws {
        // Even members share one scene and own their words: the 32×32 cells match within their tolerance, the fine
        // cells at one scale do not.
        let identities = try stride(from: 0, to: 16, by: 2).map { try Self.identity(Self.member(.meme, $0)) }
        #expect(Self.sameAsAnother(identities).isEmpty)
    }

    @Test(arguments: ["rescale 0.4×", "re-encode q40", "brightness +10 %", "contrast −10 %"])
    func aMemeRepostedAtOneScaleIsTheSamePicture(kind: String) throws {
        let jpeg = try Self.member(.meme, 2)
        let copy = try Repost.copy(jpeg, kind: kind, thumbnailer: Self.thumbnailer)
        #expect(try Self.identity(jpeg).isSamePicture(as: Self.identity(copy)))
    }

    @Test func textGraphicsOfOtherLayoutsAreDistinct() throws {
        // Text graphics whose lines differ in number and size; two pages of the same layout that differ only in
        // their words are beyond a 32×32 signature (bench/reposts.sh measures the whole family).
        let identities = try [0, 5, 10].map { try Self.identity(Self.member(.text, $0)) }
        #expect(Self.sameAsAnother(identities).isEmpty)
    }

    @Test func aSubjectOfThreePercentOfTheFrameMakesAnotherPicture() throws {
        // One backdrop, the same subject moved by 15 % of the width: a mean over the frame barely moves.
        let identities = try [0, 1].map { try Self.identity(Self.member(.backdrop, $0)) }
        #expect(identities[0].hash.distance(to: identities[1].hash) <= PictureIdentity.candidateHashDistance)
        #expect(identities[0].detail.distance(to: identities[1].detail) > DetailSignature.samePictureThreshold)
    }

    @Test func regionsOfOnePhotoAreDistinct() throws {
        // The sample's stage photo framed four ways (60 % × 60 % at each corner): one scene, four pictures.
        let photo = try Fixture.data("images/stage-5.jpg")
        let size = try Self.thumbnailer.displaySize(of: photo)
        let pixels = try Self.thumbnailer.pixels(of: photo, size: size)
        let (width, height) = (size.width * 6 / 10, size.height * 6 / 10)
        let identities = try [(0, 0), (1, 0), (0, 1), (1, 1)].map { corner in
            let (left, top) = (corner.0 * (size.width - width), corner.1 * (size.height - height))
            var out = [UInt8](repeating: 0, count: width * height * 4)
            for row in 0..<height {
                let source = ((top + row) * size.width + left) * 4
                out[(row * width * 4)..<((row + 1) * width * 4)] = pixels[source..<(source + width * 4)]
            }
            return try Self.identity(
                try JPEGEncoder.encode(out, width: width, height: height, format: .rgbx, quality: 90)
            )
        }
        #expect(Self.sameAsAnother(identities).isEmpty)
    }

    @Test func theSamplesPicturesAreAllDistinct() throws {
        let files = try FileManager.default.contentsOfDirectory(
            at: Fixture.directory.appendingPathComponent("images"),
            includingPropertiesForKeys: nil
        ).filter { $0.lastPathComponent.hasPrefix("stage-") }
        #expect(files.count >= 24)
        let identities = try files.map { try Self.identity(Data(contentsOf: $0)) }
        #expect(Self.sameAsAnother(identities).isEmpty)
    }

    @Test func decodedPixelsGiveTheIdentityTheJPEGGives() throws {
        let thumbnail = try Self.thumbnailer.thumbnail(of: try Fixture.data("images/stage-2.jpg"), size: .small)
        let fromJPEG = try #require(PictureIdentity.of(jpeg: thumbnail))
        let rgbx = try Self.thumbnailer.pixels(of: thumbnail, size: .small)
        let fromRGBX = try #require(
            rgbx.withUnsafeBytes {
                PictureIdentity.of(pixels: $0, width: 340, height: 340, bytesPerRow: 340 * 4, channels: 4)
            }
        )
        // RGB with padded rows: the same cells as RGBX.
        var rgb = [UInt8](repeating: 0, count: 340 * 1_024)
        for y in 0..<340 {
            for x in 0..<340 {
                for channel in 0..<3 { rgb[y * 1_024 + x * 3 + channel] = rgbx[(y * 340 + x) * 4 + channel] }
            }
        }
        let fromRGB = try #require(
            rgb.withUnsafeBytes {
                PictureIdentity.of(pixels: $0, width: 340, height: 340, bytesPerRow: 1_024, channels: 3)
            }
        )
        let identical = fromRGB == fromRGBX
        let same = fromJPEG.isSamePicture(as: fromRGBX)
        #expect(identical)
        #expect(same)
        #expect(fromJPEG.detail.distance(to: fromRGBX.detail) < 1)
        // A buffer shorter than its size says is refused, not read past.
        #expect(
            rgb.withUnsafeBytes {
                PictureIdentity.of(pixels: $0, width: 340, height: 341, bytesPerRow: 1_024, channels: 3)
            } == nil
        )
        #expect(
            rgb.withUnsafeBytes {
                PictureIdentity.of(pixels: $0, width: 340, height: 340, bytesPerRow: 1_024, channels: 2)
            } == nil
        )
    }

    @Test(arguments: [
        (LayoutFamily.receipt, 50, 52), (.receipt, 26, 52), (.receipt, 8, 67), (.leaderboard, 36, 52), (.poster, 0, 1),
        (.poster, 2, 5),
    ])
    func twoReceiptsOfOneTemplateThatDifferInSmallTypeAreDistinct(family: LayoutFamily, first: Int, second: Int) throws
    {
        // Receipts of one template whose item lines and prices (type a few pixels high in the thumbnail) differ, and
        // leaderboards of one layout with other names and points, event posters of one design with another date
        // line at the foot of the crop: on the 64×64 fine cells their words are a texture that matches any other;
        // the finer cells (128×128, all but two rings) tell them apart, and reposts are still the same.
        let a = try Self.identity(Self.member(family, first))
        let b = try Self.identity(Self.member(family, second))
        #expect(a.detail.finer != nil && b.detail.finer != nil)
        #expect(a.isSamePicture(as: b) == false)
        let withoutFiner = try #require(DetailSignature(bytes: a.detail.bytes, fine: a.detail.fine))
        #expect(withoutFiner.isSamePicture(as: b.detail), "the 64×64 cells alone call them the same")
        for kind in ["rescale 0.4×", "re-encode q40", "crop 4 % centred", "brightness +10 %", "contrast −10 %"] {
            let repost = try Self.identity(try Repost.copy(Self.member(family, first), kind: kind))
            #expect(a.isSamePicture(as: repost), "\(kind)")
        }
    }

    @Test func theDetailSignatureRoundTripsThroughBase64AndRejectsOtherLengths() throws {
        let identity = try Self.identity(Fixture.data("images/stage-1.jpg"))
        let decoded = try #require(
            DetailSignature(base64: identity.detail.base64, fine: identity.detail.fineBase64)
        )
        // The finer cells are not stored: the rest comes back.
        let equal = decoded == DetailSignature(bytes: identity.detail.bytes, fine: identity.detail.fine)
        #expect(equal && decoded.finer == nil)
        #expect(decoded.distance(to: identity.detail) == 0)
        // Without the fine cells (as a schema-2 history keeps it): the same cells, and the same picture.
        let coarse = try #require(DetailSignature(base64: identity.detail.base64))
        #expect(coarse.bytes == identity.detail.bytes && coarse.fine == nil)
        #expect(coarse.isSamePicture(as: identity.detail))
        #expect(DetailSignature(base64: identity.detail.base64, fine: Data([1, 2]).base64EncodedString()) == nil)
        #expect(DetailSignature(base64: Data([1, 2, 3]).base64EncodedString()) == nil)
        #expect(DetailSignature(base64: "not base64") == nil)
    }

    @Test func theDistanceIsSymmetric() throws {
        let a = try Self.identity(Self.member(.backdrop, 2))
        let b = try Self.identity(try Repost.copy(Self.member(.backdrop, 2), kind: "caption 12 % top"))
        let c = try Self.identity(Self.member(.backdrop, 9))
        #expect(a.detail.distance(to: b.detail) == b.detail.distance(to: a.detail))
        #expect(a.detail.distance(to: c.detail) == c.detail.distance(to: a.detail))
    }
}

import Foundation
import KFeedTestSupport
import Testing

@testable import KFeedImages

/// The detail comparison's screens: `isSamePicture(as:)` skips the full comparison of a way whose screen or coarse
/// score is over its bound, and must decide exactly as `distance(to:)` does; `bench/reposts.sh` (`DUMP=FILE`)
/// checks the bounds on every pair of both halves, these tests on a few.
struct DetailSignatureTests {
    private static let thumbnailer = JPEGThumbnailer()

    private static func signature(_ jpeg: Data) throws -> DetailSignature {
        try #require(PictureIdentity.of(jpeg: try thumbnailer.thumbnail(of: jpeg, size: .small))).detail
    }

    private static func member(_ family: LayoutFamily, _ seed: Int) throws -> Data {
        try TestJPEG.jpeg(family.picture(seed: seed, width: 544, height: 680), width: 544, height: 680)
    }

    @Test(arguments: Repost.kinds)
    func theScreensPassEveryWayWithinTheThreshold(kind: String) throws {
        let sources = [
            try Self.member(.stage, 3), try Self.member(.tint, 5), try Self.member(.teaser, 2),
            try Self.member(.collage, 1),
        ]
        for source in sources {
            let original = try Self.signature(source)
            let repost = try Self.signature(try Repost.copy(source, kind: kind))
            for way in [original.measured(within: repost), repost.measured(within: original)]
            where way.distance <= DetailSignature.samePictureThreshold {
                #expect(way.screen <= DetailSignature.screenBound, "\(way)")
                #expect(way.coarse <= DetailSignature.coarseBound, "\(way)")
            }
        }
    }

    @Test(arguments: [LayoutFamily.stage, .tint, .backdrop, .night, .text])
    func isSamePictureDecidesAsTheDistanceDoes(family: LayoutFamily) throws {
        // Distinct members, and reposts of the first: both sides of the decision.
        let source = try Self.member(family, 0)
        var signatures = try (0..<6).map { try Self.signature(Self.member(family, $0)) }
        for kind in ["rescale 0.6×", "crop 8 % corner", "caption 12 % top", "border 10 % white"] {
            signatures.append(try Self.signature(try Repost.copy(source, kind: kind)))
        }
        var decisions = (same: 0, different: 0)
        for first in signatures.indices {
            for second in signatures.indices where second > first {
                let (a, b) = (signatures[first], signatures[second])
                let distance = a.distance(to: b)
                let same = a.isSamePicture(as: b)
                #expect(same == (distance <= DetailSignature.samePictureThreshold), "\(first)-\(second): \(distance)")
                #expect(b.isSamePicture(as: a) == same)
                if same { decisions.same += 1 } else { decisions.different += 1 }
            }
        }
        #expect(decisions.same > 0 && decisions.different > 0, "both sides of the decision: \(decisions)")
    }

    @Test func theTwoWaysMakeTheDistance() throws {
        let a = try Self.signature(try Self.member(.backdrop, 4))
        let b = try Self.signature(try Repost.copy(try Self.member(.backdrop, 4), kind: "border 5 % black"))
        let c = try Self.signature(try Self.member(.backdrop, 9))
        for (first, second) in [(a, b), (a, c), (b, c)] {
            let ways = (first.measured(within: second), second.measured(within: first))
            #expect(min(ways.0.distance, ways.1.distance) == first.distance(to: second))
            #expect(ways.0.screen.isFinite && ways.0.coarse.isFinite)
        }
    }

    @Test func aFramedWayALittleOverTheThresholdIsJudgedOnItsFineCells() throws {
        // Collage member 2 in a 10 % white border: the picture sits at a scale of about 0.82 in the framed copy,
        // whose coarser cells blur its sharp tiles a little over the threshold on the 32×32 cells (3.20); its fine
        // cells, blurred alike, agree, so the way is the same picture.
        let source = try Self.member(.collage, 2)
        let original = try Self.signature(source)
        let framed = try Self.signature(try Repost.copy(source, kind: "border 10 % white"))
        let way = original.measured(within: framed)
        #expect(way.scale <= DetailSignature.framedScale, "\(way)")
        #expect(way.range > DetailSignature.samePictureThreshold, "\(way)")
        #expect(way.range <= DetailSignature.samePictureThreshold + DetailSignature.framedAllowance(way.scale))
        #expect(way.strict <= DetailSignature.framedFineThreshold, "\(way)")
        #expect(way.distance <= DetailSignature.samePictureThreshold, "\(way)")
        #expect(original.isSamePicture(as: framed))
    }

    @Test(arguments: [(0, 3), (32, 55), (0, 36), (1, 33), (9, 47)])
    func menusOfOneTemplateThatLineUpAtAScaleOfAbout095AreDistinct(first: Int, second: Int) throws {
        // Restaurant menus of one template with other dishes and prices: one way lines up at about 0.95, between
        // a framed part and one scale, within the threshold on the 32×32 cells; there the fine cells now count as
        // well, within an allowance for that scale, and their dishes differ by more. The last three line up shifted
        // at 0.948, a shift their cells bear out: their fine cells are not blurred along it there (only at one
        // scale), or they would come within the allowance. (Members 8 and 37, here until the vote ran from 2.5 %
        // off the centre, no longer have a way between the scales within the 32×32 test; the tuning half's replay
        // still calls them apart.)
        let a = try Self.signature(try Self.member(.menu, first))
        let b = try Self.signature(try Self.member(.menu, second))
        let between = [a.measured(within: b), b.measured(within: a)].filter {
            $0.scale > DetailSignature.framedScale && $0.scale < DetailSignature.unitScale
        }
        #expect(!between.isEmpty)
        for way in between {
            #expect(way.range <= DetailSignature.samePictureThreshold, "\(way)")
            #expect(way.strict > DetailSignature.betweenFineThreshold(way.scale), "\(way)")
        }
        #expect(a.isSamePicture(as: b) == false)
    }

    @Test(arguments: [(LayoutFamily.spotlight, 0, "border 5 % black"), (.stage, 2, "crop 8 % centred")])
    func aRepostThatLinesUpBetweenFramedAndOneScaleIsTheSamePicture(
        family: LayoutFamily,
        seed: Int,
        kind: String
    ) throws {
        // A 5 % border and an 8 % crop line up at about 0.91: their fine cells agree within that scale's allowance.
        let (original, copy, best) = try Self.repost(family, seed, kind)
        #expect(best.scale > DetailSignature.framedScale && best.scale < DetailSignature.unitScale, "\(best)")
        #expect(best.strict <= DetailSignature.betweenFineThreshold(best.scale), "\(best)")
        #expect(original.isSamePicture(as: copy))
    }

    @Test(
        .enabled(if: LayoutFamily.corpusIsThere, "needs the corpus of real photos: bash bench/corpus.sh"),
        arguments: [(0, 1), (0, 2), (12, 13), (57, 59)]
    )
    func aDimSceneWhosePatchOfLightMovedIsAnotherPicture(first: Int, second: Int) throws {
        // The pier at a tenth of its brightness, lit by a soft patch at another place (one or two columns of the
        // torch family's grid, 7 % or 15 % of the width): a placement shifted by that much lines the patches up,
        // and the dim pier, a little off, differs by less than a unit there. Its cells vote for the centred
        // placement, so the shift is not borne out (all four were called one picture before, 0.8–2.9).
        let a = try Self.signature(try Self.member(.torch, first))
        let b = try Self.signature(try Self.member(.torch, second))
        #expect(a.distance(to: b) > DetailSignature.samePictureThreshold)
        #expect(a.isSamePicture(as: b) == false)
    }

    @Test(arguments: [
        (LayoutFamily.scorecard, 0, "caption 12 % top"), (.chess, 0, "caption 12 % top"),
        (.nutrition, 1, "caption 12 % top"), (.crossword, 3, "caption 12 % bottom"), (.chess, 0, "caption 12 % bottom"),
        (.chess, 0, "caption 6 % top"), (.sheet, 1, "caption 12 % bottom"), (.sudoku, 0, "caption 12 % top"),
        (.poster, 0, "caption 6 % top"), (.crossword, 1, "caption 12 % bottom"), (.scorecard, 1, "caption 6 % top"),
    ])
    func aCaptionBandThatShiftsTheWidgetsCropIsJudgedOnCellsBlurredAlongTheShift(
        family: LayoutFamily,
        seed: Int,
        kind: String
    ) throws {
        // A caption band on a tall picture cropped to the widget moves the frame by 3–8 % of a side at a scale of
        // one (a 12 % band about 6 %, a 6 % band about 3 %); the whole frame bears the shift out, and the fine cells
        // are judged within the shifted threshold. The shift is a fraction of a fine cell more or less than a whole
        // number of them, so a grid line, a staff line or a piece's outline that one picture's cells hold in one cell
        // the other's split between two: unblurred, the first four scored 4.4–6 on the fine cells (missed before the
        // vote, caught within the shifted threshold after it) and the other seven 4.5–9.0 on the fine cells or 13.3
        // on the finer ones (missed until both pictures' cells were blurred along the shift: 1.0–4.8 and 0.3–7.6).
        let (original, copy, best) = try Self.repost(family, seed, kind)
        #expect(best.scale >= DetailSignature.unitScale, "\(best)")
        #expect(best.strict <= DetailSignature.shiftedFineThreshold, "\(best)")
        #expect(best.finer <= DetailSignature.finerThreshold, "\(best)")
        #expect(original.isSamePicture(as: copy))
    }

    @Test(arguments: [
        (LayoutFamily.sudoku, 0), (.sudoku, 2), (.grid, 1), (.code, 3), (.chart, 3), (.collage, 3),
    ])
    func aFourPercentCentredCropIsFoundAtItsScaleBetweenTheSearchedOnes(family: LayoutFamily, seed: Int) throws {
        // A crop of 2 % off each side sits at 0.96 in the original, between the searched scales 1 and 0.97, which the
        // climb cannot reach: at the searched ways the fine cells are off at the frame's edges (4.7–11.7 on the tuning
        // half's replay, threshold 4.3). The frame centred at 0.96 lines up (fine 2.1–3.5), and its cells bear the
        // scale out against 1 and 0.92; all six were missed before.
        let (original, copy, best) = try Self.repost(family, seed, "crop 4 % centred")
        #expect(best.scale == DetailSignature.centredCropScales[0], "\(best)")
        #expect(best.strict <= DetailSignature.fineThreshold, "\(best)")
        #expect(original.isSamePicture(as: copy))
    }

    @Test(arguments: [0, 1, 2, 3])
    func aCentredCropsFrameIsComparedWithBothPicturesBlurred(seed: Int) throws {
        // Nutrition labels cropped by 4 %: the frame at 0.96 drifts through 2.6 fine cells' phase across the
        // other's frame, and the labels' small type lands in one cell in one picture and across two in the other
        // (fine 6.2–7.3 there on the tuning half's replay, threshold 4.3). Both blurred as a shift's are, they
        // line up (1.75); all four were missed before.
        let (original, copy, best) = try Self.repost(.nutrition, seed, "crop 4 % centred")
        #expect(best.scale == DetailSignature.centredCropScales[0], "\(best)")
        #expect(best.strict <= DetailSignature.fineThreshold, "\(best)")
        #expect(original.isSamePicture(as: copy))
    }

    @Test(arguments: [0, 1, 2])
    func anEightPercentCentredCropIsFoundAtItsScaleBetweenTheSearchedOnes(seed: Int) throws {
        // Event tickets cropped by 8 % (4 % off each side) sit at 0.92, between the searched scales 0.94 and 0.91;
        // at the searched ways they scored 3.7–6.7 on the 32×32 cells on the tuning half's replay. The frame centred
        // at 0.92 lines up (1.9–2.4), and its cells bear the scale out against 1 and 0.84; all three were missed before.
        let (original, copy, best) = try Self.repost(.ticket, seed, "crop 8 % centred")
        #expect(best.scale == DetailSignature.centredCropScales[1], "\(best)")
        #expect(original.isSamePicture(as: copy))
    }

    @Test(arguments: [
        (LayoutFamily.timetable, 10, 47), (.timetable, 20, 65), (.timetable, 6, 24), (.timetable, 57, 63),
        (.calendar, 2, 38),
    ])
    func picturesOfOneLayoutDoNotBearOutTheCropsScale(family: LayoutFamily, first: Int, second: Int) throws {
        // Train timetables of one layout with other departure times, and two calendar pages: centred at 0.96, their
        // 32×32 cells (0.2–2.2), fine cells (2.9–4.3) and finer cells (11.3–13.0) are each within the test at one
        // scale, and without the vote they were called one picture there; their cells differ less with the whole
        // frame in many more places (1.4–66 times as many as for 0.96, the bound 0.3), so the scale is not borne out.
        let a = try Self.signature(try Self.member(family, first))
        let b = try Self.signature(try Self.member(family, second))
        #expect(a.isSamePicture(as: b) == false)
        #expect(a.distance(to: b) > DetailSignature.samePictureThreshold)
    }

    @Test(.enabled(if: LayoutFamily.corpusIsThere, "needs the corpus of real photos: bash bench/corpus.sh"))
    func neighbouringFramingsOfOnePhotoInFogDoNotBearOutTheCropsScale() throws {
        // Two neighbouring framings of one corpus photo under a dense fog (about 40 % of their area shared): centred
        // at 0.96 they line up by chance (range 2.40, fine 3.80, finer 4.93), but their cells differ less at 0.92
        // (one way) or at the whole frame (the other) in as many places or more.
        let a = try Self.signature(try Self.member(.fog, 3))
        let b = try Self.signature(try Self.member(.fog, 4))
        #expect(a.isSamePicture(as: b) == false)
        #expect(a.distance(to: b) > DetailSignature.samePictureThreshold)
    }

    @Test(arguments: [0, 1, 2, 3])
    func aBrightnessChangeThatClipsAWhiteGroundIsTheSamePicture(seed: Int) throws {
        // Chat screenshots (white bubbles on a light grey ground) brightened by 10 %: the ground clips to white with
        // the bubbles, and the fit over the picture maps white to a light grey, so the cells of ground and of white
        // ground with words in it lie near the other's lightness unchanged, off the fit. On the fit alone they scored
        // 4.1–5.6 on the 32×32 cells at every placement and were missed; at one scale a cell that light may now lie
        // anywhere between the fitted and the unchanged lightness (``clippedToneLightness``).
        let (original, copy, best) = try Self.repost(.chat, seed, "brightness +10 %")
        #expect(best.scale >= DetailSignature.unitScale, "\(best)")
        #expect(best.range <= DetailSignature.samePictureThreshold, "\(best)")
        #expect(original.isSamePicture(as: copy))
    }

    @Test(.enabled(if: LayoutFamily.corpusIsThere, "needs the corpus of real photos: bash bench/corpus.sh"))
    func aContrastChangeThatClipsDarkColouredLightsToBlackIsTheSamePicture() throws {
        // A night scene of coloured lights (member 2) with its contrast raised by 10 %: its darkest coloured cells
        // clip to black and lose their colour, which on the 32×32 cells cost 3.4 at one scale, nearly all of it colour. Where a
        // clear tone change left a cell of either picture at black or at white, its colour is not compared
        // (``clippedBlackLevel``).
        let (original, copy, best) = try Self.repost(.lights, 2, "contrast +10 %")
        #expect(best.scale >= DetailSignature.unitScale, "\(best)")
        #expect(best.range <= DetailSignature.samePictureThreshold, "\(best)")
        #expect(original.isSamePicture(as: copy))
    }

    @Test(
        .enabled(if: LayoutFamily.corpusIsThere, "needs the corpus of real photos: bash bench/corpus.sh"),
        arguments: [(LayoutFamily.colourway, 6, 42), (.player, 6, 30)]
    )
    func lookAlikesWhoseFitIsAToneChangeAreNotLoosenedInTheirDarkerCells(
        family: LayoutFamily,
        first: Int,
        second: Int
    ) throws {
        // One product in two colourways, and two dark music players with other albums: their fit at one scale is a
        // tone change. With every cell allowed between its fitted and unchanged lightness, whatever its lightness
        // and at every scale, both pairs were called the same (2.65 and 3.02); only cells of 0.65 or more are, at
        // about one scale (the colourway's closest cells are just darker: 3.08).
        let a = try Self.signature(try Self.member(family, first))
        let b = try Self.signature(try Self.member(family, second))
        #expect(a.distance(to: b) > DetailSignature.samePictureThreshold)
        #expect(a.isSamePicture(as: b) == false)
    }

    /// Member `seed` of `family` and its repost of `kind` as signatures, and the better of the two ways of measuring
    /// one within the other (the copy's within the original's when both are as good).
    private static func repost(
        _ family: LayoutFamily,
        _ seed: Int,
        _ kind: String
    ) throws -> (
        original: DetailSignature,
        copy: DetailSignature,
        best: DetailSignature.Way
    ) {
        let source = try member(family, seed)
        let original = try signature(source)
        let copy = try signature(try Repost.copy(source, kind: kind))
        let way = copy.measured(within: original)
        let other = original.measured(within: copy)
        return (original, copy, way.distance <= other.distance ? way : other)
    }
}

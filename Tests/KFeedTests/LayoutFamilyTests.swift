import Foundation
import KFeedTestSupport
import Testing

/// The look-alike families' members as pictures, without judging them by the repost rule (that is the repost
/// benchmark's work): one seed always draws the same pixels, and members differ inside the square a `small` widget
/// crops to (rows 68–611 of a 544×680 member), where a viewer sees them. The `inset` and `pasted` families are left
/// out; `colourway`, `burst`, `torch`, `puzzle` and `diptych` (half #8), `pan`, `fog`, `dusk`, `mosaic` and
/// `window` (half #9), `pose`, `news`, `episode`, `player` and `viewer` (half #10), `lights`, `grain`, `table`,
/// `infographic` and `comic` (half #11), `billboard`, `lockscreen`, `backlit`, `listing` and `minimal` (half #12) and
/// `scoreboard`, `planner`, `callgrid`, `beforeafter` and `vignette` (half #13), `polaroid`, `story`, `recipe`,
/// `badge` and `stamp` (half #14), `magazine`, `homescreen`, `placecard`, `stub` and `nightcam` (half #15) and `haze`,
/// `appstore`, `gallery`, `frontpage` and `thumbnail` (held-out half #16), made of the corpus's real photos too, are
/// tested where the corpus is (all 72 members of each, pair by pair), and skipped where it is not.
struct LayoutFamilyTests {
    private static let (width, height) = (544, 680)

    /// Pixels inside the widget's crop that differ by more than `step` (48 unless told) in a channel between `a` and
    /// `b`, counted up to `limit` (all unless told): a pair known to differ in `limit` pixels is not counted further.
    private static func differingPixelsInTheCrop(
        _ a: [UInt8],
        _ b: [UInt8],
        step: Int = 48,
        limit: Int = .max
    ) -> Int {
        let top = (height - width) / 2
        var count = 0
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                for offset in stride(from: top * width * 3, to: (top + width) * width * 3, by: 3) {
                    if abs(Int(a[offset]) - Int(b[offset])) > step
                        || abs(Int(a[offset + 1]) - Int(b[offset + 1])) > step
                        || abs(Int(a[offset + 2]) - Int(b[offset + 2])) > step
                    {
                        count += 1
                        if count >= limit { return }
                    }
                }
            }
        }
        return count
    }

    @Test(arguments: [LayoutFamily.nutrition, .crossword, .ticker, .shelf])
    func aSeedDrawsTheSamePixelsEveryTime(family: LayoutFamily) {
        let first = family.picture(seed: 5, width: Self.width, height: Self.height)
        #expect(first.count == Self.width * Self.height * 3)
        #expect(first == family.picture(seed: 5, width: Self.width, height: Self.height))
    }

    @Test(arguments: [LayoutFamily.nutrition, .crossword, .ticker, .shelf])
    func membersDifferInsideTheWidgetsCrop(family: LayoutFamily) {
        let members = (0..<6).map { family.picture(seed: $0, width: Self.width, height: Self.height) }
        for a in members.indices {
            for b in members.indices where b > a {
                // At least a few glyphs' worth: a 10 px digit has about 30 inked pixels.
                let differing = Self.differingPixelsInTheCrop(members[a], members[b])
                #expect(differing >= 60, "members \(a) and \(b) differ in \(differing) pixels of the crop")
            }
        }
    }

    @Test(
        .enabled(if: LayoutFamily.corpusIsThere, "needs the corpus of real photos: bash bench/corpus.sh"),
        arguments: [
            LayoutFamily.colourway, .burst, .torch, .puzzle, .diptych, .pan, .fog, .dusk, .mosaic, .window,
            .pose, .news, .episode, .player, .viewer, .lights, .grain, .table, .infographic, .comic, .billboard,
            .lockscreen, .backlit, .listing, .minimal, .scoreboard, .planner, .callgrid, .beforeafter, .vignette,
            .polaroid, .story, .recipe, .badge, .stamp, .magazine, .homescreen, .placecard, .stub, .nightcam, .haze,
            .appstore, .gallery, .frontpage, .thumbnail,
        ]
    )
    func aPhotoFamilysSeedDrawsTheSamePixelsEveryTime(family: LayoutFamily) {
        let first = family.picture(seed: 41, width: Self.width, height: Self.height)
        #expect(first.count == Self.width * Self.height * 3)
        #expect(first == family.picture(seed: 41, width: Self.width, height: Self.height))
    }

    /// Every pair of the 72 members the bench makes, not only the first six: a subject moved by less than half its
    /// size, a torch's light moved by less than its radius, two tiles of sixteen swapped or a glaze 30° of hue from
    /// its neighbour in a dull finish, two framings of one photo that share up to about 45 % of it, or two scenes
    /// under fog or darkened to night must still leave a visible difference in the crop: a patch of 1,000 pixels
    /// (about 32 × 32) that differ by more than 24 levels in a channel (two dusky glazes 30° apart differ by about 35;
    /// two framings of a storm's smooth clouds, under fog or darkened, differed in none, and that photo was left out
    /// of both). So must one figure in two poses at one place, and two cards, posters, dimmed album covers or viewer
    /// screenshots of one template showing two thirds of one photo or two photos, each with its own text; and so
    /// must two near-black night scenes told apart by their lit windows and lamps, grainy photos of two scenes, two
    /// tables sharing at most one object at one place, two infographics or two comic strips of other photo parts; and
    /// so must one billboard with two adverts in two weathers, two lock screens over two wallpapers, two washed-out
    /// backlit scenes with two dark subjects, two shop cards of two products, or two white pages each with its own
    /// small photo disc; and so must two broadcast frames under one score bar, two planner pages with two photos of
    /// the month, two video calls of other callers, two before/after splits of other photos, or two vignetted scenes
    /// each with its own small bright subject; and so must two polaroids on one desk, two stories of one template,
    /// two recipe cards, two ID badges or two stamps on one envelope, each with another photo part and its own text;
    /// and so must two magazine covers under one masthead, two home screens over one wallpaper, two place cards over
    /// one map, two ticket stubs or two green night-vision frames, each with another photo part and its own text; and
    /// so must two stretches of one hazy panorama (neighbours share 45 % of it) each with another clear subject, and
    /// one stretch with two subjects at two places, two app store pages, two gallery walls of one hanging, two front
    /// pages under one masthead or two video thumbnails of one channel, each with other photo parts and its own text.
    @Test(
        .enabled(if: LayoutFamily.corpusIsThere, "needs the corpus of real photos: bash bench/corpus.sh"),
        arguments: [
            LayoutFamily.colourway, .burst, .torch, .puzzle, .diptych, .pan, .fog, .dusk, .mosaic, .window,
            .pose, .news, .episode, .player, .viewer, .lights, .grain, .table, .infographic, .comic, .billboard,
            .lockscreen, .backlit, .listing, .minimal, .scoreboard, .planner, .callgrid, .beforeafter, .vignette,
            .polaroid, .story, .recipe, .badge, .stamp, .magazine, .homescreen, .placecard, .stub, .nightcam, .haze,
            .appstore, .gallery, .frontpage, .thumbnail,
        ]
    )
    func allSeventyTwoPhotoMembersDifferInsideTheWidgetsCrop(family: LayoutFamily) async {
        // Seconds of work: on a thread of its own, not one of the pool's, which the tests that wait share.
        let fewest = await OwnThread.run {
            let members = (0..<72).map { family.picture(seed: $0, width: Self.width, height: Self.height) }
            var fewest = (count: Int.max, a: 0, b: 0)
            for a in members.indices {
                for b in members.indices where b > a {
                    let differing = Self.differingPixelsInTheCrop(members[a], members[b], step: 24, limit: 1_000)
                    if differing < fewest.count { fewest = (differing, a, b) }
                }
            }
            return fewest
        }
        #expect(
            fewest.count >= 1_000,
            "members \(fewest.a) and \(fewest.b) differ in \(fewest.count) pixels of the crop"
        )
    }

    /// Grainy members differ in their scenes, not only in their noise (new in every member, so it alone would make
    /// any two differ pixel by pixel): the means of 8 × 8 blocks of the widget's crop (the noise's spread there is
    /// about 4 levels) differ by more than 24 levels in a channel in at least 16 blocks (1,024 pixels) for every pair.
    @Test(.enabled(if: LayoutFamily.corpusIsThere, "needs the corpus of real photos: bash bench/corpus.sh"))
    func grainyMembersDifferBeneathTheirNoise() async {
        let side = Self.width / 8
        let fewest = await OwnThread.run { Self.fewestDifferingBlocks(side: side) }
        #expect(fewest.count >= 16, "members \(fewest.a) and \(fewest.b) differ in \(fewest.count) blocks of the crop")
    }

    /// The pair of `grain` members whose 8 × 8 block means (`side` blocks a row) differ in the fewest blocks.
    private static func fewestDifferingBlocks(side: Int) -> (count: Int, a: Int, b: Int) {
        let means = (0..<72).map { seed in
            let pixels = LayoutFamily.grain.picture(seed: seed, width: Self.width, height: Self.height)
            var blocks = [Int](repeating: 0, count: side * side * 3)
            let top = (Self.height - Self.width) / 2
            for row in 0..<Self.width {
                for column in 0..<Self.width {
                    for channel in 0..<3 {
                        blocks[((row / 8) * side + column / 8) * 3 + channel] +=
                            Int(pixels[((top + row) * Self.width + column) * 3 + channel])
                    }
                }
            }
            return blocks.map { $0 / 64 }
        }
        var fewest = (count: Int.max, a: 0, b: 0)
        for a in means.indices {
            for b in means.indices where b > a {
                var differing = 0
                for block in 0..<(side * side)
                where (0..<3).contains(where: { abs(means[a][block * 3 + $0] - means[b][block * 3 + $0]) > 24 }) {
                    differing += 1
                }
                if differing < fewest.count { fewest = (differing, a, b) }
            }
        }
        return fewest
    }
}

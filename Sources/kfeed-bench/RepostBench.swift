import Foundation
import KFeed
import KFeedImages
import KFeedTestSupport

/// `kfeed-bench reposts [--members N] [--tuning-only] [--sample DIR] [--dump FILE] --tuning PHOTO… --held-out
/// PHOTO…` (or `--write-members DIR`: the first six members of every family as JPEGs, to look at): repost
/// detection on both of its sides, as a refresh sees it (each picture made into a `small` widget thumbnail, then
/// compared by ``PictureIdentity``), on two halves: the tuning half, on which the thresholds are set, and the
/// held-out half, which is only measured (`--tuning-only` leaves it out, unmade and unprinted, while tuning).
///
/// Must never be called the same (every pair within a family): tuning — the `stage`, `tint`, `backdrop`, `teaser`,
/// `night`, `flat`, `text`, `quote`, `product`, `collage`, `spotlight`, `meme`, `post`, `chart`, `map`, `ticket`,
/// `slide`, `weather`, `calendar`, `scorecard`, `receipt`, `lyrics`, `leaderboard`, `grid`, `chess`, `cover`,
/// `boarding`, `chat`, `code`, `menu`, `timetable`, `sudoku`, `poster`, `sheet`, `nutrition`, `crossword`, `ticker`,
/// `shelf`, `inset`, `pasted`, `colourway`, `burst`, `torch`, `puzzle`, `diptych`, `pan`, `fog`, `dusk`, `mosaic`,
/// `window`, `pose`, `news`, `episode`, `player`, `viewer`, `lights`, `grain`, `table`, `infographic`, `comic`,
/// `billboard`, `lockscreen`, `backlit`, `listing`, `minimal`, `scoreboard`, `planner`, `callgrid`, `beforeafter`,
/// `vignette`, `polaroid`, `story`, `recipe`, `badge`, `stamp`, `magazine`, `homescreen`, `placecard`, `stub` and
/// `nightcam` ``LayoutFamily`` members (the last forty-two made of the corpus's real photos, read from `KFEED_CORPUS`),
/// the bundled sample's pictures, the tuning photos (half #10 was measured once by the lead on 2026-11-27 at 21:23,
/// half #11 at 23:30, half #12 on 2026-11-28 at 00:16, half #13 at 03:09, half #14 at 05:14, half #15 at 08:28,
/// bench/README.md); held out (half #16, not measured) — the `haze`, `appstore`, `gallery`, `frontpage` and
/// `thumbnail` members (all five made of the corpus's real photos) and the held-out photos; in each half also four
/// overlapping regions (60 % × 60 %, one at each corner) of every photo of the half, one scene framed four ways. Must
/// be called the same: every ``Repost`` kind of every photo and of the first four members of each family of the half.
/// Prints per family and per half the pairs, the hash candidates, the pairs called the same and the detail distances;
/// an ROC over the detail threshold; the same pairs judged by a reference perceptual hash (pHash: DCT of a 32×32 grey,
/// top-left 8×8 without DC, median threshold, Hamming distance) with its threshold set on the tuning half; and the time
/// an identity takes. Every figure is of identities computed from the thumbnail JPEG (``PictureIdentity/of(jpeg:)``, as
/// a refresh computes those of the pictures it reuses from its cache, and as every half has been measured); one line a
/// half also gives the pairs called the same and the reposts caught on the identities a refresh makes for the pictures
/// it fetches (``Thumbnail/identity()``, from the pixels the thumbnail encodes), which differ by the encoder's loss and
/// the 2×2 means. Exits 1 when the held-out half (with `--tuning-only`, the tuning half) misses a goal: 0 distinct
/// pairs called the same in ≥ 10,000, ≥ 99.5 % of reposts caught, ≤ 1 ms a picture. `--dump FILE` writes every pair's
/// decision (``PictureIdentity/isSamePicture(as:)``), hash distance and detail distance, one line a pair in a fixed
/// order, so two builds' decisions can be diffed, and checks the screens' bounds half by half. `--save DIR` writes
/// every thumbnail made and every pair instead, and measures nothing (``RepostReplay`` decides them again). `--only
/// NAME,…` makes only those families' members and reposts (`photos` for the photos, their reposts and regions; `sample`
/// for the bundled sample's pictures): a save of a few families takes a minute or two of CPU instead of all of them.
enum RepostBench {
    static func run(_ arguments: [String]) throws {
        var sample: URL?
        var dump: URL?
        var save: URL?
        var thumbnails: [Data] = []
        var members = 72
        var tuningOnly = false
        var only: Set<String>?
        var photos: [Half: [URL]] = [.tuning: [], .heldOut: []]
        var half = Half.tuning
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--sample": sample = iterator.next().map { URL(fileURLWithPath: $0, isDirectory: true) }
            case "--members": members = iterator.next().flatMap(Int.init) ?? members
            case "--tuning-only": tuningOnly = true
            case "--only": only = iterator.next().map { Set($0.split(separator: ",").map(String.init)) }
            case "--write-members":
                // The first six members of every family as JPEGs in a directory, to look at; nothing measured.
                let directory = URL(fileURLWithPath: iterator.next() ?? ".", isDirectory: true)
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                for family in LayoutFamily.allCases {
                    for seed in 0..<6 {
                        let jpeg = try TestJPEG.jpeg(
                            family.picture(seed: seed, width: 544, height: 680),
                            width: 544,
                            height: 680
                        )
                        try jpeg.write(to: directory.appendingPathComponent("\(family.rawValue)-\(seed).jpg"))
                    }
                }
                return
            case "--dump": dump = iterator.next().map { URL(fileURLWithPath: $0) }
            case "--save":
                save = iterator.next().map { URL(fileURLWithPath: $0, isDirectory: true) }
            case "--tuning": half = .tuning
            case "--held-out": half = .heldOut
            default: photos[half, default: []].append(URL(fileURLWithPath: argument))
            }
        }
        // Pairs are only saved (`--save`), not compared, and the saved thumbnails are numbered as the pictures are made.
        let compares = save == nil
        var madeCount = 0
        let thumbnailer = JPEGThumbnailer()
        var timings: [Duration] = []
        var pixelTimings: [Duration] = []
        let clock = ContinuousClock()
        func picture(_ jpeg: Data) throws -> Picture {
            let made = try thumbnailer.thumbnailAndPixels(of: jpeg, size: .small)
            let thumbnail = made.jpeg
            var identity: PictureIdentity?
            timings.append(clock.measure { identity = PictureIdentity.of(jpeg: thumbnail) })
            guard let identity else { throw ImageBench.BenchError("no identity") }
            // As a refresh makes it: from the pixels the thumbnail encodes (before the encoder's loss), finer cells
            // included; timed as it is made, once.
            var refreshIdentity: PictureIdentity?
            pixelTimings.append(clock.measure { refreshIdentity = made.identity() })
            guard let refreshIdentity else { throw ImageBench.BenchError("no identity") }
            // pHash, the reference, sees the thumbnail as decoded, as anyone judging the JPEG would.
            let pixels = try thumbnailer.pixels(of: thumbnail, size: .small)
            if !compares { thumbnails.append(thumbnail) }
            madeCount += 1
            return Picture(
                identity: identity,
                refreshIdentity: refreshIdentity,
                pHash: PHash.of(rgbx: pixels, width: 340, height: 340),
                number: madeCount - 1
            )
        }
        func member(_ family: LayoutFamily, _ seed: Int) throws -> Data {
            try TestJPEG.jpeg(family.picture(seed: seed, width: 544, height: 680), width: 544, height: 680)
        }

        var distinct: [Pair] = []
        var reposts: [Pair] = []
        let families: [Half: [LayoutFamily]] = [
            .tuning: [
                .stage, .tint, .backdrop, .teaser, .night, .flat, .text, .quote, .product, .collage, .spotlight, .meme,
                .post, .chart, .map, .ticket, .slide, .weather, .calendar, .scorecard, .receipt, .lyrics, .leaderboard,
                .grid, .chess, .cover, .boarding, .chat, .code, .menu, .timetable, .sudoku, .poster, .sheet, .nutrition,
                .crossword, .ticker, .shelf, .inset, .pasted, .colourway, .burst, .torch, .puzzle, .diptych, .pan,
                .fog, .dusk, .mosaic, .window, .pose, .news, .episode, .player, .viewer, .lights, .grain, .table,
                .infographic, .comic, .billboard, .lockscreen, .backlit, .listing, .minimal, .scoreboard, .planner,
                .callgrid, .beforeafter, .vignette, .polaroid, .story, .recipe, .badge, .stamp, .magazine,
                .homescreen, .placecard, .stub, .nightcam,
            ],
            .heldOut: [.haze, .appstore, .gallery, .frontpage, .thumbnail],
        ]
        let halves: [Half] = tuningOnly ? [.tuning] : Half.allCases
        for half in halves {
            for family in families[half] ?? [] where only?.contains(family.rawValue) ?? true {
                // `flat` has 48 distinct members, `backdrop` 60 (member n + 60 is member n again).
                let count = family == .flat ? min(members, 48) : family == .backdrop ? min(members, 60) : members
                let pictures = try (0..<count).map { try picture(member(family, $0)) }
                distinct += pairs(pictures, family: family.rawValue, half: half, compares: compares)
                for seed in 0..<min(4, count) {
                    let jpeg = try member(family, seed)
                    for (kind, copy) in try Repost.all(of: jpeg, thumbnailer: thumbnailer) {
                        let pair = Pair(
                            pictures[seed],
                            try picture(copy),
                            family: family.rawValue,
                            kind: kind,
                            source: "member \(seed)",
                            half: half,
                            compares: compares
                        )
                        reposts.append(pair)
                    }
                }
            }
            var originals: [Picture] = []
            var regions: [Picture] = []
            for photo in photos[half] ?? [] where only?.contains("photos") ?? true {
                let jpeg = try Data(contentsOf: photo)
                let original = try picture(jpeg)
                originals.append(original)
                for (kind, copy) in try Repost.all(of: jpeg, thumbnailer: thumbnailer) {
                    reposts.append(
                        Pair(
                            original,
                            try picture(copy),
                            family: "photos",
                            kind: kind,
                            source: photo.lastPathComponent,
                            half: half,
                            compares: compares
                        )
                    )
                }
                regions += try Self.regions(of: jpeg, thumbnailer: thumbnailer).map(picture)
            }
            distinct += pairs(originals, family: "photos", half: half, compares: compares)
            distinct += pairs(regions, family: "regions", half: half, compares: compares)
        }
        if let sample, only?.contains("sample") ?? true {
            let files = try FileManager.default.contentsOfDirectory(at: sample, includingPropertiesForKeys: nil)
                .filter { $0.lastPathComponent.hasPrefix("stage-") }.sorted { $0.path < $1.path }
            distinct += pairs(
                try files.map { try picture(Data(contentsOf: $0)) },
                family: "sample",
                half: .tuning,
                compares: compares
            )
        }

        if let save {
            try FileManager.default.createDirectory(at: save, withIntermediateDirectories: true)
            for (number, thumbnail) in thumbnails.enumerated() {
                try thumbnail.write(to: save.appendingPathComponent("\(number).jpg"))
            }
            var lines: [String] = []
            for (set, pairs) in [("distinct", distinct), ("repost", reposts)] {
                for pair in pairs {
                    lines.append(
                        "\(set)\t\(pair.half == .tuning ? "tuning" : "held-out")\t\(pair.family)\t\(pair.kind)\t"
                            + "\(pair.source)\t\(pair.first.number)\t\(pair.second.number)"
                    )
                }
            }
            try (lines.joined(separator: "\n") + "\n").write(
                to: save.appendingPathComponent("pairs.tsv"),
                atomically: true,
                encoding: .utf8
            )
            return
        }
        let threshold = DetailSignature.samePictureThreshold
        print("repost detection: a hash within \(PictureIdentity.candidateHashDistance) bits is a candidate, the same")
        print("picture when the largest local difference (3×3 cells of 32×32, lined up) is within \(format(threshold))")
        // pHash's threshold set as kfeed's is, on the tuning half: the largest that calls no distinct pair the same.
        let tuningPHash = max(0, (distinct.filter { $0.half == .tuning }.map(\.pHash).min() ?? 64) - 1)
        for half in halves {
            let halfDistinct = distinct.filter { $0.half == half }
            let halfReposts = reposts.filter { $0.half == half }
            print("")
            print("=== \(half.rawValue) ===")
            print("must differ (pairs, hash candidates, called the same, detail distance of candidates min/p1/median;")
            print("pHash ≤ \(tuningPHash) called the same):")
            for family in Set(halfDistinct.map(\.family)).sorted() {
                summarise(halfDistinct.filter { $0.family == family }, name: family, pHash: tuningPHash)
            }
            print("reposts (pairs, caught, hash max, detail distance median/p99/max; pHash caught):")
            for family in Set(halfReposts.map(\.family)).sorted() {
                summarise(halfReposts.filter { $0.family == family }, name: family, pHash: tuningPHash, reposts: true)
            }
            print("reposts by kind (caught / pairs, detail max; pHash caught):")
            for kind in Repost.kinds {
                let kindPairs = halfReposts.filter { $0.kind == kind }
                guard !kindPairs.isEmpty else { continue }
                let label = kind.padding(toLength: 22, withPad: " ", startingAt: 0)
                print(
                    "  \(label) \(kindPairs.filter(\.isSame).count)/\(kindPairs.count), detail max "
                        + "\(format(kindPairs.map(\.detail).max())), pHash \(kindPairs.filter { $0.pHash <= tuningPHash }.count)"
                )
            }
            let falseSame = halfDistinct.filter(\.isSame).count
            for pair in halfDistinct.filter(\.isSame).prefix(24) {
                print("  called the same: \(pair.family) \(pair.kind) hash \(pair.hash) detail \(format(pair.detail))")
            }
            for pair in halfReposts.filter({ !$0.isSame }).prefix(40) {
                print(
                    "  missed: \(pair.family) \(pair.source), \(pair.kind): hash \(pair.hash) detail \(format(pair.detail))"
                )
            }
            let caught = halfReposts.filter(\.isSame).count
            let pHashFalse = halfDistinct.filter { $0.pHash <= tuningPHash }.count
            let pHashCaught = halfReposts.filter { $0.pHash <= tuningPHash }.count
            print(
                "\(half.rawValue): distinct pairs \(halfDistinct.count), called the same \(falseSame) "
                    + "(pHash ≤ \(tuningPHash): \(pHashFalse)); reposts \(halfReposts.count), caught \(caught) "
                    + "\(percent(caught, of: halfReposts.count)) (pHash: \(pHashCaught) "
                    + "\(percent(pHashCaught, of: halfReposts.count)))"
            )
            let refreshSame = halfDistinct.filter(\.isSameAsARefreshDecides).count
            let refreshCaught = halfReposts.filter(\.isSameAsARefreshDecides).count
            print(
                "\(half.rawValue), as a refresh decides (identities from the thumbnails' pixels): called the same "
                    + "\(refreshSame); caught \(refreshCaught) \(percent(refreshCaught, of: halfReposts.count))"
            )
            print("ROC, kfeed (detail threshold: false-same rate, catch rate):")
            let detailSteps: [Float] = [2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 20]
            print(
                "  "
                    + detailSteps.map { step in
                        let falseSame = halfDistinct.filter { $0.isCandidate && $0.detail <= step }.count
                        let hit = halfReposts.filter { $0.isCandidate && $0.detail <= step }.count
                        return "\(format(step)): \(rate(falseSame, halfDistinct.count))/\(rate(hit, halfReposts.count))"
                    }.joined(separator: "  ")
            )
            print("ROC, pHash (Hamming threshold: false-same rate, catch rate):")
            print(
                "  "
                    + [2, 4, 6, 8, 10, 12, 14, 16, 20, 24].map { step in
                        let falseSame = halfDistinct.filter { $0.pHash <= step }.count
                        let hit = halfReposts.filter { $0.pHash <= step }.count
                        return "\(step): \(rate(falseSame, halfDistinct.count))/\(rate(hit, halfReposts.count))"
                    }.joined(separator: "  ")
            )
        }
        let tuningReposts = reposts.filter { $0.half == .tuning && $0.isCandidate }.map(\.detail).max()
        let tuningDistinct = distinct.filter { $0.half == .tuning && $0.isCandidate }.map(\.detail).min()
        print("")
        print(
            "tuning margin: reposts up to \(format(tuningReposts)), distinct hash candidates from "
                + "\(format(tuningDistinct)); threshold \(format(threshold))"
        )
        func milliseconds(_ values: [Duration]) -> Double {
            values.map { Double($0.components.attoseconds) / 1e15 + Double($0.components.seconds) * 1e3 }
                .reduce(0, +) / Double(max(1, values.count))
        }
        let perPicture = milliseconds(timings)
        var compareTimes: [Duration] = []
        for pair in distinct.filter(\.isCandidate).prefix(200) {
            compareTimes.append(
                clock.measure { _ = pair.first.identity.detail.distance(to: pair.second.identity.detail) }
            )
        }
        print(
            String(
                format: "time: identity %.3f ms a picture from its thumbnail JPEG, %.3f ms from its pixels as a "
                    + "refresh makes it; a detail comparison %.2f ms (%d hash candidates timed)",
                perPicture,
                milliseconds(pixelTimings),
                milliseconds(compareTimes),
                compareTimes.count
            )
        )
        // What a refresh pays: `isSamePicture(as:)` on every distinct pair (most are not hash candidates), in the
        // thread's CPU time (the machine is shared).
        let candidates = distinct.filter(\.isCandidate)
        var sameCount = 0
        var start = threadCPUMilliseconds()
        for pair in candidates where pair.first.identity.isSamePicture(as: pair.second.identity) { sameCount += 1 }
        let candidateTime = threadCPUMilliseconds() - start
        start = threadCPUMilliseconds()
        for pair in distinct where pair.first.identity.isSamePicture(as: pair.second.identity) { sameCount += 1 }
        let allTime = threadCPUMilliseconds() - start
        print(
            String(
                format: "time: isSamePicture %.3f ms of CPU a distinct hash-candidate pair (%d), %.4f ms a distinct "
                    + "pair overall (%d; called the same, both passes: %d)",
                candidateTime / Double(max(1, candidates.count)),
                candidates.count,
                allTime / Double(max(1, distinct.count)),
                distinct.count,
                sameCount
            )
        )
        if let dump {
            var lines: [String] = []
            // The screens' bounds must pass every way whose full comparison is within the threshold.
            // Half by half: the bounds are set on the tuning half and checked on the held-out half.
            var widest: [Half: (screen: Float, coarse: Float)] = [.tuning: (0, 0), .heldOut: (0, 0)]
            let number = dumpNumber
            for (set, pairs) in [("distinct", distinct), ("repost", reposts)] {
                for pair in pairs {
                    let same = pair.first.identity.isSamePicture(as: pair.second.identity)
                    var ways = ""
                    if pair.isCandidate {
                        let (a, b) = (pair.first.identity.detail, pair.second.identity.detail)
                        for way in [a.measured(within: b), b.measured(within: a)] {
                            ways += dumpWay(way)
                            if way.distance <= DetailSignature.samePictureThreshold {
                                let before = widest[pair.half] ?? (0, 0)
                                widest[pair.half] = (max(before.screen, way.screen), max(before.coarse, way.coarse))
                            }
                        }
                    }
                    lines.append(
                        "\(set)\t\(pair.half == .tuning ? "tuning" : "held-out")\t\(pair.family)\t\(pair.kind)\t"
                            + "\(same ? "same" : "differ")\thash \(pair.hash)\tdetail \(number(pair.detail))" + ways
                    )
                }
            }
            try (lines.joined(separator: "\n") + "\n").write(to: dump, atomically: true, encoding: .utf8)
            for half in Half.allCases {
                guard let largest = widest[half] else { continue }
                let passes =
                    largest.screen <= DetailSignature.screenBound && largest.coarse <= DetailSignature.coarseBound
                print(
                    "screens, \(half.rawValue): the largest score of a way within the threshold: screen "
                        + "\(number(largest.screen)) (bound \(number(DetailSignature.screenBound))), coarse "
                        + "\(number(largest.coarse)) (bound \(number(DetailSignature.coarseBound)))"
                        + (passes ? "" : ": A BOUND REJECTS A PAIR THE FULL COMPARISON CALLS THE SAME")
                )
            }
            print("dump: \(lines.count) pairs written to \(dump.path)")
        }
        let judged: Half = tuningOnly ? .tuning : .heldOut
        let heldDistinct = distinct.filter { $0.half == judged }
        let heldReposts = reposts.filter { $0.half == judged }
        let caught = heldReposts.filter(\.isSame).count
        let met =
            heldDistinct.allSatisfy { !$0.isSame } && heldDistinct.count >= 10_000
            && Double(caught) >= 0.995 * Double(heldReposts.count) && perPicture <= 1
        print(
            "\(judged.rawValue) goals (0 false same in ≥ 10,000 distinct pairs, ≥ 99.5 % of reposts caught, ≤ 1 ms a "
                + "picture): " + (met ? "met" : "missed")
        )
        if !met { exit(1) }
    }

    /// A distance as the dump writes it: four decimals, `-` when not finite.
    static func dumpNumber(_ value: Float) -> String {
        value.isFinite ? String(format: "%.4f", Double(value)) : "-"
    }

    /// One way of a pair (``DetailSignature/measured(within:)``) as the dump writes it, after a tab.
    static func dumpWay(_ way: DetailSignature.Way) -> String {
        "\tway \(dumpNumber(way.distance)) screen \(dumpNumber(way.screen)) coarse \(dumpNumber(way.coarse))"
            + " range \(dumpNumber(way.range)) strict \(dumpNumber(way.strict)) scale \(dumpNumber(way.scale))"
            + " finer \(dumpNumber(way.finer))"
    }

    /// The two halves of the measurement.
    private enum Half: String, CaseIterable {
        case tuning = "tuning half"
        case heldOut = "held-out half"
    }

    /// One picture as the bench sees it.
    private struct Picture {
        /// From the thumbnail JPEG (``PictureIdentity/of(jpeg:)``): what every figure above the refresh line is of.
        var identity: PictureIdentity
        /// From the pixels the thumbnail encodes, as a refresh makes it for a picture it fetches
        /// (``Thumbnail/identity()``: one decode, before the encoder's loss).
        var refreshIdentity: PictureIdentity
        var pHash: UInt64
        var number: Int
    }

    private struct Pair {
        var first: Picture
        var second: Picture
        var family: String
        var kind: String
        var source: String
        var half: Half
        var hash: Int
        var detail: Float
        var pHash: Int

        /// `compares`: whether the detail distance is computed as the pair is made (not when pairs are only saved).
        init(
            _ first: Picture,
            _ second: Picture,
            family: String,
            kind: String = "",
            source: String = "",
            half: Half,
            compares: Bool
        ) {
            self.first = first
            self.second = second
            self.family = family
            self.kind = kind
            self.source = source
            self.half = half
            self.hash = first.identity.hash.distance(to: second.identity.hash)
            self.detail =
                hash <= PictureIdentity.candidateHashDistance && compares
                ? first.identity.detail.distance(to: second.identity.detail) : .infinity
            self.pHash = (first.pHash ^ second.pHash).nonzeroBitCount
            // The decision, screens included: within the threshold the screens may still reject a way (a bound
            // set on the tuning half, checked by `--dump`), and a pair is the same only as `isSamePicture` says.
            self.isSame =
                hash <= PictureIdentity.candidateHashDistance && detail <= DetailSignature.samePictureThreshold
                && first.identity.isSamePicture(as: second.identity)
        }

        var isCandidate: Bool { hash <= PictureIdentity.candidateHashDistance }
        /// What ``PictureIdentity/isSamePicture(as:)`` decides (every count of pairs called the same or caught).
        let isSame: Bool
        /// The decision a refresh makes, on the identities it makes (``Picture/refreshIdentity``).
        var isSameAsARefreshDecides: Bool { first.refreshIdentity.isSamePicture(as: second.refreshIdentity) }
    }

    private static func pairs(_ pictures: [Picture], family: String, half: Half, compares: Bool) -> [Pair] {
        pictures.indices.flatMap { first in
            pictures.indices.filter { $0 > first }.map {
                Pair(
                    pictures[first],
                    pictures[$0],
                    family: family,
                    kind: "\(first)-\($0)",
                    half: half,
                    compares: compares
                )
            }
        }
    }

    /// Four regions of 60 % × 60 % of the photo's 1200-px rendition, one at each corner, each a JPEG.
    private static func regions(of jpeg: Data, thumbnailer: JPEGThumbnailer) throws -> [Data] {
        let display = try thumbnailer.displaySize(of: jpeg)
        let scale = min(1, 1_200 / Double(max(display.width, display.height)))
        let size = ImageSize(
            width: Int((Double(display.width) * scale).rounded()),
            height: Int((Double(display.height) * scale).rounded())
        )
        let pixels = try thumbnailer.pixels(of: jpeg, size: size)
        let (width, height) = (size.width * 6 / 10, size.height * 6 / 10)
        return try [(0, 0), (1, 0), (0, 1), (1, 1)].map { corner in
            let left = corner.0 * (size.width - width)
            let top = corner.1 * (size.height - height)
            var out = [UInt8](repeating: 0, count: width * height * 4)
            for row in 0..<height {
                let source = ((top + row) * size.width + left) * 4
                out[(row * width * 4)..<((row + 1) * width * 4)] = pixels[source..<(source + width * 4)]
            }
            return try JPEGEncoder.encode(out, width: width, height: height, format: .rgbx, quality: 90)
        }
    }

    private static func summarise(_ pairs: [Pair], name: String, pHash: Int, reposts: Bool = false) {
        let details = pairs.filter(\.isCandidate).map(\.detail).sorted()
        func at(_ p: Double) -> String {
            format(details.isEmpty ? nil : details[min(details.count - 1, Int(Double(details.count) * p))])
        }
        let same = pairs.filter(\.isSame).count
        let pHashSame = pairs.filter { $0.pHash <= pHash }.count
        let label = name.padding(toLength: 10, withPad: " ", startingAt: 0)
        if reposts {
            print(
                "  \(label) \(pairs.count) pairs, caught \(same), hash max \(pairs.map(\.hash).max() ?? 0), detail "
                    + "\(at(0.5))/\(at(0.99))/\(format(details.last)); pHash caught \(pHashSame)"
            )
        } else {
            print(
                "  \(label) \(pairs.count) pairs, \(details.count) candidates, same \(same), detail "
                    + "\(format(details.first))/\(at(0.01))/\(at(0.5)); pHash same \(pHashSame)"
            )
        }
    }

    private static func format(_ value: Float?) -> String {
        value.map { $0.isFinite ? String(format: "%.2f", Double($0)) : "-" } ?? "-"
    }

    /// Two decimals, so that a rate just under a goal (99.47 % against 99.5 %) does not print as the goal.
    private static func percent(_ part: Int, of whole: Int) -> String {
        whole == 0 ? "-" : String(format: "%.2f %%", 100 * Double(part) / Double(whole))
    }

    private static func rate(_ part: Int, _ whole: Int) -> String {
        whole == 0 ? "-" : String(format: "%.4f", Double(part) / Double(whole))
    }
}

/// The reference perceptual hash, pHash as published: the picture in grey, area-averaged to 32×32, its 2-D DCT-II,
/// the 8×8 lowest frequencies without the DC term (63 values), one bit each for being above their median; two
/// pictures compared by the Hamming distance of their bits. Here for comparison only; kfeed does not use it.
enum PHash {
    static func of(rgbx pixels: [UInt8], width: Int, height: Int) -> UInt64 {
        let n = 32
        var grey = [Double](repeating: 0, count: n * n)
        for cellY in 0..<n {
            let top = cellY * height / n
            let bottom = max(top + 1, (cellY + 1) * height / n)
            for cellX in 0..<n {
                let left = cellX * width / n
                let right = max(left + 1, (cellX + 1) * width / n)
                var sum = 0.0
                for y in top..<bottom {
                    for x in left..<right {
                        let index = (y * width + x) * 4
                        sum +=
                            0.299 * Double(pixels[index]) + 0.587 * Double(pixels[index + 1])
                            + 0.114 * Double(pixels[index + 2])
                    }
                }
                grey[cellY * n + cellX] = sum / Double((bottom - top) * (right - left))
            }
        }
        var cosines = [[Double]](repeating: [Double](repeating: 0, count: n), count: 8)
        for u in 0..<8 {
            for x in 0..<n {
                let angle: Double = Double(2 * x + 1) * Double(u) * Double.pi / Double(2 * n)
                cosines[u][x] = cos(angle)
            }
        }
        // Rows first (8 frequencies of each of 32 rows), then columns.
        var rows = [Double](repeating: 0, count: n * 8)
        for y in 0..<n {
            for u in 0..<8 {
                var sum = 0.0
                for x in 0..<n { sum += grey[y * n + x] * cosines[u][x] }
                rows[y * 8 + u] = sum
            }
        }
        var coefficients: [Double] = []
        for v in 0..<8 {
            for u in 0..<8 where u + v > 0 {
                var sum = 0.0
                for y in 0..<n { sum += rows[y * 8 + u] * cosines[v][y] }
                coefficients.append(sum)
            }
        }
        let median = coefficients.sorted()[coefficients.count / 2]
        var value: UInt64 = 0
        for (index, coefficient) in coefficients.enumerated() where coefficient > median {
            value |= 1 << UInt64(index)
        }
        return value
    }
}

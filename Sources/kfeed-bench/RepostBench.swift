import Foundation
import KFeed
import KFeedImages
import KFeedTestSupport

/// `kfeed-bench reposts [--sample DIR] [--siblings N] PHOTO…`: repost detection on both of its sides, as a refresh
/// sees it (each picture made into a `small` widget thumbnail, then compared by ``PictureIdentity``).
///
/// Must never be called the same: every pair of N members of each ``LayoutFamily`` (one composition, seeded colours
/// and content), every pair of the bundled sample's distinct pictures (`--sample`: `Fixtures/images`), and every
/// pair of the photos. Must be called the same: reposts of each photo as people make them, from its 2048-px
/// rendition: X's other renditions, re-encodes at quality 50–95, a progressive copy, crops of 2–5 % and borders of
/// 4–8 px. Prints the hash and colour distances of both sides, the margin the thresholds leave, and the counts;
/// exits 1 when a distinct pair is called the same or fewer than 99 % of the reposts are caught.
enum RepostBench {
    static func run(_ arguments: [String]) throws {
        var sample: URL?
        var siblings = 26
        var photos: [URL] = []
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--sample": sample = iterator.next().map { URL(fileURLWithPath: $0, isDirectory: true) }
            case "--siblings": siblings = iterator.next().flatMap(Int.init) ?? siblings
            default: photos.append(URL(fileURLWithPath: argument))
            }
        }
        let thumbnailer = JPEGThumbnailer()
        func identity(_ jpeg: Data) throws -> PictureIdentity {
            let thumbnail = try thumbnailer.thumbnail(of: jpeg, size: .small)
            guard let identity = PictureIdentity.of(jpeg: thumbnail) else { throw ImageBench.BenchError("no identity") }
            return identity
        }

        var distinct: [Pair] = []
        for family in LayoutFamily.allCases {
            let members = try (0..<siblings).map { seed in
                let pixels = family.picture(seed: seed, width: 544, height: 680)
                return try identity(TestJPEG.jpeg(pixels, width: 544, height: 680))
            }
            distinct += pairs(members, group: "layout siblings (\(family.rawValue))")
        }
        if let sample {
            let files = try FileManager.default.contentsOfDirectory(at: sample, includingPropertiesForKeys: nil)
                .filter { $0.lastPathComponent.hasPrefix("stage-") }.sorted { $0.path < $1.path }
            distinct += pairs(try files.map { try identity(Data(contentsOf: $0)) }, group: "the sample's pictures")
        }
        var originals: [PictureIdentity] = []
        var reposts: [Pair] = []
        for photo in photos {
            let jpeg = try Data(contentsOf: photo)
            let original = try identity(jpeg)
            originals.append(original)
            for (name, copy) in try Repost.all(of: jpeg, thumbnailer: thumbnailer) {
                reposts.append(Pair(group: name, first: original, second: try identity(copy)))
            }
        }
        distinct += pairs(originals, group: "corpus photos")

        print("repost detection: a hash within \(PictureIdentity.candidateHashDistance) bits is a candidate, the")
        print("same picture when the colour signature is within \(format(ColourSignature.samePictureThreshold)) too")
        print("")
        print("must differ (pairs, called the same, hash distance min/median, colour distance min/p1/median):")
        let groups = Dictionary(grouping: distinct, by: \.group)
        for group in groups.keys.sorted() { summarise(groups[group] ?? [], name: group) }
        print("")
        print("reposts (pairs, caught, hash distance max, colour distance median/p99/max):")
        let kinds = Dictionary(grouping: reposts, by: \.group)
        for kind in kinds.keys.sorted() { summarise(kinds[kind] ?? [], name: kind, reposts: true) }

        let falsePositives = distinct.filter(\.isSame).count
        let caught = reposts.filter(\.isSame).count
        let closestDistinct = distinct.filter { $0.hash <= PictureIdentity.candidateHashDistance }.map(\.colour).min()
        let farthestRepost = reposts.map(\.colour).max()
        print("")
        print(
            "distinct pairs: \(distinct.count), called the same: \(falsePositives); reposts: \(reposts.count), "
                + "caught: \(caught) (\(percent(caught, of: reposts.count)))"
        )
        print(
            "colour margin: reposts up to \(format(farthestRepost)), distinct hash candidates from "
                + "\(format(closestDistinct)), threshold \(format(ColourSignature.samePictureThreshold))"
        )
        let met = falsePositives == 0 && (reposts.isEmpty || Double(caught) >= 0.99 * Double(reposts.count))
        print("goals (0 distinct pairs called the same, ≥ 99 % of reposts caught): " + (met ? "met" : "missed"))
        if !met { exit(1) }
    }

    private struct Pair {
        var group: String
        var hash: Int
        var colour: Float
        var isSame: Bool

        init(group: String, first: PictureIdentity, second: PictureIdentity) {
            self.group = group
            self.hash = first.hash.distance(to: second.hash)
            self.colour = first.signature.distance(to: second.signature)
            self.isSame = first.isSamePicture(as: second)
        }
    }

    private static func pairs(_ identities: [PictureIdentity], group: String) -> [Pair] {
        identities.indices.flatMap { first in
            identities.indices.filter { $0 > first }.map {
                Pair(group: group, first: identities[first], second: identities[$0])
            }
        }
    }

    private static func summarise(_ pairs: [Pair], name: String, reposts: Bool = false) {
        let hashes = pairs.map(\.hash).sorted()
        let colours = pairs.map(\.colour).sorted()
        func at(_ values: [Float], _ p: Double) -> String {
            format(values.isEmpty ? nil : values[min(values.count - 1, Int(Double(values.count) * p))])
        }
        let same = pairs.filter(\.isSame).count
        let label = name.padding(toLength: 34, withPad: " ", startingAt: 0)
        if reposts {
            print(
                "  \(label) \(pairs.count) pairs, caught \(same), hash max \(hashes.last ?? 0), colour "
                    + "\(at(colours, 0.5))/\(at(colours, 0.99))/\(format(colours.last))"
            )
        } else {
            print(
                "  \(label) \(pairs.count) pairs, same \(same), hash \(hashes.first ?? 0)/\(hashes[hashes.count / 2]), "
                    + "colour \(format(colours.first))/\(at(colours, 0.01))/\(at(colours, 0.5))"
            )
        }
    }

    private static func format(_ value: Float?) -> String {
        value.map { String(format: "%.2f", Double($0)) } ?? "-"
    }

    private static func percent(_ part: Int, of whole: Int) -> String {
        whole == 0 ? "-" : String(format: "%.1f %%", 100 * Double(part) / Double(whole))
    }
}

import Foundation
import KFeedImages

/// `kfeed-bench replay DIR [--only FAMILY,…] [--dump FILE] [--ways]`: the decisions of `kfeed-bench reposts` again,
/// on the thumbnails a run saved (`kfeed-bench reposts --save DIR`), without making the pictures again: for trying a
/// rule on the same pairs in a minute rather than twelve. `--only` keeps the pairs of those families; `--dump`
/// writes the decisions in the order and form of `reposts --dump` (`--ways`: with each way's scores).
enum RepostReplay {
    static func run(_ arguments: [String]) throws {
        var directory: URL?
        var only: Set<String>?
        var dump: URL?
        var ways = false
        var allReposts = false
        var timed = 0
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--only": only = iterator.next().map { Set($0.split(separator: ",").map(String.init)) }
            case "--dump": dump = iterator.next().map { URL(fileURLWithPath: $0) }
            case "--ways": ways = true
            case "--reposts": allReposts = true
            case "--time": timed = iterator.next().flatMap(Int.init) ?? 0
            default: directory = URL(fileURLWithPath: argument, isDirectory: true)
            }
        }
        guard let directory else { throw ImageBench.BenchError("replay: no directory") }
        struct Row {
            var set: String
            var half: String
            var family: String
            var kind: String
            var source: String
            var first: Int
            var second: Int
        }
        let rows = try String(contentsOf: directory.appendingPathComponent("pairs.tsv"), encoding: .utf8)
            .split(separator: "\n").map { line -> Row in
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                return Row(
                    set: fields[0],
                    half: fields[1],
                    family: fields[2],
                    kind: fields[3],
                    source: fields[4],
                    first: Int(fields[5])!,
                    second: Int(fields[6])!
                )
            }
            .filter { (allReposts && $0.set == "repost") || (only?.contains($0.family) ?? true) }
        if timed > 0 {
            let jpegs = try (0..<timed).map { try Data(contentsOf: directory.appendingPathComponent("\($0).jpg")) }
            let clock = ContinuousClock()
            for round in 0..<3 {
                let elapsed = clock.measure { for jpeg in jpegs { _ = PictureIdentity.of(jpeg: jpeg) } }
                print("round \(round): \(elapsed / timed) an identity from a JPEG")
            }
            return
        }
        let numbers = Set(rows.flatMap { [$0.first, $0.second] }).sorted()
        let clock = ContinuousClock()
        let started = clock.now
        nonisolated(unsafe) var identities = [PictureIdentity?](repeating: nil, count: (numbers.last ?? 0) + 1)
        let jpegs = try numbers.map { try Data(contentsOf: directory.appendingPathComponent("\($0).jpg")) }
        identities.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let buffer = buffer
            DispatchQueue.concurrentPerform(iterations: numbers.count) { index in
                buffer[numbers[index]] = PictureIdentity.of(jpeg: jpegs[index])
            }
        }
        let made = clock.now
        nonisolated(unsafe) var lines = [String](repeating: "", count: rows.count)
        nonisolated(unsafe) var same = [Bool](repeating: false, count: rows.count)
        let (dumps, withWays) = (dump != nil, ways)
        lines.withUnsafeMutableBufferPointer { lines in
            same.withUnsafeMutableBufferPointer { same in
                nonisolated(unsafe) let (lines, same) = (lines, same)
                DispatchQueue.concurrentPerform(iterations: rows.count) { index in
                    let row = rows[index]
                    guard let a = identities[row.first], let b = identities[row.second] else { return }
                    let hash = a.hash.distance(to: b.hash)
                    let candidate = hash <= PictureIdentity.candidateHashDistance
                    let isSame = a.isSamePicture(as: b)
                    same[index] = isSame
                    guard dumps else { return }
                    var text = ""
                    if candidate && (withWays || isSame || row.set == "repost") {
                        for way in [a.detail.measured(within: b.detail), b.detail.measured(within: a.detail)] {
                            text += RepostBench.dumpWay(way)
                        }
                    }
                    lines[index] =
                        "\(row.set)\t\(row.half)\t\(row.family)\t\(row.kind)\t\(isSame ? "same" : "differ")\thash \(hash)"
                        + "\t\(row.source)" + text
                }
            }
        }
        let compared = clock.now
        var families: [String: (pairs: Int, same: Int)] = [:]
        var kinds: [String: (pairs: Int, same: Int)] = [:]
        for (row, isSame) in zip(rows, same) {
            if row.set == "distinct" {
                families[row.family, default: (0, 0)].pairs += 1
                if isSame { families[row.family, default: (0, 0)].same += 1 }
            } else {
                kinds[row.kind, default: (0, 0)].pairs += 1
                if isSame { kinds[row.kind, default: (0, 0)].same += 1 }
                if !isSame { print("missed: \(row.family) \(row.source) \(row.kind)") }
            }
        }
        for (family, count) in families.sorted(by: { $0.key < $1.key }) where count.same > 0 {
            print("called the same: \(family) \(count.same) of \(count.pairs)")
        }
        for (kind, count) in kinds.sorted(by: { $0.key < $1.key }) {
            print("caught: \(kind) \(count.same) of \(count.pairs)")
        }
        let distinct = families.values.reduce((0, 0)) { ($0.0 + $1.pairs, $0.1 + $1.same) }
        let reposts = kinds.values.reduce((0, 0)) { ($0.0 + $1.pairs, $0.1 + $1.same) }
        print(
            "distinct \(distinct.0), called the same \(distinct.1); reposts \(reposts.0), caught \(reposts.1) "
                + String(format: "(%.2f %%)", 100 * Double(reposts.1) / Double(max(1, reposts.0)))
        )
        print("identities \(made - started), comparisons \(compared - made)")
        if let dump { try (lines.joined(separator: "\n") + "\n").write(to: dump, atomically: true, encoding: .utf8) }
    }
}

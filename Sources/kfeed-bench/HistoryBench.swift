import Foundation
import KFeed
import KFeedBase
import KFeedImages
import KFeedTestSupport

/// `kfeed-bench history [--shown N] [--new N] [--photos DIR] [--runs N]`: what a week of history costs a refresh's
/// repost check. `--shown` pictures (default 170, a week of 24 entries a day) make the history, as `history.json`
/// and `history-cells.bin` keep them (hash, base64 detail signature and fine cells, finer cells); `--new` pictures (default 28, a refresh's entries and spares) are
/// then checked against it as the variety step does: each new picture against every picture shown in the window
/// and against the new ones kept before it, by ``PictureIdentity/isSamePicture(as:)``. The pictures are `small`
/// widget thumbnails of the corpus photos in `--photos` and of every ``LayoutFamily`` (look-alikes: many hash
/// candidates, the costly case), new ones of seeds no shown one has. Prints the comparisons, the hash candidates,
/// and the CPU time of the step (history decoded from its stored form, then the comparisons), median of `--runs`.
/// Then what `history.json` and `history-cells.bin` cost a refresh, which reads and rewrites them whole: their sizes,
/// and the CPU time to decode them, to make their pictures' identities and to encode them again, with a week's
/// records and with ``History/maxRecords``.
enum HistoryBench {
    static func run(_ arguments: [String]) throws {
        var shownCount = 170
        var newCount = 28
        var runs = 5
        var photos: URL?
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--shown": shownCount = iterator.next().flatMap(Int.init) ?? shownCount
            case "--new": newCount = iterator.next().flatMap(Int.init) ?? newCount
            case "--runs": runs = max(1, iterator.next().flatMap(Int.init) ?? runs)
            case "--photos": photos = iterator.next().map { URL(fileURLWithPath: $0, isDirectory: true) }
            default: throw ImageBench.BenchError("unknown option \(argument)")
            }
        }
        let thumbnailer = JPEGThumbnailer()
        func identity(_ jpeg: Data) throws -> PictureIdentity {
            let thumbnail = try thumbnailer.thumbnail(of: jpeg, size: .small)
            guard let identity = PictureIdentity.of(jpeg: thumbnail) else { throw ImageBench.BenchError("no identity") }
            return identity
        }
        func member(_ index: Int, seedBase: Int) throws -> PictureIdentity {
            // The eleven families this was first measured with (the later ones are the repost benchmark's held-out
            // half), so that its figures stay comparable.
            let families = Array(LayoutFamily.allCases.prefix(11))
            let family = families[index % families.count]
            let seed = seedBase + index / families.count
            return try identity(
                TestJPEG.jpeg(family.picture(seed: seed, width: 544, height: 680), width: 544, height: 680)
            )
        }
        var shown: [PictureIdentity] = []
        if let photos {
            let files = try FileManager.default.contentsOfDirectory(at: photos, includingPropertiesForKeys: nil)
                .filter { $0.pathExtension.lowercased() == "jpg" }.sorted { $0.path < $1.path }
            for file in files.prefix(shownCount) { shown.append(try identity(Data(contentsOf: file))) }
        }
        var index = 0
        while shown.count < shownCount {
            shown.append(try member(index, seedBase: 0))
            index += 1
        }
        let new = try (0..<newCount).map { try member($0, seedBase: 1_000) }
        // As `history.json` and `history-cells.bin` store them.
        let stored = shown.map {
            (hash: $0.hash.description, detail: $0.detail.base64, fine: $0.detail.fineBase64, finer: $0.detail.finer)
        }

        var milliseconds: [Double] = []
        var comparisons = 0
        var candidates = 0
        var same = 0
        for _ in 0..<runs {
            same = 0
            let start = threadCPUMilliseconds()
            do {
                let history = stored.compactMap { hash, detail, fine, finer -> PictureIdentity? in
                    guard let hash = PerceptualHash(hash),
                        let detail = DetailSignature(base64: detail, fine: fine, finer: finer)
                    else {
                        return nil
                    }
                    return PictureIdentity(hash: hash, detail: detail)
                }
                var taken: [PictureIdentity] = []
                for picture in new {
                    let earlier = taken.filter { picture.isSamePicture(as: $0) }
                    let before = history.filter { picture.isSamePicture(as: $0) }
                    same += earlier.count + before.count
                    if earlier.isEmpty && before.isEmpty { taken.append(picture) }
                }
            }
            milliseconds.append(threadCPUMilliseconds() - start)
        }
        // The pairs the step compared, counted apart from its timing.
        var taken: [PictureIdentity] = []
        for picture in new {
            let others = taken + shown
            comparisons += others.count
            candidates +=
                others.filter {
                    picture.hash.distance(to: $0.hash) <= PictureIdentity.candidateHashDistance
                }.count
            if !others.contains(where: picture.isSamePicture) { taken.append(picture) }
        }
        milliseconds.sort()
        // With a week's records and with the most kept; the latter also without the fine and finer cells (as schema
        // 2 kept them), to show what they cost.
        var files = try [shown.count, History.maxRecords].map { try fileCost(of: stored, records: $0, runs: runs) }
        files.append(
            try fileCost(of: stored.map { ($0.hash, $0.detail, nil, nil) }, records: History.maxRecords, runs: runs)
        )
        print("==================== kfeed repost check against a week of history ====================")
        print("history: \(shown.count) pictures shown; checked: \(new.count) new pictures")
        print("comparisons \(comparisons), hash candidates \(candidates), called the same \(same)")
        print(
            String(
                format: "variety step: %.1f ms of CPU (median of %d; min %.1f, max %.1f), %.3f ms a hash candidate",
                milliseconds[milliseconds.count / 2],
                runs,
                milliseconds.first ?? 0,
                milliseconds.last ?? 0,
                milliseconds[milliseconds.count / 2] / Double(max(1, candidates))
            )
        )
        for file in files {
            let what = "history, \(file.records) records\(file.fine ? "" : " without fine and finer cells")"
            let cost = String(
                format: "history.json %.0f KiB + history-cells.bin %.0f KiB; decode %.1f ms, identities %.1f ms, "
                    + "encode %.1f ms of CPU",
                Double(file.bytes) / 1024,
                Double(file.cellBytes) / 1024,
                file.decode,
                file.identities,
                file.encode
            )
            print("\(what): \(cost)")
        }
        print("=======================================================================================")
    }

    /// `history.json` and `history-cells.bin` with `records` records (the stored pictures in turn) as a refresh reads
    /// and writes them: their sizes, and the median CPU milliseconds of `runs` to decode them, to make their pictures'
    /// identities (``History/pictures``) and to encode them.
    static func fileCost(
        of stored: [(hash: String, detail: String, fine: String?, finer: [UInt8]?)],
        records count: Int,
        runs: Int
    ) throws -> (
        records: Int, fine: Bool, bytes: Int, cellBytes: Int, decode: Double, identities: Double, encode: Double
    ) {
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        let records: [[String: Any]] = (0..<count).map { index in
            let picture = stored[index % stored.count]
            let shownAt = InstantFormat.string(from: start.addingTimeInterval(Double(index) * 3_600))
            var record: [String: Any] = [
                "post_id": String(1_859_000_000_000_000_000 + index), "media_key": "3_\(index)",
                "hash": picture.hash, "detail": picture.detail, "shown_at": shownAt, "generation": shownAt,
            ]
            record["fine"] = picture.fine
            return record
        }
        let seed = try JSONSerialization.data(withJSONObject: ["schema": 3, "records": records])
        // As the cache stores it: written by the cache's encoders.
        var written = try InstantFormat.jsonDecoder().decode(History.self, from: seed)
        for index in 0..<count {
            if let finer = stored[index % stored.count].finer { written.finer["3_\(index)"] = finer }
        }
        let data = try InstantFormat.jsonEncoder().encode(written)
        let cells = HistoryCells.encode(written.recordedFiner)
        var (decode, identities, encode): ([Double], [Double], [Double]) = ([], [], [])
        for _ in 0..<runs {
            var begin = threadCPUMilliseconds()
            var history = try InstantFormat.jsonDecoder().decode(History.self, from: data)
            history.finer = HistoryCells.decode(cells)
            decode.append(threadCPUMilliseconds() - begin)
            begin = threadCPUMilliseconds()
            let pictures = history.pictures
            identities.append(threadCPUMilliseconds() - begin)
            guard pictures.count == count else { throw ImageBench.BenchError("\(pictures.count) of \(count) pictures") }
            begin = threadCPUMilliseconds()
            _ = try InstantFormat.jsonEncoder().encode(history)
            _ = HistoryCells.encode(history.recordedFiner)
            encode.append(threadCPUMilliseconds() - begin)
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        return (
            count, stored.first?.fine != nil, data.count, cells.count, median(decode), median(identities),
            median(encode)
        )
    }
}

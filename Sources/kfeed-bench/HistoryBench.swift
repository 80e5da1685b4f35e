import Foundation
import KFeed
import KFeedImages
import KFeedTestSupport

/// `kfeed-bench history [--shown N] [--new N] [--photos DIR] [--runs N]`: what a week of history costs a refresh's
/// repost check. `--shown` pictures (default 170, a week of 24 entries a day) make the history, as `history.json`
/// keeps them (hash and base64 detail signature); `--new` pictures (default 28, a refresh's entries and spares) are
/// then checked against it as the variety step does: each new picture against every picture shown in the window
/// and against the new ones kept before it, by ``PictureIdentity/isSamePicture(as:)``. The pictures are `small`
/// widget thumbnails of the corpus photos in `--photos` and of every ``LayoutFamily`` (look-alikes: many hash
/// candidates, the costly case), new ones of seeds no shown one has. Prints the comparisons, the hash candidates,
/// and the CPU time of the step (history decoded from its stored form, then the comparisons), median of `--runs`.
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
        // As `history.json` stores them.
        let stored = shown.map { ($0.hash.description, $0.detail.base64, $0.detail.fineBase64) }

        // The thread's CPU time, not the wall: the machine is shared.
        func cpu() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) / 1e6
        }
        var milliseconds: [Double] = []
        var comparisons = 0
        var candidates = 0
        var same = 0
        for _ in 0..<runs {
            same = 0
            let start = cpu()
            do {
                let history = stored.compactMap { hash, detail, fine -> PictureIdentity? in
                    guard let hash = PerceptualHash(hash), let detail = DetailSignature(base64: detail, fine: fine)
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
            milliseconds.append(cpu() - start)
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
        print("=======================================================================================")
    }
}

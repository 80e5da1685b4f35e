import Foundation
import KFeed

/// `kfeed-bench hashes files…`: the distances behind `PerceptualHash.sameImageThreshold`. Each photo is made into a
/// `small` widget thumbnail the way a refresh does, and so are two reposts of it as X would serve them (the photo
/// re-encoded into its `medium` and its `small` rendition, 1200 and 680 px on the long side, quality 85); it prints
/// the distances between a photo and its reposts, and between every two different photos.
enum HashBench {
    static func run(_ arguments: [String]) throws {
        let files = arguments.map { URL(fileURLWithPath: $0) }
        guard files.count >= 2 else { throw ImageBench.BenchError("usage: kfeed-bench hashes files…") }
        let thumbnailer = JPEGThumbnailer()
        func hash(_ jpeg: Data) throws -> PerceptualHash {
            let thumbnail = try thumbnailer.thumbnail(of: jpeg, size: .small)
            guard let hash = PerceptualHash.of(jpeg: thumbnail) else { throw ImageBench.BenchError("no hash") }
            return hash
        }
        func rendition(_ jpeg: Data, fitting side: Int) throws -> Data {
            let display = try thumbnailer.displaySize(of: jpeg)
            let (width, height) = (display.width, display.height)
            let scale = min(1, Double(side) / Double(max(width, height)))
            let size = ImageSize(
                width: max(16, Int((Double(width) * scale).rounded())),
                height: max(16, Int((Double(height) * scale).rounded()))
            )
            return try thumbnailer.thumbnail(of: jpeg, size: size)
        }
        var originals: [PerceptualHash] = []
        var reposts: [Int] = []
        for file in files {
            let jpeg = try Data(contentsOf: file)
            let original = try hash(jpeg)
            originals.append(original)
            let medium = try hash(rendition(jpeg, fitting: 1_200))
            let small = try hash(rendition(jpeg, fitting: 680))
            let distances = [original.distance(to: medium), original.distance(to: small), medium.distance(to: small)]
            reposts += distances
            print("repost \(file.lastPathComponent) \(distances.map(String.init).joined(separator: " "))")
        }
        var distinct: [Int] = []
        for first in originals.indices {
            for second in originals.indices where second > first {
                distinct.append(originals[first].distance(to: originals[second]))
            }
        }
        distinct.sort()
        reposts.sort()
        func percentile(_ values: [Int], _ p: Double) -> Int {
            values[min(values.count - 1, Int(Double(values.count) * p))]
        }
        print(
            "reposts: \(reposts.count) pairs, max \(reposts.last ?? 0), p99 \(percentile(reposts, 0.99)), "
                + "median \(percentile(reposts, 0.5))"
        )
        print(
            "distinct: \(distinct.count) pairs, min \(distinct.first ?? 0), p1 \(percentile(distinct, 0.01)), "
                + "median \(percentile(distinct, 0.5)); at or under \(PerceptualHash.sameImageThreshold): "
                + "\(distinct.filter { $0 <= PerceptualHash.sameImageThreshold }.count)"
        )
        print("distinct distances: \(distinct.prefix(12).map(String.init).joined(separator: " ")) …")
    }
}

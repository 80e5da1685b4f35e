import Foundation
import KFeed
import KFeedBase
import KFeedHTTP
import KFeedImages
import KFeedTestSupport

/// `kfeed-bench serve [--photos DIR] [--rendition NAME] [--search distinct|sample] [--latency-ms N]`: a loopback
/// X API for whole-refresh benchmarks, with `latency-ms` before every response. Prints `port N` on stdout, then
/// serves until standard input closes.
///
/// Search: `distinct` (default) answers one page of `max_results` posts, each with one photo and its own author,
/// so a 24-entry refresh fetches 24 photos and 24 avatars after a single search; `sample` answers the bundled
/// sample's two pages (11 authors). Every image URL points back at this server.
///
/// Photos come from `DIR` (the benchmark corpus; the bundled sample images without it), each URL the next photo,
/// served as X serves a rendition (`--rendition`, default `small`): fitted into 680 px (`small`), 1200 (`medium`)
/// or 2048 (`large`), oriented and re-encoded as 4:2:0 at quality 85 without metadata, or as it is (`orig`, and
/// any photo already within the size), all made before the port is printed. A `name=` in the request picks
/// another rendition: kfeed asks X for `name=small` at the default widget size, but adds `name=` only on
/// pbs.twimg.com, so here its plain URLs stand for the rendition it would have asked for. Avatars are 400×400 crops of the photos, as `_400x400` avatars are.
enum ServeBench {
    static func run(_ arguments: [String]) async throws {
        var photos = Fixture.directory.appendingPathComponent("images")
        var latency = 100
        var rendition = "small"
        var distinct = true
        var remaining = arguments[...]
        while let flag = remaining.popFirst() {
            guard let value = remaining.popFirst() else { throw KFeedError(.usage, "\(flag) needs a value") }
            switch (flag, value) {
            case ("--photos", _): photos = URL(fileURLWithPath: value)
            case ("--latency-ms", _): latency = Int(value) ?? latency
            case ("--rendition", _) where Renditions.fits[value] != nil: rendition = value
            case ("--search", "distinct"), ("--search", "sample"): distinct = value == "distinct"
            default:
                throw KFeedError(
                    .usage,
                    "bad option \(flag) \(value); use --photos DIR, --rendition small|medium|large|orig, "
                        + "--search distinct|sample, --latency-ms N"
                )
            }
        }
        let originals = try FileManager.default.contentsOfDirectory(atPath: photos.path)
            .filter { $0.hasSuffix(".jpg") && !$0.hasPrefix("avatar") && !$0.hasPrefix("broken") }.sorted()
            .map { try Data(contentsOf: photos.appendingPathComponent($0)) }
        let renditions = try Renditions(originals: originals, prepared: [rendition])
        let (plain, isDistinct) = (rendition, distinct)
        let samplePages = try (1...2).map { try Fixture.data("recent-search.sample-page\($0).json") }
        let delay = Duration.milliseconds(latency)
        let photoCounter = Counter()
        let avatarCounter = Counter()

        let handler: @Sendable (LoopbackServer.Request) -> LoopbackServer.Response = { request in
            // One line per request (one write: lines never interleave), for bench/cli.sh's sequential client.
            FileHandle.standardOutput.write(Data("request \(request.target)\n".utf8))
            let host = "http://\(request[header: "Host"] ?? "127.0.0.1")"
            let jpeg = [HTTPHeader("Content-Type", "image/jpeg")]
            if request.path == RecentSearchRequest.path {
                let body =
                    isDistinct
                    ? distinctPage(posts: Int(request.queryValue("max_results") ?? "") ?? 10, host: host)
                    : Data(
                        String(decoding: samplePages[request.queryValue("next_token") == nil ? 0 : 1], as: UTF8.self)
                            .replacingOccurrences(of: "https://pbs.twimg.com", with: host).utf8
                    )
                return LoopbackServer.Response(
                    headers: [HTTPHeader("Content-Type", "application/json")],
                    body: body,
                    delay: delay
                )
            }
            if request.path.hasPrefix("/profile_images/") {
                let avatar = renditions.avatar(avatarCounter.next(for: request.path))
                return LoopbackServer.Response(headers: jpeg, body: avatar, delay: delay)
            }
            // Each photo URL gets the next corpus photo, so 24 chosen posts show 24 different photographs.
            let index = photoCounter.next(for: request.path)
            let photo = renditions.photo(index, request.queryValue("name") ?? plain)
            return LoopbackServer.Response(headers: jpeg, body: photo, delay: delay)
        }
        try await LoopbackServer.withServer(handler) { server in
            print("port \(server.port)")
            fflush(nil)
            // Serve until the benchmark script closes our standard input.
            await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    _ = FileHandle.standardInput.readDataToEndOfFile()
                    continuation.resume()
                }
            }
        }
    }

    /// One page of `posts` (10…100) photo posts, a minute apart up to now, each by its own author.
    static func distinctPage(posts: Int, host: String) -> Data {
        let count = min(100, max(10, posts))
        let firstID = 1_859_180_000_000_000_000
        let now = Date()
        let numbers = Array(0..<count)
        let object: [String: Any] = [
            "data": numbers.map { n in
                [
                    "id": String(firstID - n), "text": "photo \(n)", "author_id": String(3_000_000 + n),
                    "created_at": InstantFormat.string(from: now.addingTimeInterval(-60 * Double(n + 1))),
                    "attachments": ["media_keys": ["3_\(firstID - n)"]], "possibly_sensitive": false, "lang": "ko",
                ] as [String: Any]
            },
            "includes": [
                "media": numbers.map { n in
                    [
                        "media_key": "3_\(firstID - n)", "type": "photo", "width": 1_200, "height": 800,
                        "url": "\(host)/media/B\(n).jpg",
                    ] as [String: Any]
                },
                "users": numbers.map { n in
                    [
                        "id": String(3_000_000 + n), "name": "Author \(n)", "username": "author\(n)",
                        "profile_image_url": "\(host)/profile_images/\(n)/a_normal.jpg",
                    ]
                },
            ],
            "meta": [
                "result_count": count, "newest_id": String(firstID), "oldest_id": String(firstID - count + 1),
            ] as [String: Any],
        ]
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    }
}

/// Numbers each distinct path in order of first request.
private final class Counter: @unchecked Sendable {
    // `@unchecked Sendable`: `indices` is only touched under `lock`.
    private let lock = NSLock()
    private var indices: [String: Int] = [:]

    func next(for path: String) -> Int {
        lock.withLock {
            if let index = indices[path] { return index }
            indices[path] = indices.count
            return indices.count - 1
        }
    }
}

/// The corpus photos at X's renditions and as 400×400 avatars, made once each (those named at start-up before
/// serving).
private final class Renditions: @unchecked Sendable {
    // `@unchecked Sendable`: `made` is only touched under `lock`.
    static let fits: [String: Int] = ["small": 680, "medium": 1_200, "large": 2_048, "orig": .max]
    private static let avatarSize = ImageSize(width: 400, height: 400)

    private let originals: [Data]
    private let avatars: [Data]
    private let lock = NSLock()
    private var made: [String: [Int: Data]] = [:]

    init(originals: [Data], prepared: [String]) throws {
        self.originals = originals
        // Avatars start halfway through the corpus, so a post's avatar is not its own photo.
        avatars = try originals.indices.map { index in
            try Self.encode(originals[(index + originals.count / 2) % originals.count], Self.avatarSize)
        }
        for name in prepared {
            for index in originals.indices { _ = try make(index, name) }
        }
    }

    /// Avatar `index`, modulo the corpus.
    func avatar(_ index: Int) -> Data { avatars.isEmpty ? Data() : avatars[index % avatars.count] }

    /// Photo `index` (modulo the corpus) at rendition `name`; an unknown name is served whole, like `orig`.
    func photo(_ index: Int, _ name: String) -> Data {
        guard !originals.isEmpty else { return Data() }
        // A photo that cannot be re-encoded is served as it is: kfeed then meets the original's failure.
        return (try? make(index % originals.count, name)) ?? originals[index % originals.count]
    }

    /// `original` cropped to fill `size`, encoded as X encodes its renditions: 4:2:0, quality 85 (kfeed's own
    /// thumbnails are 4:4:4).
    private static func encode(_ original: Data, _ size: ImageSize) throws -> Data {
        let pixels = try JPEGThumbnailer().pixels(of: original, size: size)
        return try JPEGEncoder.encode(
            pixels,
            width: size.width,
            height: size.height,
            format: .rgbx,
            subsampling: .s420,
            quality: 85
        )
    }

    private func make(_ index: Int, _ name: String) throws -> Data {
        if let data = lock.withLock({ made[name]?[index] }) { return data }
        let original = originals[index]
        let fits = Self.fits[name] ?? .max
        let size = try JPEGThumbnailer().displaySize(of: original)
        let scale = min(1, Double(fits) / Double(max(size.width, size.height)))
        let width = max(1, Int((Double(size.width) * scale).rounded()))
        let height = max(1, Int((Double(size.height) * scale).rounded()))
        let data = scale >= 1 ? original : try Self.encode(original, ImageSize(width: width, height: height))
        lock.withLock { made[name, default: [:]][index] = data }
        return data
    }
}

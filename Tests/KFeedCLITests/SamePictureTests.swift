import Foundation
import KFeed
import KFeedBase
import KFeedImages
import KFeedTestSupport
import Testing

/// "The same picture" through the built binary over two days (`kfeed refresh --no-repeat-days 7` against a loopback
/// X, `docs/timeline.md`): pictures that share one backdrop and differ only in a subject of about 3 % of the frame
/// are all distinct, so every one of them is shown; a repost at 0.6× the pixel size among such look-alikes is the
/// same picture, so it and its original are never shown the same day; receipts of one template that differ only in
/// small type are new pictures the next day too (the history's finer cells, `history-cells.bin`, without which two
/// of them are taken for the day before's). Pictures are served as X's `small` rendition
/// would deliver them (fitted within 680 px), the rendition kfeed asks for a `small` widget.
@Suite(.timeLimit(.minutes(4)))
struct SamePictureTests {
    private static let environment = ["X_BEARER_TOKEN": "AAAAsamePictureToken0123456789", "NO_PROXY": "*"]
    private static let t0 = Date(timeIntervalSince1970: 1_795_338_000)  // 2026-11-22T09:00:00Z

    /// A post of the made-up search: its number, its picture's name, the picture's pixel size.
    private struct Post {
        var number: Int
        var width: Int
        var height: Int
        var created: Date

        var id: String { String(1_859_170_000_000_000_000 + number) }
        var mediaKey: String { "3_\(1_859_170_000_000_100_000 + number)" }
        var path: String { "/media/SAME\(number).jpg" }
    }

    /// A recent-search answer with `posts`, newest first, each by an author of its own, one photo each.
    private static func search(_ posts: [Post]) throws -> Data {
        let sorted = posts.sorted { $0.created > $1.created }
        let object: [String: Any] = [
            "data": sorted.map { post in
                [
                    "id": post.id, "text": "stage \(post.number)",
                    "author_id": String(1_500_000_000_000_000_000 + post.number),
                    "created_at": InstantFormat.string(from: post.created), "possibly_sensitive": false, "lang": "en",
                    "edit_history_tweet_ids": [post.id], "attachments": ["media_keys": [post.mediaKey]],
                ] as [String: Any]
            },
            "includes": [
                "media": sorted.map { post in
                    [
                        "media_key": post.mediaKey, "type": "photo", "url": "https://pbs.twimg.com\(post.path)",
                        "width": post.width, "height": post.height,
                    ] as [String: Any]
                },
                "users": sorted.map { post in
                    [
                        "id": String(1_500_000_000_000_000_000 + post.number), "name": "Lens \(post.number)",
                        "username": "lens_\(post.number)",
                    ] as [String: Any]
                },
            ],
            "meta": [
                "result_count": sorted.count, "newest_id": sorted.first?.id ?? "", "oldest_id": sorted.last?.id ?? "",
            ],
        ]
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    }

    /// `count` posts of pictures of `width`×`height`: the first 30 made in the hour before today's refresh, a minute
    /// apart, the rest in the half hour before tomorrow's.
    private static func overTwoDays(_ count: Int, width: Int, height: Int) -> [Post] {
        (0..<count).map { n in
            Post(
                number: n,
                width: width,
                height: height,
                created: t0.addingTimeInterval(n < 30 ? -3_600 + Double(n) * 60 : 86_400 - 1_800 + Double(n - 30) * 60)
            )
        }
    }

    /// `jpeg` as X's `small` rendition delivers it: fitted within 680×680, never enlarged.
    private static func smallRendition(_ jpeg: Data) throws -> Data {
        let thumbnailer = JPEGThumbnailer()
        let size = try thumbnailer.displaySize(of: jpeg)
        let scale = min(1, 680 / Double(max(size.width, size.height)))
        return try thumbnailer.thumbnail(
            of: jpeg,
            size: ImageSize(
                width: Int((Double(size.width) * scale).rounded()),
                height: Int((Double(size.height) * scale).rounded())
            )
        )
    }

    private static func refresh(
        _ server: LoopbackServer,
        cache: URL,
        at date: Date
    ) async throws
        -> KFeedProcess.Result
    {
        try await KFeedProcess.run(
            [
                "refresh", "--api-base", server.baseURL.absoluteString, "--cache", cache.path, "--now",
                InstantFormat.string(from: date), "--no-repeat-days", "7",
            ],
            environment: environment
        )
    }

    /// Serves `search` and, for a picture's path, `pictures[path]`.
    private static func handler(
        search: Data,
        pictures: [String: Data]
    )
        -> @Sendable (LoopbackServer.Request) ->
        LoopbackServer.Response
    {
        LoopbackServer.searching(search) { path in pictures[path] ?? Data() }
    }

    @Test func thirtySixPicturesOfOneBackdropAreAllShownOverTwoDays() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = directory.url.appendingPathComponent("cache")
        // 30 posts today, 6 more tomorrow: one backdrop, a subject of about 3 % of the frame each, no two alike.
        let posts = Self.overTwoDays(36, width: 800, height: 800)
        var pictures: [String: Data] = [:]
        for post in posts {
            let pixels = LayoutFamily.backdrop.picture(seed: post.number, width: post.width, height: post.height)
            pictures[post.path] = try Self.smallRendition(TestJPEG.jpeg(pixels, width: post.width, height: post.height))
        }
        var shown: Set<String> = []
        let day1 = try Self.search(Array(posts.prefix(30)))
        try await LoopbackServer.withServer(Self.handler(search: day1, pictures: pictures)) { server in
            let run = try await Self.refresh(server, cache: cache, at: Self.t0)
            #expect(run.status == 0, "\(run.stderr)")
        }
        let first = try #require(try CacheStore(directory: cache).manifest())
        #expect(first.entries.count == 24)
        #expect(first.entries.allSatisfy { !$0.placeholder }, "\(first.entries.map(\.media.key))")
        shown.formUnion(first.entries.filter { !$0.placeholder }.map(\.media.key))
        let day2 = try Self.search(posts)
        try await LoopbackServer.withServer(Self.handler(search: day2, pictures: pictures)) { server in
            let run = try await Self.refresh(server, cache: cache, at: Self.t0.addingTimeInterval(86_400))
            #expect(run.status == 0, "\(run.stderr)")
        }
        let second = try #require(try CacheStore(directory: cache).manifest())
        shown.formUnion(second.entries.filter { !$0.placeholder }.map(\.media.key))
        let missing = posts.filter { !shown.contains($0.mediaKey) }.map(\.number)
        #expect(missing.isEmpty, "never shown: \(missing)")
    }

    @Test(arguments: [true, false])
    func receiptsThatDifferOnlyInSmallTypeAreNewPicturesTheNextDay(keepingCells: Bool) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = directory.url.appendingPathComponent("cache")
        // Receipts of one template, each with items and prices of its own (type a few pixels high in the widget):
        // 30 posts today, 6 more tomorrow. Tomorrow's receipts 52 and 67 differ from today's 50 and 8 only in what
        // the finer cells see, so they are told apart from them only with the cells the history keeps.
        let seeds = [0] + (9...35).filter { $0 != 26 } + [26, 8, 50] + [52, 67, 60, 61, 62, 63]
        let posts = Self.overTwoDays(seeds.count, width: 544, height: 680)
        var pictures: [String: Data] = [:]
        for post in posts {
            let pixels = LayoutFamily.receipt.picture(seed: seeds[post.number], width: 544, height: 680)
            pictures[post.path] = try Self.smallRendition(TestJPEG.jpeg(pixels, width: 544, height: 680))
        }
        try await LoopbackServer.withServer(
            Self.handler(search: try Self.search(Array(posts.prefix(30))), pictures: pictures)
        ) { server in
            let run = try await Self.refresh(server, cache: cache, at: Self.t0)
            #expect(run.status == 0, "\(run.stderr)")
        }
        let first = try #require(try CacheStore(directory: cache).manifest())
        let shown = Set(first.entries.map(\.media.key))
        #expect(shown.isSuperset(of: [posts[28].mediaKey, posts[29].mediaKey]), "receipts 8 and 50 shown today")
        // As an older kfeed left the cache: history.json alone.
        if !keepingCells { try FileManager.default.removeItem(at: cache.appendingPathComponent("history-cells.bin")) }
        try await LoopbackServer.withServer(Self.handler(search: try Self.search(posts), pictures: pictures)) {
            server in
            let run = try await Self.refresh(server, cache: cache, at: Self.t0.addingTimeInterval(86_400))
            #expect(run.status == 0, "\(run.stderr)")
        }
        let second = try #require(try CacheStore(directory: cache).manifest())
        let new = Set(second.entries.filter { !$0.isRepeat }.map(\.media.key))
        let twins = [posts[30].mediaKey, posts[31].mediaKey]
        if keepingCells {
            let missing = posts.suffix(6).filter { !new.contains($0.mediaKey) }.map { seeds[$0.number] }
            #expect(missing.isEmpty, "tomorrow's receipts not shown as new pictures: \(missing)")
        } else {
            #expect(!new.isSuperset(of: twins), "without the cells, 52 or 67 is taken for today's 50 or 8")
        }
    }

    @Test func aRepostAtSixTenthsItsSizeAmongLookAlikesIsNotShownTheSameDayAsItsOriginal() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = directory.url.appendingPathComponent("cache")
        // 30 posts: 28 look-alikes (one backdrop, a subject each), an original of 1200×800 (post 3) and, later in the
        // search's order, the same photo at 720×480 (post 10).
        let posts = (0..<30).map { n in
            Post(
                number: n,
                width: n == 10 ? 720 : 1_200,
                height: n == 10 ? 480 : 800,
                created: Self.t0.addingTimeInterval(-60 - Double(n) * 60)
            )
        }
        let original = try TestJPEG.jpeg(
            LayoutFamily.backdrop.picture(seed: 45, width: 1_200, height: 800),
            width: 1_200,
            height: 800
        )
        let repost = try JPEGThumbnailer().thumbnail(of: original, size: ImageSize(width: 720, height: 480))
        var pictures: [String: Data] = [:]
        for post in posts {
            let jpeg =
                switch post.number {
                case 3: original
                case 10: repost
                default:
                    try TestJPEG.jpeg(
                        LayoutFamily.backdrop.picture(seed: post.number, width: 1_200, height: 800),
                        width: 1_200,
                        height: 800
                    )
                }
            pictures[post.path] = try Self.smallRendition(jpeg)
        }
        let ids = [posts[3].id, posts[10].id]
        try await LoopbackServer.withServer(Self.handler(search: try Self.search(posts), pictures: pictures)) {
            server in
            for day in 0..<2 {
                let run = try await Self.refresh(
                    server,
                    cache: cache,
                    at: Self.t0.addingTimeInterval(Double(day) * 86_400)
                )
                #expect(run.status == 0, "\(run.stderr)")
                let manifest = try #require(try CacheStore(directory: cache).manifest())
                #expect(manifest.entries.count == 24)
                let both = manifest.entries.filter { ids.contains($0.tweetID) }
                #expect(both.count <= 1, "day \(day + 1): the original and its repost both shown")
                if day == 0 { #expect(both.map(\.tweetID) == [posts[3].id]) }
            }
        }
    }
}

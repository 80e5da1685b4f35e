import Foundation
import KFeed
import KFeedBase
import KFeedTestSupport

/// A feeds file with two feeds, `news` (the default) and `pets`, refreshed from the sample replay into a cache root of
/// their own (`DIR/feeds/NAME/`), both with `trmnl` renders. `pets` was refreshed a day earlier too and remembers
/// what it showed then (`no_repeat_days`), and its pictures are a larger size and its renders without the caption
/// band, so that no file of one is a file of the other: each answer's bytes say which feed it is from.
struct TwoFeeds {
    /// Holds the feeds file (`kfeed.toml`) and the cache root (`cache/`).
    let directory: TemporaryDirectory

    /// The feeds file.
    var config: URL { directory.url.appendingPathComponent("kfeed.toml") }
    /// The cache root (`--cache`).
    var cache: URL { directory.url.appendingPathComponent("cache") }

    /// Writes the file (`serve`: a `[serve]` table, or nothing; `petsEntries`: the length of pets' timeline) and
    /// refreshes the feeds named (`refreshed`) at `now`.
    static func make(
        now: Date,
        interval: String = "1h",
        serve: String = "",
        refreshed: [String] = ["news", "pets"],
        petsEntries: Int = 6
    ) async throws -> TwoFeeds {
        let feeds = TwoFeeds(directory: try TemporaryDirectory())
        var text = ""
        for name in ["news", "pets"] {
            text += """
                [feeds.\(name)]
                query = "\(name) has:images"
                entries = \(name == "pets" ? petsEntries : 6)
                interval = "\(interval)"
                profiles = ["trmnl"]
                \(name == "pets" ? "no_repeat_days = 7\nsize = \"medium\"\ncaptions = false" : "")

                """
        }
        try Data((text + serve + "\n").utf8).write(to: feeds.config)
        try await feeds.refresh(at: now.addingTimeInterval(-86_400), ["--feed", "pets"])
        try await feeds.refresh(at: now, refreshed.flatMap { ["--feed", $0] } + ["--force"])
        return feeds
    }

    /// `kfeed refresh --config … --cache … --replay sample --now now more…`.
    /// - Throws: `KFeedError` when it does not exit 0.
    func refresh(at now: Date, _ more: [String] = []) async throws {
        let result = try await KFeedProcess.run(
            [
                "refresh", "--config", config.path, "--cache", cache.path, "--replay", Fixture.replay("sample").path,
                "--now", InstantFormat.string(from: now),
            ] + more
        )
        guard result.status == 0 else {
            throw KFeedError(.io, "the feeds' refresh failed (\(result.status)): \(result.stderr)")
        }
    }

    /// A feed's cache directory.
    func directory(of feed: String) -> URL {
        cache.appendingPathComponent("feeds/\(feed)")
    }

    /// A feed's committed timeline.
    func manifest(of feed: String) throws -> Manifest {
        guard let manifest = try CacheStore(directory: directory(of: feed)).manifest() else {
            throw KFeedError(.io, "feed \(feed) has no timeline")
        }
        return manifest
    }

    /// The bytes of a file in a feed's cache directory.
    func data(_ path: String, of feed: String) throws -> Data {
        try Data(contentsOf: directory(of: feed).appendingPathComponent(path))
    }

    func remove() {
        directory.remove()
    }
}

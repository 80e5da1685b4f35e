import ArgumentParser
import Foundation
import KFeed
import KFeedBase
import KFeedServe

/// `kfeed feed`: the feed's timeline as JSON Feed 1.1 or RSS 2.0 with Media RSS, for static hosting beside the cache
/// (`docs/feeds.md`, "Feed readers"): what `kfeed serve` answers at `/feed.json` and `/feed.xml`.
struct FeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract: "Write the timeline as JSON Feed or RSS (with Media RSS) for feed readers and static hosting.",
        discussion: """
            Items are the entries whose hour has begun, newest first. Every URL is absolute: --base-url is where \
            the feed's cache directory is served (its images/ and avatars/ below it). Run it after each refresh \
            (kfeed refresh && kfeed feed …), and again when an hour begins.
            """
    )

    @OptionGroup var selection: FeedSelection
    @OptionGroup var cache: CacheLocation
    @OptionGroup var clock: ClockOption

    @Option(help: ArgumentHelp("json (JSON Feed 1.1) or rss (RSS 2.0 with Media RSS).", valueName: "format"))
    var format: Format?

    @Option(
        name: .customLong("base-url"),
        help: ArgumentHelp(
            "The absolute http(s) URL the feed's cache directory is served at (required).",
            valueName: "url"
        )
    )
    var baseURL: String?

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Write to this file (replaced whole) instead of stdout.", valueName: "file")
    )
    var output: String?

    func run() async throws {
        try checkUsage()
        let feeds = try Invocation(selection: selection, cache: cache, clock: clock).feeds()
        let member = try feeds.member(named: selection.names.first)
        let manifest = try member.committedManifest()
        let base = (baseURL ?? "").hasSuffix("/") ? (baseURL ?? "") : (baseURL ?? "") + "/"
        let directory = member.directory
        let document = FeedDocument(name: member.name, manifest: manifest, now: feeds.now, base: base) { path in
            let file = directory.appendingPathComponent(path)
            guard let size = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? Int else {
                return nil
            }
            return FeedDocument.Picture(url: base + path, length: size)
        }
        let data = document.data((format ?? .rss).document)
        guard let output else {
            FileHandle.standardOutput.write(data)
            return
        }
        do {
            try data.write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw KFeedError(.io, "cannot write \(output): check that its directory exists and is writable")
        }
    }
}

extension FeedCommand {
    /// The options the parser leaves optional, checked when the command runs (a `validate()` that throws would hide
    /// an unknown option behind its own message, and `kfeed` names the commands that take an option by parsing it
    /// alone).
    /// - Throws: `ValidationError` (exit 64).
    private func checkUsage() throws {
        guard format != nil else { throw ValidationError("kfeed feed needs --format json or --format rss") }
        if selection.names.count > 1 { throw ValidationError("--feed: kfeed feed writes one feed at a time") }
        guard let baseURL else {
            throw ValidationError(
                "kfeed feed needs --base-url URL: where the cache directory is served (a feed's links are absolute)"
            )
        }
        guard let url = URL(string: baseURL), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
            url.host?.isEmpty == false, url.query == nil, url.fragment == nil
        else {
            throw ValidationError(
                "--base-url '\(baseURL)' is not an absolute http(s) URL, e.g. https://example.org/kfeed/"
            )
        }

    }

    /// `--format`.
    enum Format: String, ExpressibleByArgument {
        case json, rss

        var document: FeedDocument.Format {
            switch self {
            case .json: .json
            case .rss: .rss
            }
        }
    }
}

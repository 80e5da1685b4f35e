import ArgumentParser
import Foundation
import KFeed
import KFeedBase
import KFeedConfig
import KFeedImages

/// The options every command shares (`docs/commands.md`). Flags win over the environment, which wins over `.env`.
struct GlobalOptions: ParsableArguments {
    @Option(name: .customLong("cache"), help: ArgumentHelp("The cache directory.", valueName: "dir"))
    var cacheDirectory: String?

    @Option(
        name: .customLong("config"),
        help: ArgumentHelp(
            "The feeds file (default: KFEED_CONFIG, else ~/.config/kfeed/kfeed.toml when it exists).",
            valueName: "path"
        )
    )
    var config: String?

    @Option(
        name: .customLong("feed"),
        help: ArgumentHelp(
            "With a feeds file: the feed to use (refresh and status: repeat for several; default all, else the first).",
            valueName: "name"
        )
    )
    var feedNames: [String] = []

    @Option(
        name: .customLong("context"),
        help: ArgumentHelp("A context annotation DOMAIN.ENTITY; repeat to OR several.", valueName: "d.e")
    )
    var contexts: [String] = []

    @Option(name: .customLong("query"), help: ArgumentHelp("A raw search query, used as given.", valueName: "q"))
    var query: String?

    @Option(help: ArgumentHelp("Timeline length, 1…100.", valueName: "n"))
    var entries: Int = 24

    @Option(
        help: ArgumentHelp("Time between entries (15m, 1h, 2h…).", valueName: "d"),
        transform: { text in
            do { return try Interval(parsing: text) } catch let error as KFeedError {
                throw ValidationError(error.message)
            }
        }
    )
    var interval: Interval = .hour

    @Option(help: ArgumentHelp("When widgets reload: atEnd, never, after:DATE or after:DURATION.", valueName: "p"))
    var policy: String = "atEnd"

    @Option(
        help: ArgumentHelp("Image size: small, medium, large or WxH.", valueName: "s"),
        transform: { text in
            do { return try ImageSize(parsing: text) } catch let error as KFeedError {
                throw ValidationError(error.message)
            }
        }
    )
    var size: ImageSize?

    @Option(name: .customLong("api-base"), help: ArgumentHelp("The API host.", valueName: "url"))
    var apiBase: String?

    @Option(help: ArgumentHelp("Answer every request from a recorded directory.", valueName: "dir"))
    var replay: String?

    @Option(
        help: ArgumentHelp("The current time: ISO 8601 with Z or an offset.", valueName: "t"),
        transform: { text in
            guard let date = InstantFormat.date(from: text) else {
                throw ValidationError("'\(text)' is not an ISO 8601 date with a zone, e.g. 2026-11-22T09:00:00Z")
            }
            return date
        }
    )
    var now: Date?

    @Option(
        name: .customLong("token-file"),
        help: ArgumentHelp("Read the bearer token from this file.", valueName: "path")
    )
    var tokenFile: String?

    @Option(help: ArgumentHelp("Pages one search may read, 1…10.", valueName: "n"))
    var pages: Int = 3

    @Option(
        name: .customLong("no-repeat-days"),
        help: ArgumentHelp(
            "Days a shown post or picture is not shown again, 0…365; 0 keeps no history (default 7, 0 with --replay).",
            valueName: "n"
        )
    )
    var noRepeatDays: Int?

    @Option(
        name: .customLong("profile"),
        help: ArgumentHelp(
            "Also render each entry for a display: trmnl, trmnl-bmp, grey4, inky7, inkplate, frame or WxH:KIND[:FORMAT] (repeatable).",
            valueName: "p"
        )
    )
    var profiles: [String] = []

    @Flag(name: .customLong("no-caption"), help: "Display renders without the caption band: the bare picture.")
    var noCaption = false

    @Flag(name: .customLong("allow-sensitive"), help: "Keep posts flagged possibly_sensitive.")
    var allowSensitive = false

    @Flag(name: .customLong("video-previews"), help: "Use the still preview of videos and GIFs.")
    var videoPreviews = false

    @Flag(name: .shortAndLong, help: "More detail on stderr (never the token).")
    var verbose = false

    @Flag(name: .shortAndLong, help: "Nothing on stderr but errors.")
    var quiet = false

    func validate() throws {
        guard (1...100).contains(entries) else { throw ValidationError("--entries must be 1…100, not \(entries)") }
        guard (1...10).contains(pages) else { throw ValidationError("--pages must be 1…10, not \(pages)") }
        if let noRepeatDays, !(0...365).contains(noRepeatDays) {
            throw ValidationError("--no-repeat-days must be 0…365, not \(noRepeatDays)")
        }
        if verbose && quiet { throw ValidationError("--verbose and --quiet exclude each other") }
    }

    /// What a command works on: the one feed of the flags and environment, or the feeds of a feeds file.
    enum Target {
        case one(Feed)
        case feeds(Feeds)

        /// The feed a single-feed command shows: the one, or the feeds file's `name` (the first when nil).
        func feed(named name: String?) throws -> Feed {
            switch self {
            case .one(let feed): feed
            case .feeds(let feeds): try feeds.feed(named: name)
            }
        }
    }

    /// Reads the environment, `./.env` and the feeds file (`--config`, `KFEED_CONFIG`, or the default path) once,
    /// and resolves what the command works on.
    /// - Throws: `KFeedError` `.configuration` for an unreadable `.env` or feeds file, invalid values or queries, or a
    ///   `--feed` the file does not define (or without a file).
    func target() throws -> Target {
        let environment = try SettingsEnvironment.load()
        let settings = try settings(environment: environment)
        guard let url = FeedsFile.location(explicit: config, environment: environment) else {
            if let name = feedNames.first {
                throw KFeedError(.configuration, "--feed \(name) needs a feeds file: --config PATH or KFEED_CONFIG")
            }
            return .one(Feed(settings: settings, environment: environment))
        }
        let file = try FeedsFile.load(url, now: settings.now)
        for name in feedNames { _ = try file.feed(named: name) }
        return .feeds(Feeds(file: file, base: settings, environment: environment))
    }

    /// The feed a single-feed command works on (`--feed`, else the first of a feeds file, else the flags' one).
    /// - Throws: as ``target()``.
    func feed() throws -> Feed {
        try target().feed(named: feedNames.first)
    }

    /// Resolves flags, environment and `.env` into settings.
    /// - Throws: `KFeedError` with code `.configuration` for invalid environment values or queries.
    func settings(environment: SettingsEnvironment) throws -> Settings {
        let now = try resolvedNow(environment)
        let query = try resolvedQuery(environment)
        let size = try resolvedSize(environment)
        let apiBaseURL = try resolvedAPIBase(environment)
        let policy = try resolvedPolicy(now: now)
        let profiles = try resolvedProfiles(environment)
        let replay = (replay ?? environment["KFEED_REPLAY"]).map { URL(fileURLWithPath: $0) }
        return Settings(
            query: query,
            builder: TimelineBuilder(
                entryCount: entries,
                interval: interval,
                policy: policy,
                allowsSensitive: allowSensitive,
                usesVideoPreviews: videoPreviews
            ),
            size: size,
            apiBase: apiBaseURL,
            replay: replay,
            cacheDirectory: cacheDirectory.map { URL(fileURLWithPath: $0) }
                ?? environment["KFEED_CACHE_DIR"].map { URL(fileURLWithPath: $0) }
                ?? Self.defaultCacheDirectory(environment),
            isCacheExplicit: cacheDirectory != nil || environment["KFEED_CACHE_DIR"] != nil,
            now: now,
            pageBudget: pages,
            // Recorded answers never change: remembering what they showed would only thin them out run by run.
            noRepeatDays: noRepeatDays ?? (replay == nil ? 7 : 0),
            profiles: profiles,
            captions: !noCaption,
            tokenFile: tokenFile.map { URL(fileURLWithPath: $0) },
            verbosity: verbose ? .verbose : quiet ? .quiet : .normal
        )
    }

    /// `--now`, else `KFEED_NOW`, else the current second.
    private func resolvedNow(_ environment: SettingsEnvironment) throws -> Date {
        try self.now ?? environment["KFEED_NOW"].map { text in
            guard let date = InstantFormat.date(from: text) else {
                throw KFeedError(.configuration, "KFEED_NOW '\(text)' is not an ISO 8601 date with a zone")
            }
            return date
        } ?? Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    }

    /// `--query` (or `KFEED_QUERY` when no `--context` is given) as written, else the contexts of `--context` or
    /// `KFEED_CONTEXTS`.
    private func resolvedQuery(_ environment: SettingsEnvironment) throws -> RecentSearchQuery {
        if let raw = self.query ?? (contexts.isEmpty ? environment["KFEED_QUERY"] : nil) {
            guard contexts.isEmpty else {
                throw KFeedError(.configuration, "--query and --context exclude each other: give one of them")
            }
            return try RecentSearchQuery(raw: raw)
        }
        let texts =
            contexts.isEmpty
            ? (environment["KFEED_CONTEXTS"] ?? "").split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
            : contexts
        return RecentSearchQuery(contexts: try texts.map(ContextAnnotation.init(parsing:)))
    }

    /// `--size`, else `KFEED_SIZE`, else small.
    private func resolvedSize(_ environment: SettingsEnvironment) throws -> ImageSize {
        if let flag = self.size { return flag }
        guard let text = environment["KFEED_SIZE"] else { return .small }
        do { return try ImageSize(parsing: text) } catch let error as KFeedError {
            throw KFeedError(.configuration, "KFEED_SIZE: \(error.message)")
        }
    }

    /// `--api-base`, else `KFEED_API_BASE`, else X's host; an http(s) URL with a host.
    private func resolvedAPIBase(_ environment: SettingsEnvironment) throws -> URL {
        guard let apiText = apiBase ?? environment["KFEED_API_BASE"] else {
            return XClient.Configuration.defaultBaseURL
        }
        guard let url = URL(string: apiText), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
            url.host != nil
        else {
            throw KFeedError(.configuration, "API base '\(apiText)' is not an http(s) URL, e.g. https://api.x.com")
        }
        return url
    }

    /// `--policy`, relative to `now`.
    private func resolvedPolicy(now: Date) throws -> ReloadPolicy {
        do { return try ReloadPolicy(parsing: self.policy, now: now) } catch let error as KFeedError {
            throw KFeedError(.usage, "--policy: \(error.message)")
        }
    }

    /// `--profile`, else `KFEED_PROFILES`; one render per profile name, first kept.
    private func resolvedProfiles(_ environment: SettingsEnvironment) throws -> [DisplayProfile] {
        var profiles: [DisplayProfile] = []
        if !self.profiles.isEmpty {
            profiles = try self.profiles.map { try DisplayProfile(parsing: $0) }
        } else if let text = environment["KFEED_PROFILES"] {
            for name in text.split(whereSeparator: { $0 == "," || $0 == " " }) {
                do { profiles.append(try DisplayProfile(parsing: String(name))) } catch {
                    throw KFeedError(.configuration, "KFEED_PROFILES: \(error.message)")
                }
            }
        }
        var names: Set<String> = []
        return profiles.filter { names.insert($0.name).inserted }
    }

    private static func defaultCacheDirectory(_ environment: SettingsEnvironment) -> URL {
        if let xdg = environment.process["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("kfeed")
        }
        let home = environment.process["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
        return URL(fileURLWithPath: home).appendingPathComponent(".cache/kfeed")
    }
}

/// Everything a command needs, resolved.
struct Settings: Sendable {
    enum Verbosity: Sendable { case quiet, normal, verbose }

    var query: RecentSearchQuery
    var builder: TimelineBuilder
    var size: ImageSize
    var apiBase: URL
    var replay: URL?
    var cacheDirectory: URL
    var isCacheExplicit: Bool
    var now: Date
    var pageBudget: Int
    var noRepeatDays: Int
    var profiles: [DisplayProfile]
    var captions: Bool
    var tokenFile: URL?
    var verbosity: Verbosity
}

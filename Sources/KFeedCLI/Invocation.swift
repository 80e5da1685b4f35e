import Foundation
import KFeed
import KFeedBase
import KFeedConfig
import KFeedImages

/// What a command was given, from the option groups it takes (nil: a group the command does not have), resolved
/// once, with the environment, `.env` and the feeds file, into the ``Feeds`` it works on.
struct Invocation {
    enum Verbosity: Sendable { case quiet, normal, verbose }

    var selection: FeedSelection?
    var cache: CacheLocation?
    var clock: ClockOption?
    var verbosity: Verbosity = .normal
    var apiBase: APIBaseOption?
    var source: SourceOptions?
    var search: SearchOptions?
    var timeline: TimelineOptions?

    /// The feeds: without a feeds file, one feed (`default`) made from the defaults, `.env`, the environment and the
    /// flags, over the cache directory itself; with one, the file's feeds (each `DIR/feeds/NAME/`), every given flag
    /// written over each feed's settings. Reads the environment, `./.env` and the feeds file once.
    /// - Throws: `KFeedError` `.configuration` for an unreadable `.env` or feeds file, invalid values or queries, or a
    ///   `--feed` the file does not define (or without a file); `.usage` for a policy it cannot read.
    func feeds() throws -> Feeds {
        let environment = try SettingsEnvironment.load()
        let now = try resolvedNow(environment)
        let replay = (cache?.replay ?? environment["KFEED_REPLAY"]).map { URL(fileURLWithPath: $0) }
        var defaults = FeedSettings(timeZone: .current)
        // Recorded answers never change: remembering what they showed would only thin them out run by run.
        defaults.noRepeatDays = replay == nil ? 7 : 0
        let root = cacheRoot(environment, replay: replay)
        let names = selection?.names ?? []
        var feeds = Feeds(
            members: [],
            file: nil,
            root: root,
            now: now,
            replay: replay,
            apiBase: try resolvedAPIBase(environment),
            tokenFile: source?.tokenFile.map { URL(fileURLWithPath: $0) },
            pages: source?.pages ?? 3,
            verbosity: verbosity,
            environment: environment
        )
        if let url = FeedsFile.location(explicit: selection?.config, environment: environment) {
            let file = try FeedsFile.load(url, now: now, defaults: defaults)
            for name in names { _ = try file.feed(named: name) }
            feeds.file = file
            feeds.members = try file.feeds.map { feed in
                Feeds.Member(
                    name: feed.name,
                    settings: try flagged(feed.settings, now: now),
                    directory: CacheRoot(directory: root).feedDirectory(named: feed.name)
                )
            }
        } else {
            if let name = names.first {
                throw KFeedError(.configuration, "--feed \(name) needs a feeds file: --config PATH or KFEED_CONFIG")
            }
            var settings = defaults
            try Self.applyEnvironment(environment, to: &settings)
            feeds.members = [
                Feeds.Member(name: Feeds.defaultName, settings: try flagged(settings, now: now), directory: root)
            ]
        }
        return feeds
    }

    /// `settings` with every flag given written over it, checked whole.
    private func flagged(_ settings: FeedSettings, now: Date) throws -> FeedSettings {
        var settings = settings
        try search?.apply(to: &settings)
        try timeline?.apply(to: &settings, now: now)
        try settings.validate()
        return settings
    }

    /// The feed of the flags' settings from the environment and `.env`: `KFEED_QUERY` (or `KFEED_CONTEXTS`),
    /// `KFEED_SIZE`, `KFEED_PROFILES`, `KFEED_DENY`, `KFEED_ALLOW`, `KFEED_TIMEZONE`, `KFEED_QUIET_HOURS`. A feeds
    /// file's feeds take none of them.
    /// - Throws: `KFeedError` `.configuration` naming the variable.
    static func applyEnvironment(_ environment: SettingsEnvironment, to settings: inout FeedSettings) throws {
        let list = { (text: String) in text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init) }
        if let raw = environment["KFEED_QUERY"] {
            settings.query = try RecentSearchQuery(raw: raw)
        } else if let text = environment["KFEED_CONTEXTS"] {
            settings.query = RecentSearchQuery(contexts: try list(text).map(ContextAnnotation.init(parsing:)))
        }
        if let text = environment["KFEED_SIZE"] {
            do { settings.size = try ImageSize(parsing: text) } catch let error as KFeedError {
                throw KFeedError(.configuration, "KFEED_SIZE: \(error.message)")
            }
        }
        if let text = environment["KFEED_PROFILES"] {
            settings.profiles = []
            settings.addProfiles(
                try list(text).map { name in
                    do { return try DisplayProfile(parsing: name) } catch let error as KFeedError {
                        throw KFeedError(.configuration, "KFEED_PROFILES: \(error.message)")
                    }
                }
            )
        }
        if let text = environment["KFEED_TIMEZONE"] {
            do { settings.timeZone = try TimeZone.named(text) } catch {
                throw KFeedError(.configuration, "KFEED_TIMEZONE: \(error.message)")
            }
        }
        if let text = environment["KFEED_QUIET_HOURS"], text != "off" {
            do { settings.quietHours = try QuietHours(parsing: text) } catch {
                throw KFeedError(.configuration, "KFEED_QUIET_HOURS: \(error.message)")
            }
        }
        for (variable, path) in [("KFEED_DENY", \FeedSettings.deny), ("KFEED_ALLOW", \FeedSettings.allow)] {
            guard let text = environment[variable] else { continue }
            settings[keyPath: path] = try list(text).map { name in
                do { return try FeedSettings.account(parsing: name) } catch let error as KFeedError {
                    throw KFeedError(.configuration, "\(variable): \(error.message)")
                }
            }
        }
    }

    /// `--now`, else `KFEED_NOW`, else the current second.
    private func resolvedNow(_ environment: SettingsEnvironment) throws -> Date {
        try clock?.now ?? environment["KFEED_NOW"].map { text in
            guard let date = InstantFormat.date(from: text) else {
                throw KFeedError(.configuration, "KFEED_NOW '\(text)' is not an ISO 8601 date with a zone")
            }
            return date
        } ?? Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    }

    /// Whether the instant is fixed by `--now` or `KFEED_NOW` (the server's clock then starts there).
    func isNowFixed(_ environment: SettingsEnvironment) -> Bool {
        clock?.now != nil || environment["KFEED_NOW"] != nil
    }

    /// `--api-base`, else `KFEED_API_BASE`, else X's host; an http(s) URL with a host.
    private func resolvedAPIBase(_ environment: SettingsEnvironment) throws -> URL {
        guard let apiText = source?.api.apiBase ?? apiBase?.apiBase ?? environment["KFEED_API_BASE"] else {
            return XClient.Configuration.defaultBaseURL
        }
        guard let url = URL(string: apiText), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
            url.host != nil
        else {
            throw KFeedError(.configuration, "API base '\(apiText)' is not an http(s) URL, e.g. https://api.x.com")
        }
        return url
    }

    /// The cache directory: `--cache`, `KFEED_CACHE_DIR`, or the default; a replay without an explicit cache gets a
    /// directory of its own so that recorded data never mixes with a live timeline.
    private func cacheRoot(_ environment: SettingsEnvironment, replay: URL?) -> URL {
        if let path = cache?.directory ?? environment["KFEED_CACHE_DIR"] { return URL(fileURLWithPath: path) }
        let base: URL
        if let xdg = environment.process["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg)
        } else {
            let home = environment.process["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
            base = URL(fileURLWithPath: home).appendingPathComponent(".cache")
        }
        guard let replay else { return base.appendingPathComponent("kfeed") }
        return base.appendingPathComponent("kfeed-replay-\(replay.standardizedFileURL.lastPathComponent)")
    }
}

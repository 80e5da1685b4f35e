import Foundation
import KFeed
import KFeedBase
import KFeedHTTP
import Logging

/// The library's pieces assembled from the settings: the cache and the refresher, whose client (replayed or live)
/// is made only when a refresh is due.
struct Feed {
    var settings: Settings
    var environment: SettingsEnvironment

    /// Where the library's progress lines go: at debug level, printed as `kfeed: …` on stderr with `-v` only.
    private var logger: Logger {
        var logger = Logger(label: "kfeed") { _ in ConsoleLogHandler() }
        logger.logLevel = settings.verbosity == .verbose ? .debug : .notice
        return logger
    }

    /// The cache directory: `--cache`, `KFEED_CACHE_DIR`, or the default; a replay without an explicit cache
    /// gets a directory of its own so that recorded data never mixes with a live timeline.
    var cacheDirectory: URL {
        guard let replay = settings.replay, !settings.isCacheExplicit else { return settings.cacheDirectory }
        let name = replay.standardizedFileURL.lastPathComponent
        return settings.cacheDirectory.deletingLastPathComponent().appendingPathComponent("kfeed-replay-\(name)")
    }

    /// The cache, for reading (no token, no transport).
    var store: CacheStore { CacheStore(directory: cacheDirectory) }

    /// The refresher; its token and transport are made only when a refresh is due.
    func refresher() -> Refresher {
        let settings = self.settings
        let environment = self.environment
        let logger = self.logger
        return Refresher(
            store: store,
            plan: Refresher.Plan(
                query: settings.query,
                builder: settings.builder,
                size: settings.size,
                noRepeatWindow: Double(settings.noRepeatDays) * 86_400,
                profiles: settings.profiles,
                captions: settings.captions,
                timeZone: .current
            ),
            logger: logger
        ) {
            let transport: any HTTPTransport
            let token: BearerToken?
            if let replay = settings.replay {
                transport = try ReplayTransport(directory: replay)
                token = nil
            } else {
                token = try TokenSource.token(tokenFile: settings.tokenFile, environment: environment) {
                    Console.warning($0)
                }
                transport = try CurlTransport()
            }
            return Refresher.Connection(
                transport: transport,
                token: token,
                baseURL: settings.apiBase,
                pageBudget: settings.pageBudget,
                logger: logger
            )
        }
    }

    /// The committed timeline, for commands that only read it.
    /// - Throws: `KFeedError` `.noEntry` (69) when the cache holds none yet.
    func committedManifest() throws -> Manifest {
        guard let manifest = try store.manifest() else {
            throw KFeedError(.noEntry, "no timeline in \(cacheDirectory.path) yet: run kfeed refresh")
        }
        return manifest
    }
}

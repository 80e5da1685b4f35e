import Foundation
import KFeed

/// The library's pieces assembled from the settings: the cache and the refresher, whose client (replayed or live)
/// is made only when a refresh is due.
struct Feed {
    var settings: Settings
    var environment: SettingsEnvironment

    private var verboseLog: @Sendable (String) -> Void {
        let verbose = settings.verbosity == .verbose
        return { line in if verbose { Console.info(line) } }
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
        let log = verboseLog
        return Refresher(
            store: store,
            plan: Refresher.Plan(
                query: settings.query,
                builder: settings.builder,
                size: settings.size,
                noRepeatWindow: Double(settings.noRepeatDays) * 86_400
            ),
            log: log
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
            let client = XClient(
                configuration: .init(baseURL: settings.apiBase, bearerToken: token, pageBudget: settings.pageBudget),
                transport: transport,
                log: log
            )
            return Refresher.Connection(client: client, images: ImageFetcher(transport: transport, log: log))
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

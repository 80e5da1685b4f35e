import Foundation
import KFeed

/// The library's pieces assembled from the settings: the search client (replayed or live) and the refresher.
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

    var plan: Refresher.Plan {
        Refresher.Plan(query: settings.query, builder: settings.builder, size: settings.size)
    }

    func refresher() throws -> Refresher {
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
            log: verboseLog
        )
        return Refresher(
            directory: cacheDirectory,
            plan: plan,
            client: client,
            images: ImageFetcher(transport: transport, log: verboseLog),
            log: verboseLog
        )
    }

    /// Whether a refresh is due, read from the cache alone (no token, no transport, nothing written).
    func dueness() -> (isDue: Bool, until: Date?) {
        Refresher.dueness(in: cacheDirectory, plan: plan, now: settings.now)
    }

    /// The committed timeline, for commands that only read it.
    /// - Throws: `KFeedError` `.noEntry` (69) when the cache holds none yet.
    func committedManifest() throws -> Manifest {
        let reader = self.reader()
        guard let manifest = try reader.manifest() else {
            throw KFeedError(.noEntry, "no timeline in \(reader.directory.path) yet: run kfeed refresh")
        }
        return manifest
    }

    /// A refresher that only reads (for `current` and `timeline` on a warm cache): no token, no transport.
    func reader() -> CacheReader {
        CacheReader(directory: cacheDirectory)
    }
}

package import Foundation
package import KFeed
package import KFeedHTTP

/// What `kfeed serve` serves, where, and to whom (`docs/serve.md`).
package struct ServeConfiguration: Sendable {
    /// One feed served: a cache directory, and the renders clients may ask of it.
    package struct Feed: Sendable {
        /// Its name: what `/f/NAME/` is made of (with a feeds file).
        package var name: String
        /// The cache directory served.
        package var cacheDirectory: URL
        /// The display profiles `?profile=` may ask for; nil: any the manifest names.
        package var profiles: Set<String>?
        /// Whether renders made on demand carry the caption band (`--no-caption` turns it off), as the refresh's do.
        package var captions: Bool

        /// Creates a feed.
        package init(name: String, cacheDirectory: URL, profiles: Set<String>? = nil, captions: Bool = true) {
            self.name = name
            self.cacheDirectory = cacheDirectory
            self.profiles = profiles
            self.captions = captions
        }
    }

    /// The feeds served, in the feeds file's order; the first is the default, which the paths outside `/f/` serve.
    package var feeds: [Feed]
    /// Whether each feed is also served under `/f/NAME/`, with the list of feeds at `/` (a feeds file); else the one
    /// feed is served as without one, and `/` is its preview page.
    package var servesFeedPaths: Bool
    /// Where to listen; port 0 picks a free port.
    package var listen: ListenAddress
    /// The key every request must carry (`--key-file`); nil serves anyone who can connect (loopback only).
    package var key: String?
    /// TRMNL device IDs (MAC addresses, `AA:BB:…`, upper-case) that `/api/setup` hands the key to, and the feed whose
    /// picture `/api/display` shows each of them.
    package var trmnlDevices: [String: String]
    /// The figures `kfeed status --json` prints, for `/healthz` (with a feeds file): read at each request.
    package var status: (@Sendable (Date) -> FeedsStatus)?
    /// The clock: the instant each request is answered for.
    package var now: @Sendable () -> Date
    /// The zone `/` and `/widget` show times in.
    package var timeZone: TimeZone
    /// Whether to log a line per request.
    package var isVerbose: Bool
    /// Receives verbose lines (per request, TRMNL device reports); never given a key.
    package var log: @Sendable (String) -> Void
    /// Receives lines that are always shown (a refused TRMNL setup, a refresh failure).
    package var warn: @Sendable (String) -> Void
    /// The most connections open at once; more wait in the backlog.
    package var maxConnections: Int
    /// How long a connection may take to send a request's headers, and stay idle between requests.
    package var headerTimeout: Duration
    /// The longest graceful shutdown takes before in-flight answers are cut.
    package var shutdownTimeout: Duration
    /// Runs a refresh when due (`--refresh`); called at start and then every `refreshCheckInterval`.
    package var refresh: (@Sendable () async -> Void)?
    /// How often `refresh` is called.
    package var refreshCheckInterval: Duration
    /// Makes the transport that fetches the source pictures of renders made on demand (X's renditions, never with
    /// the token); called once, on the first such render; nil renders from the cached images alone.
    package var renderSources: (@Sendable () throws -> any HTTPTransport)?

    /// The address actually bound (its port when `listen.port` is 0), once listening.
    let boundAddress: Locked<ListenAddress>

    /// Creates a configuration.
    package init(
        feeds: [Feed],
        servesFeedPaths: Bool = false,
        listen: ListenAddress = .default,
        key: String? = nil,
        trmnlDevices: [String: String] = [:],
        status: (@Sendable (Date) -> FeedsStatus)? = nil,
        now: @escaping @Sendable () -> Date = Date.init,
        timeZone: TimeZone = .current,
        isVerbose: Bool = false,
        log: @escaping @Sendable (String) -> Void = { _ in },
        warn: @escaping @Sendable (String) -> Void = { _ in },
        maxConnections: Int = 512,
        headerTimeout: Duration = .seconds(5),
        shutdownTimeout: Duration = .seconds(4),
        refresh: (@Sendable () async -> Void)? = nil,
        refreshCheckInterval: Duration = .seconds(60),
        renderSources: (@Sendable () throws -> any HTTPTransport)? = nil
    ) {
        precondition(!feeds.isEmpty, "kfeed serve serves at least one feed")
        self.feeds = feeds
        self.servesFeedPaths = servesFeedPaths
        self.listen = listen
        self.key = key
        self.trmnlDevices = Dictionary(
            trmnlDevices.map { ($0.key.trimmingCharacters(in: .whitespaces).uppercased(), $0.value) },
            uniquingKeysWith: { first, _ in first }
        )
        self.status = status
        self.now = now
        self.timeZone = timeZone
        self.isVerbose = isVerbose
        self.log = log
        self.warn = warn
        self.maxConnections = maxConnections
        self.headerTimeout = headerTimeout
        self.shutdownTimeout = shutdownTimeout
        self.refresh = refresh
        self.refreshCheckInterval = refreshCheckInterval
        self.renderSources = renderSources
        self.boundAddress = Locked(listen)
    }
}

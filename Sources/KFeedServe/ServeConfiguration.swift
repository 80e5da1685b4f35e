package import Foundation
package import KFeed
package import KFeedHTTP
package import Logging

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
        /// Its quiet hours (panels are told to sleep until their end), read in `timeZone`; nil: none.
        package var quietHours: QuietHours?
        /// The zone its quiet hours are read in.
        package var timeZone: TimeZone

        /// Creates a feed.
        package init(
            name: String,
            cacheDirectory: URL,
            profiles: Set<String>? = nil,
            captions: Bool = true,
            quietHours: QuietHours? = nil,
            timeZone: TimeZone = .gmt
        ) {
            self.name = name
            self.cacheDirectory = cacheDirectory
            self.profiles = profiles
            self.captions = captions
            self.quietHours = quietHours
            self.timeZone = timeZone
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
    /// The wall clock: the instant each request is answered for (and a render's date).
    package var now: @Sendable () -> Date
    /// The clock the server waits and measures by: a render's wait (``RenderShelf/waitLimit``), the refresh timer,
    /// a request's time in the `-v` line, the pause after a timeline that failed to load. Tests pass a `TestClock`.
    package var clock: any Clock<Duration>
    /// The zone `/` and `/widget` show times in.
    package var timeZone: TimeZone
    /// Where the server's lines go: `debug` per request and for TRMNL device reports (shown with `-v`), `warning`
    /// for what the owner must see (a refused TRMNL setup, a timeline that cannot be loaded); never given a key.
    package var logger: Logger
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

    /// Where what TRMNL devices report is kept (``DeviceLogBook``, for `kfeed status`): the cache directory (with a
    /// feeds file, its root); nil keeps it in memory.
    package var deviceDirectory: URL?

    /// Whether a line per request is logged (the logger's level is `debug`: `-v`).
    var isVerbose: Bool { logger.logLevel <= .debug }

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
        clock: any Clock<Duration> = ContinuousClock(),
        timeZone: TimeZone = .current,
        logger: Logger = Logger(label: "kfeed-serve"),
        maxConnections: Int = 512,
        headerTimeout: Duration = .seconds(5),
        shutdownTimeout: Duration = .seconds(4),
        refresh: (@Sendable () async -> Void)? = nil,
        refreshCheckInterval: Duration = .seconds(60),
        renderSources: (@Sendable () throws -> any HTTPTransport)? = nil,
        deviceDirectory: URL? = nil
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
        self.clock = clock
        self.timeZone = timeZone
        self.logger = logger
        self.maxConnections = maxConnections
        self.headerTimeout = headerTimeout
        self.shutdownTimeout = shutdownTimeout
        self.refresh = refresh
        self.refreshCheckInterval = refreshCheckInterval
        self.renderSources = renderSources
        self.deviceDirectory = deviceDirectory
        self.boundAddress = Locked(listen)
    }
}

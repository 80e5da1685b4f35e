import ArgumentParser
import Foundation
import KFeed
import KFeedBase
import KFeedConfig
import KFeedHTTP
import KFeedImages
import KFeedServe
import Logging
import Synchronization

/// `kfeed serve`: the cache over HTTP for phone widgets, Home Assistant, TRMNL panels and browsers (`docs/serve.md`).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the cache over HTTP to widgets, Home Assistant, TRMNL panels and browsers.",
        discussion: """
            Prints one line with the URL, then answers until SIGTERM or SIGINT. Listening on anything but \
            loopback needs --key-file; requests then carry the key as 'Authorization: Bearer KEY', \
            'Access-Token: KEY' or '?key=KEY'. With --refresh the server also refreshes the cache when due, \
            like kfeed refresh from cron, rendering each --profile (and trmnl with --trmnl-device); \
            /api/display shows the trmnl render (or ?profile=P), made on demand when the refresh did not. \
            With a feeds file (--config), every feed is served under /f/NAME/ and the first also at the paths \
            outside it, / lists them, and [serve] gives the address, the key file and each TRMNL device's feed.
            """
    )

    @OptionGroup var options: RefreshingOptions

    @Option(
        help: ArgumentHelp(
            "The address to listen on, HOST:PORT ([::1]:PORT); port 0 picks one (default: [serve] listen, else 127.0.0.1:8787).",
            valueName: "host:port"
        ),
        transform: { text in
            guard let address = ListenAddress(parsing: text) else {
                throw ValidationError("--listen '\(text)' is not HOST:PORT, e.g. 127.0.0.1:8787 or 0.0.0.0:8787")
            }
            return address
        }
    )
    var listen: ListenAddress?

    @Option(
        name: .customLong("key-file"),
        help: ArgumentHelp(
            "Require the key in this file on every request (default: [serve] key_file).",
            valueName: "path"
        )
    )
    var keyFile: String?

    @Option(
        name: .customLong("idle-timeout"),
        help: ArgumentHelp(
            "Seconds a connection may take to send a request's headers, or stay idle between requests (default: "
                + "[serve] idle_timeout, else 5).",
            valueName: "seconds"
        ),
        transform: { text in
            guard let seconds = Int(text), FeedsFile.Serve.idleTimeouts.contains(seconds) else {
                throw ValidationError(
                    "--idle-timeout '\(text)' is not a whole number of seconds from 1 to 3600, e.g. 5"
                )
            }
            return seconds
        }
    )
    var idleTimeout: Int?

    @Flag(help: "Also refresh the cache when due (same rules and lock as kfeed refresh).")
    var refresh = false

    @Option(
        name: .customLong("trmnl-device"),
        help: ArgumentHelp(
            "A TRMNL device ID (MAC) that /api/setup hands the key to and that shows the (default) feed (repeatable).",
            valueName: "id"
        )
    )
    var trmnlDevices: [String] = []

    func run() async throws {
        let invocation = options.invocation
        let feeds = try invocation.feeds()
        try await serve(
            feeds,
            clock: Self.clock(startingAt: feeds.now, isFixed: invocation.isNowFixed(feeds.environment))
        )
    }

    /// Every feed (or those `--feed` names): with a feeds file each under `/f/NAME/` and the first also at the paths
    /// outside it, `[serve]` giving the address, the key file and the TRMNL devices' feeds; without one, the feed of
    /// the flags at the paths outside `/f/`. `--trmnl-device` adds devices of the first feed; `--refresh` refreshes
    /// them all under the budget.
    private func serve(_ feeds: Feeds, clock: @escaping @Sendable () -> Date) async throws {
        let listed = feeds.members(named: options.selection.names)
        let file = feeds.file
        var devices: [String: String] = (file?.serve.devices ?? [:]).filter { device in
            listed.contains { $0.name == device.value }
        }
        for id in trmnlDevices { devices[id] = listed[0].name }
        // --refresh makes each listed device's render for every entry of the feed it shows (on demand it would be
        // made at the device's first request of each hour): DeviceLogBook.renders says which.
        let shown = Set(devices.values)
        var keyPath = keyFile
        if keyPath == nil, let file, let path = file.serve.keyFile {
            keyPath =
                path.hasPrefix("/") ? path : file.url.deletingLastPathComponent().appendingPathComponent(path).path
        }
        let (address, key) = try addressAndKey(listen ?? file?.serve.listen ?? .default, keyFile: keyPath)
        try Self.checkToken(feeds, refreshing: refresh)
        let selected = options.selection.names
        let root = feeds.root
        let source = feeds.refresh(
            named: selected,
            alsoRendering: refresh ? DeviceLogBook.renders(for: devices, in: root) : [:]
        )
        let served = listed.map { feed in
            // The feed's profiles: what --refresh renders, and the only renders ?profile= may ask for; none: any.
            let names = Set(feed.settings.profiles.map(\.name))
            let trmnl: Set<String> = shown.contains(feed.name) ? [DisplayProfile.trmnl.name] : []
            return ServeConfiguration.Feed(
                name: feed.name,
                cacheDirectory: feed.directory,
                profiles: names.isEmpty ? nil : names.union(trmnl),
                captions: feed.settings.captions,
                quietHours: feed.settings.quietHours,
                timeZone: feed.settings.timeZone
            )
        }
        var status: (@Sendable (Date) -> FeedsStatus)?
        if feeds.isFromFile { status = { @Sendable now in FeedsStatus(of: source, at: now) } }
        let configuration = ServeConfiguration(
            feeds: served,
            servesFeedPaths: feeds.isFromFile,
            listen: address,
            key: key,
            trmnlDevices: devices,
            status: status,
            now: clock,
            timeZone: listed[0].settings.timeZone,
            logger: Self.logger(feeds),
            headerTimeout: .seconds(idleTimeout ?? file?.serve.idleTimeout ?? FeedsFile.Serve.defaultIdleTimeout),
            refresh: refresh
                ? Self.refreshing(
                    { [devices] in
                        feeds.refresh(named: selected, alsoRendering: DeviceLogBook.renders(for: devices, in: root))
                    },
                    feeds: feeds,
                    clock: clock
                ) : nil,
            renderSources: Self.renderSources(replay: feeds.replay),
            deviceDirectory: feeds.root
        )
        let listing = listed.map(\.name).joined(separator: ", ")
        try await Self.run(
            configuration,
            announcing: feeds.isFromFile
                ? "\(listed.count) feeds (\(listing)) from \(feeds.root.path)" : listed[0].directory.path
        )
    }

    /// Listens until SIGTERM or SIGINT, once the one start-up line is printed.
    private static func run(_ configuration: ServeConfiguration, announcing what: String) async throws {
        try await KFeedServer.run(configuration) { address in
            FileHandle.standardOutput.write(Data("kfeed: serving \(what) at http://\(address)/\n".utf8))
        }
    }

    /// The address and the key (read from `keyFile`); refuses an address beyond loopback without a key.
    /// - Throws: `KFeedError` `.configuration` for an unreadable key file, or another machine's address without one.
    private func addressAndKey(_ address: ListenAddress, keyFile: String?) throws -> (ListenAddress, String?) {
        let key = try Self.readKey(keyFile)
        guard address.isLoopback || key != nil else {
            throw KFeedError(
                .configuration,
                "--listen \(address) accepts other machines, so it needs --key-file PATH (or listen on 127.0.0.1)"
            )
        }
        return (address, key)
    }

    /// A server that will refresh needs the token: say so now (exit 78, which systemd's RestartPreventExitStatus
    /// keeps from restarting) rather than fail every round.
    private static func checkToken(_ feeds: Feeds, refreshing: Bool) throws {
        guard refreshing, feeds.replay == nil else { return }
        _ = try TokenSource.token(tokenFile: feeds.tokenFile, environment: feeds.environment) { _ in }
    }

    /// The server's logger (stderr, through the handler `LoggingSystem.bootstrap` installed): per-request lines
    /// (`debug`) with `-v`, warnings unless `-q`.
    private static func logger(_ feeds: Feeds) -> Logger {
        var logger = Logger(label: "kfeed-serve")
        switch feeds.verbosity {
        case .verbose: logger.logLevel = .debug
        case .quiet: logger.logLevel = .error
        case .normal: logger.logLevel = .info
        }
        return logger
    }

    /// The transport that fetches the source pictures of renders made on demand: the replay's recorded images
    /// with `--replay`, else libcurl (never with the token).
    private static func renderSources(replay: URL?) -> @Sendable () throws -> any HTTPTransport {
        {
            if let replay { return try ReplayTransport(directory: replay) }
            return try CurlTransport()
        }
    }

    /// The key in `keyFile` (`--key-file`, or `[serve] key_file`), trimmed; nil without one.
    /// - Throws: `KFeedError` `.configuration` when the file cannot be read or is empty.
    private static func readKey(_ keyFile: String?) throws -> String? {
        guard let keyFile else { return nil }
        let text: String
        do {
            text = try String(contentsOfFile: keyFile, encoding: .utf8)
        } catch {
            throw KFeedError(.configuration, "cannot read the key file \(keyFile): create it with one line, the key")
        }
        let key = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !key.isEmpty, !key.contains(where: \.isNewline) else {
            throw KFeedError(.configuration, "the key file \(keyFile) must hold one non-empty line, the key")
        }
        return key
    }

    /// The server's clock: the system clock, or with `--now`/`KFEED_NOW` that instant at its first reading (the
    /// start-up refresh, or the first request), moving on in real time from there (so a test or a demo can start the
    /// server at any hour, however long the start takes on a busy machine).
    private static func clock(startingAt start: Date, isFixed: Bool) -> @Sendable () -> Date {
        guard isFixed else { return { Date() } }
        let started = Mutex<ContinuousClock.Instant?>(nil)
        return {
            let origin = started.withLock { first in
                if first == nil { first = ContinuousClock.now }
                return first!
            }
            let elapsed = (ContinuousClock.now - origin).components
            return start.addingTimeInterval(Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
        }
    }

    /// `--refresh`: every due feed through one ``FeedsRefresh`` (what `kfeed refresh` runs), under the budget and the
    /// ledger's lock; the token (checked once at start-up) and transport are made only when one is due. Each feed's
    /// failure is logged and its last good timeline kept being served.
    private static func refreshing(
        _ makeRefresh: @escaping @Sendable () -> FeedsRefresh,
        feeds: Feeds,
        clock: @escaping @Sendable () -> Date
    ) -> @Sendable () async -> Void {
        let verbose = feeds.verbosity == .verbose
        let named = feeds.isFromFile
        let plural = named ? "timelines" : "timeline"
        return {
            do {
                for (name, result) in try await makeRefresh().refresh(now: wholeSeconds(clock())) {
                    let prefix = named ? "\(name): " : ""
                    switch result {
                    case .done(let outcome): report(outcome, feed: named ? name : nil, verbose: verbose)
                    case .failed(let error):
                        Console.warning("\(prefix)refresh failed: \(error.message); serving the last timeline")
                    case .paused(let until, let reason):
                        if verbose {
                            Console.info("\(prefix)not asked until \(InstantFormat.string(from: until)) (\(reason))")
                        }
                    }
                }
            } catch let error as KFeedError {
                Console.warning("refresh failed: \(error.message); serving the last \(plural)")
            } catch {
                Console.warning("refresh failed: \(error); serving the last \(plural)")
            }
        }
    }

    /// `date` to the whole second, like `kfeed refresh`'s clock: entry dates stay on the second.
    private static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }

    /// The lines a refresh's outcome makes: with `-v` what it did, and always when it found no usable post.
    private static func report(_ outcome: Refresher.Outcome, feed: String?, verbose: Bool) {
        let prefix = feed.map { "\($0): " } ?? ""
        switch outcome {
        case .notDue: break
        case .refreshed(let manifest, let summary):
            if verbose { Console.info(prefix + Console.refreshed(manifest, summary)) }
        case .noUsablePost(let retry):
            Console.warning(
                "\(prefix)refresh found no usable post; serving the last timeline; retry after "
                    + (retry.map(InstantFormat.string) ?? "-")
            )
        }
    }
}

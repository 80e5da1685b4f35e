import ArgumentParser
import Foundation
import KFeed
import KFeedBase
import KFeedConfig
import KFeedImages
import KFeedServe
import Logging

/// `kfeed serve`: the cache over HTTP for phone widgets, Home Assistant, TRMNL panels and browsers (`DESIGN.md` §5).
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

    @OptionGroup var options: GlobalOptions

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
        switch try options.target() {
        case .feeds(let feeds): try await serve(feeds)
        case .one(let feed): try await serve(feed)
        }
    }

    /// Without a feeds file: the one feed of the flags and environment, as ever.
    private func serve(_ feed: Feed) async throws {
        var feed = feed
        // --profile (or KFEED_PROFILES): what --refresh renders, and the only renders ?profile= may ask for; none: any.
        let served = feed.settings.profiles.isEmpty ? nil : Set(feed.settings.profiles.map(\.name))
        // A TRMNL device shows the trmnl render: --refresh makes it for every entry (on demand it would be made at
        // the first request of each hour).
        if !trmnlDevices.isEmpty, !feed.settings.profiles.contains(where: { $0.name == DisplayProfile.trmnl.name }) {
            feed.settings.profiles.append(.trmnl)
        }
        let profiles = served.map { $0.union(trmnlDevices.isEmpty ? [] : [DisplayProfile.trmnl.name]) }
        let settings = feed.settings
        let (address, key) = try addressAndKey(listen ?? .default, keyFile: keyFile)
        try Self.checkToken(settings, environment: feed.environment, refreshing: refresh)
        let clock = clock(settings, environment: feed.environment)
        let verbose = settings.verbosity == .verbose
        let configuration = ServeConfiguration(
            feeds: [
                .init(
                    name: "default",
                    cacheDirectory: feed.cacheDirectory,
                    profiles: profiles,
                    captions: settings.captions
                )
            ],
            listen: address,
            key: key,
            trmnlDevices: Dictionary(trmnlDevices.map { ($0, "default") }, uniquingKeysWith: { first, _ in first }),
            now: clock,
            logger: Self.logger(settings),
            refresh: refresh ? Self.refreshing(feed, clock: clock, verbose: verbose) : nil,
            renderSources: Self.renderSources(replay: settings.replay)
        )
        try await Self.run(configuration, announcing: feed.cacheDirectory.path)
    }

    /// With a feeds file: every feed (or those `--feed` names) under `/f/NAME/`, the first also at the paths outside
    /// it; `[serve]` gives the address, the key file and the TRMNL devices' feeds (`--trmnl-device` adds devices of
    /// the first); `--refresh` refreshes them all under the budget.
    private func serve(_ feeds: Feeds) async throws {
        let file = feeds.file
        let listed = try feeds.feeds(named: options.feedNames)
        var devices: [String: String] = file.serve.devices.filter { device in
            listed.contains { $0.name == device.value }
        }
        for id in trmnlDevices { devices[id] = listed[0].name }
        let shown = Set(devices.values)
        let keyPath =
            keyFile
            ?? file.serve.keyFile.map { path in
                path.hasPrefix("/") ? path : file.url.deletingLastPathComponent().appendingPathComponent(path).path
            }
        let (address, key) = try addressAndKey(listen ?? file.serve.listen ?? .default, keyFile: keyPath)
        let settings = feeds.base
        try Self.checkToken(settings, environment: feeds.environment, refreshing: refresh)
        let clock = clock(settings, environment: feeds.environment)
        let verbose = settings.verbosity == .verbose
        let extra = refresh ? Dictionary(shown.map { ($0, [DisplayProfile.trmnl]) }, uniquingKeysWith: { $1 }) : [:]
        let source = try feeds.refresh(named: options.feedNames, alsoRendering: extra)
        let configuration = ServeConfiguration(
            feeds: listed.map { name, feed in
                let names = Set(feed.settings.profiles.map(\.name))
                return ServeConfiguration.Feed(
                    name: name,
                    cacheDirectory: feed.cacheDirectory,
                    profiles: names.isEmpty
                        ? nil : names.union(shown.contains(name) ? [DisplayProfile.trmnl.name] : []),
                    captions: feed.settings.captions
                )
            },
            servesFeedPaths: true,
            listen: address,
            key: key,
            trmnlDevices: devices,
            status: { FeedsStatus(of: source, at: $0) },
            now: clock,
            logger: Self.logger(settings),
            refresh: refresh ? Self.refreshing(source, clock: clock, verbose: verbose) : nil,
            renderSources: Self.renderSources(replay: settings.replay)
        )
        let names = listed.map(\.name).joined(separator: ", ")
        try await Self.run(configuration, announcing: "\(listed.count) feeds (\(names)) from \(feeds.root.path)")
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
    private static func checkToken(_ settings: Settings, environment: SettingsEnvironment, refreshing: Bool) throws {
        guard refreshing, settings.replay == nil else { return }
        _ = try TokenSource.token(tokenFile: settings.tokenFile, environment: environment) { _ in }
    }

    /// The server's clock (`clock(startingAt:isFixed:)`) for `settings`.
    private func clock(_ settings: Settings, environment: SettingsEnvironment) -> @Sendable () -> Date {
        Self.clock(startingAt: settings.now, isFixed: options.now != nil || environment["KFEED_NOW"] != nil)
    }

    /// The server's logger (stderr, through the handler `LoggingSystem.bootstrap` installed): per-request lines
    /// (`debug`) with `-v`, warnings unless `-q`.
    private static func logger(_ settings: Settings) -> Logger {
        var logger = Logger(label: "kfeed-serve")
        switch settings.verbosity {
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

    /// The server's clock: the system clock, or with `--now`/`KFEED_NOW` that instant at start-up moving on in
    /// real time (so a test or a demo can start the server at any hour).
    private static func clock(startingAt start: Date, isFixed: Bool) -> @Sendable () -> Date {
        guard isFixed else { return { Date() } }
        let started = ContinuousClock.now
        return {
            let elapsed = (ContinuousClock.now - started).components
            return start.addingTimeInterval(Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
        }
    }

    /// `--refresh`: the one place the server refreshes, through the same assembly as `kfeed refresh`
    /// (`GlobalOptions.feed()` → `Feed.refresher()` → `refresh(now:force:)`): when due, under the same lock; the
    /// token (checked once at start-up) and transport are made only then. A failure is logged and the last good
    /// timeline keeps being served.
    private static func refreshing(
        _ feed: Feed,
        clock: @escaping @Sendable () -> Date,
        verbose: Bool
    ) -> @Sendable () async -> Void {
        let refresher = feed.refresher()
        return {
            do {
                report(
                    try await refresher.refresh(now: wholeSeconds(clock()), force: false),
                    feed: nil,
                    verbose: verbose
                )
            } catch let error as KFeedError {
                Console.warning("refresh failed: \(error.message); serving the last timeline")
            } catch {
                Console.warning("refresh failed: \(error); serving the last timeline")
            }
        }
    }

    /// `--refresh` with a feeds file: every due feed through one ``FeedsRefresh`` (what `kfeed refresh` runs), under
    /// the budget and the ledger's lock; each feed's failure is logged and its last good timeline kept.
    private static func refreshing(
        _ feeds: FeedsRefresh,
        clock: @escaping @Sendable () -> Date,
        verbose: Bool
    ) -> @Sendable () async -> Void {
        {
            do {
                for (name, result) in try await feeds.refresh(now: wholeSeconds(clock())) {
                    switch result {
                    case .done(let outcome): report(outcome, feed: name, verbose: verbose)
                    case .failed(let error):
                        Console.warning("\(name): refresh failed: \(error.message); serving the last timeline")
                    case .paused(let until, let reason):
                        if verbose {
                            Console.info("\(name): not asked until \(InstantFormat.string(from: until)) (\(reason))")
                        }
                    }
                }
            } catch let error as KFeedError {
                Console.warning("refresh failed: \(error.message); serving the last timelines")
            } catch {
                Console.warning("refresh failed: \(error); serving the last timelines")
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
            if verbose {
                Console.info(
                    "\(prefix)refreshed \(manifest.entries.count) entries: \(summary.fetched) images fetched, "
                        + "\(summary.reused) reused, \(summary.placeholders) placeholders"
                )
            }
        case .noUsablePost(let retry):
            Console.warning(
                "\(prefix)refresh found no usable post; serving the last timeline; retry after "
                    + (retry.map(InstantFormat.string) ?? "-")
            )
        }
    }
}

import ArgumentParser
import Foundation
import KFeed
import KFeedBase
import KFeedImages
import KFeedServe

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
            /api/display shows the trmnl render (or ?profile=P), made on demand when the refresh did not.
            """
    )

    @OptionGroup var options: GlobalOptions

    @Option(
        help: ArgumentHelp(
            "The address to listen on, HOST:PORT ([::1]:PORT); port 0 picks one.",
            valueName: "host:port"
        ),
        transform: { text in
            guard let address = ListenAddress(parsing: text) else {
                throw ValidationError("--listen '\(text)' is not HOST:PORT, e.g. 127.0.0.1:8787 or 0.0.0.0:8787")
            }
            return address
        }
    )
    var listen: ListenAddress = .default

    @Option(
        name: .customLong("key-file"),
        help: ArgumentHelp("Require the key in this file on every request.", valueName: "path")
    )
    var keyFile: String?

    @Flag(help: "Also refresh the cache when due (same rules and lock as kfeed refresh).")
    var refresh = false

    @Option(
        name: .customLong("trmnl-device"),
        help: ArgumentHelp("A TRMNL device ID (MAC) that /api/setup hands the key to (repeatable).", valueName: "id")
    )
    var trmnlDevices: [String] = []

    func run() async throws {
        var feed = try options.feed()
        // --profile (or KFEED_PROFILES): what --refresh renders, and the only renders ?profile= may ask for; none: any.
        let served = feed.settings.profiles.isEmpty ? nil : Set(feed.settings.profiles.map(\.name))
        // A TRMNL device shows the trmnl render: --refresh makes it for every entry (on demand it would be made at
        // the first request of each hour).
        if !trmnlDevices.isEmpty, !feed.settings.profiles.contains(where: { $0.name == DisplayProfile.trmnl.name }) {
            feed.settings.profiles.append(.trmnl)
        }
        let profiles = served.map { $0.union(trmnlDevices.isEmpty ? [] : [DisplayProfile.trmnl.name]) }
        let settings = feed.settings
        let key = try readKey()
        guard listen.isLoopback || key != nil else {
            throw KFeedError(
                .configuration,
                "--listen \(listen) accepts other machines, so it needs --key-file PATH (or listen on 127.0.0.1)"
            )
        }
        if refresh && settings.replay == nil {
            // A server that will refresh needs the token: say so now (exit 78, which systemd's
            // RestartPreventExitStatus keeps from restarting) rather than fail every round.
            _ = try TokenSource.token(tokenFile: settings.tokenFile, environment: feed.environment) { _ in }
        }
        let verbose = settings.verbosity == .verbose
        let quiet = settings.verbosity == .quiet
        let clock = Self.clock(
            startingAt: settings.now,
            isFixed: options.now != nil || feed.environment["KFEED_NOW"] != nil
        )
        let configuration = ServeConfiguration(
            cacheDirectory: feed.cacheDirectory,
            listen: listen,
            key: key,
            trmnlDevices: Set(trmnlDevices),
            profiles: profiles,
            now: clock,
            isVerbose: verbose,
            log: { line in if verbose { Console.info(line) } },
            warn: { line in if !quiet { Console.warning(line) } },
            refresh: refresh ? Self.refreshing(feed, clock: clock, verbose: verbose) : nil,
            captions: settings.captions,
            renderSources: Self.renderSources(replay: settings.replay)
        )
        let directory = feed.cacheDirectory.path
        try await KFeedServer.run(configuration) { address in
            FileHandle.standardOutput.write(Data("kfeed: serving \(directory) at http://\(address)/\n".utf8))
        }
    }

    /// The transport that fetches the source pictures of renders made on demand: the replay's recorded images
    /// with `--replay`, else libcurl (never with the token).
    private static func renderSources(replay: URL?) -> @Sendable () throws -> any HTTPTransport {
        {
            if let replay { return try ReplayTransport(directory: replay) }
            return try CurlTransport()
        }
    }

    /// The key from `--key-file`, trimmed; nil without the option.
    /// - Throws: `KFeedError` `.configuration` when the file cannot be read or is empty.
    private func readKey() throws -> String? {
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
                // Whole seconds, like `kfeed refresh`'s clock: entry dates stay on the second.
                let now = Date(timeIntervalSince1970: clock().timeIntervalSince1970.rounded(.down))
                switch try await refresher.refresh(now: now, force: false) {
                case .notDue: break
                case .refreshed(let manifest, let summary):
                    if verbose {
                        Console.info(
                            "refreshed \(manifest.entries.count) entries: \(summary.fetched) images fetched, "
                                + "\(summary.reused) reused, \(summary.placeholders) placeholders"
                        )
                    }
                case .noUsablePost(let retry):
                    Console.warning(
                        "refresh found no usable post; serving the last timeline; retry after "
                            + (retry.map(InstantFormat.string) ?? "-")
                    )
                }
            } catch let error as KFeedError {
                Console.warning("refresh failed: \(error.message); serving the last timeline")
            } catch {
                Console.warning("refresh failed: \(error); serving the last timeline")
            }
        }
    }
}

import Foundation
import KFeed
import KFeedBase
import KFeedConfig
import KFeedHTTP
import KFeedImages
import Logging

/// The feeds a command works on, resolved once (``Invocation/feeds()``): the one feed of the flags and environment
/// (`default`, over the cache directory itself: `DIR/timeline.json`, …), or the feeds of a feeds file (each over
/// `DIR/feeds/NAME/`, today's single-feed layout, so that a widget or a script pointed at one keeps working). Every
/// command runs the same code over this list; only where files live and how errors are named differ.
struct Feeds {
    /// One feed: its name, its settings and its cache directory.
    struct Member: Sendable {
        var name: String
        var settings: FeedSettings
        var directory: URL

        /// The cache, for reading (no token, no transport).
        var store: CacheStore { CacheStore(directory: directory) }

        /// The committed timeline, for commands that only read it.
        /// - Throws: `KFeedError` `.noEntry` (69) when the cache holds none yet.
        func committedManifest() throws -> Manifest {
            guard let manifest = try store.manifest() else {
                throw KFeedError(.noEntry, "no timeline in \(directory.path) yet: run kfeed refresh")
            }
            return manifest
        }
    }

    /// The name of the feed of the flags and environment (no feeds file).
    static let defaultName = "default"

    /// Every feed, in the file's order; the first is the default (what the single-feed commands and the server's
    /// paths outside `/f/` use).
    var members: [Member]
    /// The feeds file, nil for the feed of the flags and environment.
    var file: FeedsFile?
    /// The cache root (`DIR`): the ledger, and `feeds/` with a feeds file.
    var root: URL
    /// The instant the command runs at.
    var now: Date
    /// The recorded answers that stand for X (`--replay`), if any.
    var replay: URL?
    /// The API host.
    var apiBase: URL
    /// `--token-file`.
    var tokenFile: URL?
    /// Pages one search may read.
    var pages: Int
    var verbosity: Invocation.Verbosity
    var environment: SettingsEnvironment

    /// The spend cap: the feeds file's `[budget]`, none without one.
    var budget: Budget { file?.budget ?? Budget() }

    /// Whether the feeds come from a feeds file (messages then name the feed).
    var isFromFile: Bool { file != nil }

    /// The feed named `name` (the first when nil).
    /// - Throws: `KFeedError` `.configuration` for a name the file does not define.
    func member(named name: String?) throws -> Member {
        guard let name else { return members[0] }
        guard let member = members.first(where: { $0.name == name }) else {
            let defined = members.map(\.name).joined(separator: ", ")
            throw KFeedError(
                .configuration,
                "no feed '\(name)' in \(file?.url.path ?? "the flags"): it defines \(defined)"
            )
        }
        return member
    }

    /// The feeds named (all when `names` is empty), in the file's order.
    func members(named names: [String]) -> [Member] {
        members.filter { names.isEmpty || names.contains($0.name) }
    }

    /// Where the library's progress lines go: at debug level, printed as `kfeed: …` on stderr with `-v` only.
    var logger: Logger {
        var logger = Logger(label: "kfeed") { _ in ConsoleLogHandler() }
        logger.logLevel = verbosity == .verbose ? .debug : .notice
        return logger
    }

    /// The refresher of `member`, rendering `extra` profiles besides its own; its token and transport are made only
    /// when a refresh is due.
    func refresher(for member: Member, alsoRendering extra: [DisplayProfile] = []) -> Refresher {
        var settings = member.settings
        settings.addProfiles(extra)
        let (replay, tokenFile, environment, apiBase, pages, logger) =
            (self.replay, self.tokenFile, self.environment, self.apiBase, self.pages, self.logger)
        return Refresher(store: member.store, settings: settings, logger: logger) {
            let transport: any HTTPTransport
            let token: BearerToken?
            if let replay {
                transport = try ReplayTransport(directory: replay)
                token = nil
            } else {
                token = try TokenSource.token(tokenFile: tokenFile, environment: environment) { Console.warning($0) }
                transport = try CurlTransport()
            }
            var connection = Refresher.Connection(
                transport: transport,
                token: token,
                baseURL: apiBase,
                pageBudget: pages,
                logger: logger
            )
            // Recorded answers cannot say whether a post was deleted since.
            connection.checksPosts = replay == nil
            return connection
        }
    }

    /// One refresh for the feeds named (all when empty), under the budget.
    /// - Parameters:
    ///   - names: the feeds (`--feed`), all when empty.
    ///   - extra: profiles to render besides a feed's own, by feed name (`kfeed serve --refresh` renders `trmnl` for
    ///     a feed that TRMNL devices show).
    /// - Returns: the refresh, which reads nothing until it runs.
    func refresh(named names: [String], alsoRendering extra: [String: [DisplayProfile]] = [:]) -> FeedsRefresh {
        let feeds = members(named: names).map { member in
            FeedsRefresh.Feed(
                name: member.name,
                refresher: refresher(for: member, alsoRendering: extra[member.name] ?? [])
            )
        }
        return FeedsRefresh(root: root, feeds: feeds, budget: budget)
    }

    /// Refreshes one feed through the feeds' refresh, so that what it reads counts against the budget and the
    /// ledger like any other.
    /// - Throws: the feed's `KFeedError`, or `.rateLimited` while X's limit, met by any feed, holds.
    func refreshOne(_ member: Member, force: Bool) async throws -> Refresher.Outcome {
        let results = try await refresh(named: [member.name]).refresh(now: now, force: force)
        switch results.first?.result {
        case .done(let outcome): return outcome
        case .failed(let error): throw error
        case .paused(let until, let reason):
            throw KFeedError(.rateLimited, "\(reason); no request before \(InstantFormat.string(from: until))")
        case nil: return .notDue(until: nil)
        }
    }

    /// `message` about feed `name`: prefixed with the name when the feeds come from a file.
    func about(_ name: String, _ message: String) -> String {
        isFromFile ? "\(name): \(message)" : message
    }
}

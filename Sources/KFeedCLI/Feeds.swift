import Foundation
import KFeed
import KFeedBase
import KFeedConfig
import KFeedImages

/// The feeds of a feeds file, each assembled as a ``Feed`` over `DIR/feeds/NAME/` (today's single-feed layout, so
/// that a widget or a script pointed at one keeps working), and the refresh that spends for all of them.
struct Feeds {
    var file: FeedsFile
    /// The settings from flags and environment: what the file does not say per feed (cache root, replay, now,
    /// API base, pages, token, verbosity).
    var base: Settings
    var environment: SettingsEnvironment

    /// The cache root (`DIR`), holding `ledger.json` and `feeds/`.
    var root: URL {
        Feed(settings: base, environment: environment).cacheDirectory
    }

    /// The feed named `name` (the first when nil).
    func feed(named name: String?) throws -> Feed {
        let definition = try file.feed(named: name)
        var settings = base
        settings.query = definition.query
        settings.builder = definition.builder
        settings.size = definition.size
        settings.profiles = definition.profiles
        settings.captions = definition.captions
        if let days = definition.noRepeatDays { settings.noRepeatDays = days }
        settings.cacheDirectory = CacheRoot(directory: root).feedDirectory(named: definition.name)
        settings.isCacheExplicit = true
        return Feed(settings: settings, environment: environment)
    }

    /// The feeds named (all when `names` is empty), in the file's order.
    func feeds(named names: [String]) throws -> [(name: String, feed: Feed)] {
        try file.feeds.filter { names.isEmpty || names.contains($0.name) }.map { ($0.name, try feed(named: $0.name)) }
    }

    /// One refresh for the feeds named (all when empty), under the file's budget.
    /// - Parameters:
    ///   - names: the feeds (`--feed`), all when empty.
    ///   - extra: profiles to render besides a feed's own, by feed name (`kfeed serve --refresh` renders `trmnl` for
    ///     a feed that TRMNL devices show).
    /// - Returns: the refresh, which reads nothing until it runs.
    /// - Throws: `KFeedError` `.configuration` for a name the file does not define.
    func refresh(named names: [String], alsoRendering extra: [String: [DisplayProfile]] = [:]) throws -> FeedsRefresh {
        let feeds = try feeds(named: names).map { name, feed in
            var feed = feed
            for profile in extra[name] ?? [] where !feed.settings.profiles.contains(where: { $0.name == profile.name })
            {
                feed.settings.profiles.append(profile)
            }
            return FeedsRefresh.Feed(name: name, refresher: feed.refresher())
        }
        return FeedsRefresh(root: root, feeds: feeds, budget: file.budget)
    }

    /// Refreshes one feed (the first when nil) through the feeds' refresh, so that what it reads counts against the
    /// budget and the ledger like any other.
    /// - Throws: the feed's `KFeedError`, or `.rateLimited` while X's limit, met by any feed, holds.
    func refreshOne(named name: String?, force: Bool) async throws -> Refresher.Outcome {
        let feed = try file.feed(named: name)
        let results = try await refresh(named: [feed.name]).refresh(now: base.now, force: force)
        switch results.first?.result {
        case .done(let outcome): return outcome
        case .failed(let error): throw error
        case .paused(let until, let reason):
            throw KFeedError(.rateLimited, "\(reason); no request before \(InstantFormat.string(from: until))")
        case nil: return .notDue(until: nil)
        }
    }
}

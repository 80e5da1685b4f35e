import Foundation
import KFeed
import KFeedImages

/// One feed the server serves: its generations in memory and its renders made on demand.
struct ServedFeed: Sendable {
    /// Its name (`[feeds.NAME]`; `default` without a feeds file).
    var name: String
    /// Its cache directory's generations.
    var cache: ServedCache
    /// The renders made on demand for it.
    var renders: RenderShelf
    /// The display profiles `?profile=` may ask for; nil: any.
    var profiles: Set<String>?
    /// Its quiet hours and their zone.
    var quietHours: QuietHours? = nil
    var timeZone: TimeZone = .gmt
}

/// A request's feed, and the prefix its URLs take as the request addressed it.
struct FeedScope: Sendable {
    var feed: ServedFeed
    /// `""` (the paths outside `/f/`: the default feed, as without a feeds file) or `f/NAME/`.
    var prefix: String
}

/// The feeds of one server: `/f/NAME/…` is feed NAME's (with a feeds file), every other path the default feed's (the
/// first), exactly as without a feeds file. One ``ServedCache`` and one ``RenderShelf`` per feed, which both of the
/// default feed's prefixes share; one responder for all.
struct ServedFeeds: Sendable {
    /// The feeds, in the feeds file's order; the first is the default.
    let all: [ServedFeed]
    /// Whether `/f/NAME/…` and the list at `/` are served (a feeds file).
    let servesFeedPaths: Bool
    /// Each feed under its own prefix (`f/NAME/`), made once rather than per request.
    private let byName: [String: FeedScope]
    /// The default feed under the paths outside `/f/`.
    let defaultScope: FeedScope
    /// Device ID → the feed `/api/display` shows it, for devices of a feed other than the default.
    private let devices: [String: String]

    /// The feeds `settings` names, each with its cache and its render shelf (one render at a time for all).
    init(settings: ServeConfiguration) {
        let slot = ImageDecodeBudget(capacity: 1)
        let named = settings.servesFeedPaths
        all = settings.feeds.map { feed in
            ServedFeed(
                name: feed.name,
                cache: ServedCache(
                    directory: feed.cacheDirectory,
                    now: settings.now,
                    logger: settings.logger,
                    prefix: named ? "\(feed.name): " : ""
                ),
                renders: RenderShelf(settings: settings, feed: feed, slot: slot),
                profiles: feed.profiles,
                quietHours: feed.quietHours,
                timeZone: feed.timeZone
            )
        }
        servesFeedPaths = named
        byName = Dictionary(
            all.map { ($0.name, FeedScope(feed: $0, prefix: "f/\($0.name)/")) },
            uniquingKeysWith: { first, _ in first }
        )
        defaultScope = FeedScope(feed: all[0], prefix: "")
        let defaultName = settings.feeds[0].name
        devices = settings.trmnlDevices.filter { $0.value != defaultName }
    }

    /// The default feed, which the paths outside `/f/` serve.
    var defaultFeed: ServedFeed { all[0] }

    /// Feed `name` under its prefix (`f/NAME/`); nil for a name not served, or without a feeds file.
    func scope(named name: String) -> FeedScope? {
        servesFeedPaths ? byName[name] : nil
    }

    /// The feed whose picture `/api/display` (outside `/f/`) shows the device `id` (normalized), under its prefix;
    /// nil for the default feed's devices and unknown ones, which the paths outside `/f/` serve as ever.
    func scope(forDevice id: String) -> FeedScope? {
        devices[id].flatMap { byName[$0] }
    }

    /// The names this server serves, for an error.
    var names: String {
        all.map(\.name).joined(separator: ", ")
    }
}

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
}

/// A request's feed, and the prefix its URLs take as the request addressed it.
struct FeedScope: Sendable {
    var feed: ServedFeed
    /// `""` (the paths outside `/f/`: the default feed, as without a feeds file) or `f/NAME/`.
    var prefix: String
}

/// The feeds of one server, chosen by a request's path: `/f/NAME/…` is feed NAME's (with a feeds file), every other
/// path the default feed's (the first), exactly as without a feeds file. One ``ServedCache`` and one ``RenderShelf``
/// per feed, which both of the default feed's prefixes share; one responder for all.
struct ServedFeeds: Sendable {
    /// What a request's path is for.
    enum Target {
        /// A path of one feed: the feed with its prefix, and the route (nil: no such path).
        case feed(FeedScope, ServeResponder.Route?)
        /// `/` with a feeds file: the list of feeds.
        case list
        /// `/f/NAME/…` for a NAME this server does not serve.
        case unknownFeed(String)
        /// `/f/NAME` without its slash: the feed's page is `/f/NAME/`.
        case feedWithoutSlash(String)
    }

    /// The feeds, in the feeds file's order; the first is the default.
    let all: [ServedFeed]
    /// Whether `/f/NAME/…` and the list at `/` are served (a feeds file).
    let servesFeedPaths: Bool
    /// Each feed under its own prefix (`f/NAME/`), made once rather than per request.
    private let byName: [String: FeedScope]
    /// The default feed under the paths outside `/f/`.
    private let defaultScope: FeedScope
    /// Device ID → the feed `/api/display` shows it, for devices of a feed other than the default.
    private let devices: [String: String]

    /// The feeds `settings` names, each with its cache and its render shelf (one render at a time for all).
    init(settings: ServeConfiguration) {
        let slot = ImageDecodeBudget(capacity: 1)
        let named = settings.servesFeedPaths
        all = settings.feeds.map { feed in
            ServedFeed(
                name: feed.name,
                cache: ServedCache(directory: feed.cacheDirectory) {
                    settings.warn(named ? "\(feed.name): \($0)" : $0)
                },
                renders: RenderShelf(settings: settings, feed: feed, slot: slot),
                profiles: feed.profiles
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

    /// What `path` (the URL's path, with its leading `/`) is for.
    func target(of path: String) -> Target {
        guard servesFeedPaths else { return .feed(defaultScope, ServeResponder.Route(path: path)) }
        if path == "/" { return .list }
        guard path.hasPrefix("/f/") else { return .feed(defaultScope, ServeResponder.Route(path: path)) }
        let rest = path.dropFirst(3)
        guard let slash = rest.firstIndex(of: "/") else {
            let name = String(rest)
            return byName[name] == nil ? .unknownFeed(name) : .feedWithoutSlash(name)
        }
        let name = String(rest[..<slash])
        guard let scope = byName[name] else { return .unknownFeed(name) }
        return .feed(scope, ServeResponder.Route(path: String(rest[slash...])))
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

import Foundation
import HTTPTypes
import Hummingbird
import KFeed
import KFeedImages
import Logging

/// Answers every request of `kfeed serve` (`docs/serve.md`) from the generations ``ServedCache`` holds: one responder
/// for every feed. Hummingbird's router (``router()``, `ServeResponder+Router.swift`) chooses the route and the feed
/// (`/f/NAME/…` is a route group); this makes the answer.
struct ServeResponder: Sendable {
    /// The largest request body accepted (`/api/log`), in bytes.
    static let bodyLimit = 64 * 1_024

    /// Each feed's generations and renders made on demand.
    let feeds: ServedFeeds
    let key: AccessKey?
    /// Signs the picture URLs answers hand out; nil without a key.
    let signer: URLSigner?
    let settings: ServeConfiguration
    /// What the TRMNL devices that call reported.
    let devices: DeviceLogBook

    /// A responder for `settings`' feeds.
    /// - Throws: `KFeedError` `.configuration` when a key is set and its URLs cannot be signed (no libcrypto).
    init(settings: ServeConfiguration) throws {
        self.feeds = ServedFeeds(settings: settings)
        self.key = settings.key.flatMap(AccessKey.init)
        self.signer = try key.map { key throws(KFeedError) in try URLSigner(key: key) }
        self.settings = settings
        self.devices = DeviceLogBook(directory: settings.deviceDirectory)
    }

    /// What a path the router matched is for.
    enum Target: Sendable {
        /// A route of a feed (the scope: the default feed outside `/f/`, else the group's `:feed`).
        case route(Route)
        /// `/` with a feeds file: the list of feeds.
        case list
        /// `/f/NAME` (its page, with the slash) or `/f/NAME/…` for a path no route has.
        case feedRoot
        /// A path no route has.
        case unknown
    }

    /// The routes of one feed, under its prefix.
    enum Route: Sendable {
        case preview, widget, timeline, currentJSON, currentImage
        /// A file of the generation, under `images/`, `avatars/`, `renders/`, or a top-level placeholder.
        case file
        case setup, display, currentScreen, log, redirect
        /// `/current.png`: the picture for a photo frame that names its size (``ServeResponder/photoFrame(_:snapshot:request:feed:)``).
        case frame
        case health
        /// `/feed.json` or `/feed.xml`.
        case feed(FeedDocument.Format)

        /// Whether the route answers a TRMNL device's picture (`/api/display`), which the device's feed decides.
        var isDisplay: Bool {
            switch self {
            case .display, .currentScreen: true
            default: false
            }
        }

        /// The methods the route answers.
        var methods: [HTTPRequest.Method] {
            if case .log = self { return [.post] }
            return [.get, .head]
        }
    }

    /// The response to `request`, which the router matched to `target` (`feed`: the group's `:feed`, nil outside
    /// `/f/`), with its `-v` line.
    func respond(to request: Request, target: Target, feed: String?) async -> Response {
        let elapsed = Stopwatch(settings.clock)
        var request = request
        let isCrossOrigin = Self.isCrossOrigin(request.uri.path)
        var answer =
            isCrossOrigin && request.method == .options
            ? preflight(request) : await self.answer(to: &request, target: target, feed: feed)
        if isCrossOrigin { answer.headers[.accessControlAllowOrigin] = "*" }
        let response = answer.response(to: request)
        if settings.isVerbose {
            logRequest(
                method: request.method,
                path: request.uri.path,
                hasQuery: !(request.uri.query ?? "").isEmpty,
                status: response.status.code,
                bytes: answer.body.readableBytes,
                milliseconds: elapsed.milliseconds
            )
        }
        return response
    }

    /// The `-v` line for a request: never the query string, which may carry the key.
    func logRequest(
        method: HTTPRequest.Method,
        path: String,
        hasQuery: Bool,
        status: Int,
        bytes: Int,
        milliseconds: Double
    ) {
        settings.logger.debug(
            """
            \(method) \(Self.printable(path))\(hasQuery ? "?…" : "") \(status) \(bytes) B \
            \(String(format: "%.1f", milliseconds)) ms
            """
        )
    }

    /// The answer to `request` for `target`: the key checked first (401 without it when one is required), then the
    /// feed (404 for a name not served), the method (405) and the route.
    private func answer(to request: inout Request, target: Target, feed name: String?) async -> ServeAnswer {
        let scope = name.flatMap { feeds.scope(named: $0) } ?? feeds.defaultScope
        var target = target
        if !Self.isPlain(request.uri.path, target: target) { target = .unknown }
        let route: Route? = if case .route(let route) = target { route } else { nil }
        guard let access = access(request, route: route, scope: scope) else {
            var answer = ServeAnswer.error(
                .unauthorized,
                "this server needs its key (Authorization: Bearer, Access-Token or ?key=)"
            )
            answer.headers[.wwwAuthenticate] = "Bearer realm=\"kfeed\""
            return answer
        }
        var answer: ServeAnswer
        if let name, feeds.scope(named: name) == nil {
            answer = .error(.notFound, "no feed '\(Self.printable(name))' here: this server serves \(feeds.names)")
        } else {
            switch target {
            case .route(let route): answer = await self.answer(to: &request, route: route, scope: scope)
            case .list: answer = allowing([.get, .head], request) ?? feedList(now: settings.now())
            case .feedRoot where request.uri.path.hasSuffix("/"):
                answer = await self.answer(to: &request, route: .preview, scope: scope)
            case .feedRoot:
                answer = ServeAnswer(status: .permanentRedirect)
                answer.headers[.location] = "/\(scope.prefix)"
            case .unknown: answer = .error(.notFound, "no such path")
            }
        }
        answer.isPrivate = access == .key
        return answer
    }

    /// Whether `path` is written as its route is: the router omits empty components (`//`, a trailing `/`), which
    /// name nothing here (only `/` and a feed's `/f/NAME/` end with a slash); a file's path is one the cache can hold.
    static func isPlain(_ path: String, target: Target) -> Bool {
        if path.utf8.count > 1, path.contains("//") { return false }
        switch target {
        case .list, .unknown, .feedRoot: return true
        case .route(.preview): return true
        case .route(.setup): return true  // TRMNL's firmware asks for `/api/setup/`
        case .route(.file):
            let relative =
                path.hasPrefix("/f/")
                ? path.split(separator: "/", maxSplits: 2).last.map(String.init) ?? "" : String(path.dropFirst())
            return CacheStore.isGenerationFile(relative)
        case .route: return !path.hasSuffix("/")
        }
    }

    /// A `405` when `request`'s method is not one of `methods`; nil when it is.
    private func allowing(_ methods: [HTTPRequest.Method], _ request: Request) -> ServeAnswer? {
        guard !methods.contains(request.method) else { return nil }
        var answer = ServeAnswer.error(.methodNotAllowed, "\(request.method) is not allowed here")
        answer.headers[.allow] = methods.map(\.rawValue).joined(separator: ", ")
        return answer
    }

    private func answer(to request: inout Request, route: Route, scope: FeedScope) async -> ServeAnswer {
        if let refused = allowing(route.methods, request) { return refused }
        if case .log = route { return await deviceLog(&request, now: settings.now()) }
        var scope = scope
        if route.isDisplay, scope.prefix.isEmpty,
            let device = feeds.scope(forDevice: request.headers[Self.deviceIDHeader].map(Self.normalizedID) ?? "")
        {
            scope = device  // a TRMNL device of another feed than the default: its own feed's picture
        }
        let snapshot = scope.feed.cache.current()
        let moment = Moment(generation: snapshot.current, now: settings.now())
        switch route {
        case .preview: return preview(moment, scope: scope)
        case .widget: return widget(moment, scope: scope)
        case .timeline:
            guard let generation = snapshot.current else {
                return .error(.notFound, "no timeline yet: run kfeed refresh")
            }
            var answer = ServeAnswer.file(generation.manifestFile)
            answer.caching = moment.lasting
            return answer
        case .currentJSON: return currentJSON(moment, request: request, scope: scope)
        case .currentImage:
            let profile = request.uri.query == nil ? nil : request.uri.queryParameters["profile"].map(String.init)
            guard let profile else { return currentImage(moment, snapshot: snapshot) }
            return await currentRender(moment, snapshot: snapshot, profile: profile, feed: scope.feed)
        case .file:
            let version =
                request.uri.query == nil ? nil : request.uri.queryParameters[Substring(ServedFile.versionParameter)]
            let relative = String(request.uri.path.dropFirst(1 + scope.prefix.count))
            return file(relative, version: version, snapshot: snapshot, moment: moment, feed: scope.feed)
        case .setup: return setup(request, moment: moment)
        case .display, .currentScreen:
            return await display(moment, snapshot: snapshot, request: request, scope: scope, isRedirect: false)
        case .frame: return await photoFrame(moment, snapshot: snapshot, request: request, feed: scope.feed)
        case .redirect:
            return await display(moment, snapshot: snapshot, request: request, scope: scope, isRedirect: true)
        case .health:
            return feeds.servesFeedPaths && scope.prefix.isEmpty ? healthOfAll() : health(moment, feed: scope.feed)
        case .feed(let format):
            return feedDocument(format, moment: moment, snapshot: snapshot, request: request, scope: scope)
        case .log: return .error(.methodNotAllowed, "unreachable")
        }
    }

    // MARK: - Access

    /// What let a request in, which decides whether a shared cache may keep the answer.
    enum Access {
        /// No key is required: anyone who can connect gets the same answer.
        case open
        /// A file's URL signature (`?sig=`): the URL alone lets anyone in, so anyone may be given the answer.
        case signed
        /// The key, in one of its three places (or `/api/setup`, which hands it out): the answer is for that client.
        case key
    }

    /// How `request` is let in; nil when it needs the key and does not carry it. For a file, a valid signature is
    /// checked first (so its answer stays shareable even from a client that also sends the key); `/api/setup` decides
    /// itself (a device has no key before it).
    private func access(_ request: Request, route: Route?, scope: FeedScope) -> Access? {
        guard let key, let signer else { return .open }
        if case .file? = route, let signature = request.uri.queryParameters[Substring(URLSigner.parameter)],
            signer.isValid(String(signature), for: String(request.uri.path.dropFirst()))
        {
            return .signed
        }
        if case .setup? = route { return .key }
        return key.isPresented(in: request) ? .key : nil
    }

    /// The URL a page or JSON answer uses for `relative` (a path the manifest names), relative to the feed's prefix
    /// (no leading `/`): with the file's version (`?v=`, so that caches may keep it for a year), and signed (its path
    /// under the prefix) when a key is required, so that browsers and firmware that send no header can fetch it.
    func link(_ relative: String, in generation: Generation?, scope: FeedScope) -> String {
        var query: [String] = []
        if let version = (generation?.files[relative] ?? scope.feed.renders.file(relative))?.version {
            query.append("\(ServedFile.versionParameter)=\(version)")
        }
        if let signer { query.append("\(URLSigner.parameter)=\(signer.signature(for: scope.prefix + relative))") }
        return query.isEmpty ? relative : "\(relative)?\(query.joined(separator: "&"))"
    }

    /// `http://HOST[:PORT]` as the client addressed this server (its `Host` header, when well-formed), else the
    /// address it listens on.
    func base(_ request: Request) -> String {
        if let host = request.head.authority, !host.isEmpty, host.utf8.count <= 255,
            host.utf8.allSatisfy({ byte in
                byte < 0x80
                    && (Character(UnicodeScalar(byte)).isLetter || Character(UnicodeScalar(byte)).isNumber
                        || ".-:[]".utf8.contains(byte))
            })
        {
            return "http://\(host)"
        }
        return "http://\(settings.boundAddress.withLock { $0 }.description)"
    }

    // MARK: - Pages

    private func preview(_ moment: Moment, scope: FeedScope) -> ServeAnswer {
        guard let manifest = moment.generation?.manifest else {
            return .error(.notFound, "no timeline yet: run kfeed refresh")
        }
        var html = PreviewPage(manifest: manifest, now: moment.now, timeZone: settings.timeZone).html
        html = html.replacing(#/ src="([a-z]+/[A-Za-z0-9._-]+|placeholder-[0-9x]+\.jpg)"/#) { match in
            " src=\"\(HTMLEscaping.escape(link(String(match.output.1), in: moment.generation, scope: scope)))\""
        }
        var answer = ServeAnswer.bytes(Array(html.utf8), type: "text/html; charset=utf-8")
        answer.caching = moment.untilEntryEnds
        answer.headers[.contentSecurityPolicy] = PreviewPage.contentSecurityPolicy
        answer.validate(modified: moment.modified)
        return answer
    }

    /// `/` with a feeds file: each feed's current picture and its links. Kept until the first of the feeds' entries
    /// ends (each card shows one), and at most ``CachePolicy/countingSeconds`` while a feed has no picture yet.
    private func feedList(now: Date) -> ServeAnswer {
        var cards: [FeedListPage.Card] = []
        var ends: [Date] = []
        var modified = Date.distantPast
        for feed in feeds.all {
            let scope = FeedScope(feed: feed, prefix: "f/\(feed.name)/")
            let moment = Moment(generation: feed.cache.current().current, now: now)
            let picture = moment.entry?.image.map { scope.prefix + link($0, in: moment.generation, scope: scope) }
            cards.append(
                FeedListPage.Card(name: feed.name, entry: moment.entry, picture: picture, isStale: moment.isStale)
            )
            ends.append(moment.until ?? now.addingTimeInterval(CachePolicy.countingSeconds))
            modified = max(modified, moment.modified)
        }
        let page = FeedListPage(cards: cards, timeZone: settings.timeZone)
        var answer = ServeAnswer.bytes(Array(page.html.utf8), type: "text/html; charset=utf-8")
        answer.caching = .until(ends.min() ?? now, staleSeconds: CachePolicy.hourlyStaleSeconds)
        answer.headers[.contentSecurityPolicy] = PreviewPage.contentSecurityPolicy
        answer.validate(modified: modified)
        return answer
    }

    private func widget(_ moment: Moment, scope: FeedScope) -> ServeAnswer {
        let page = WidgetPage(
            entry: moment.entry,
            sources: moment.entry.map { pictureSources(of: $0, in: moment.generation) } ?? [],
            imageSize: moment.generation?.manifest.size ?? .small,
            until: moment.entry == nil ? nil : moment.until,
            interval: moment.generation?.manifest.interval.seconds ?? 0,
            timeZone: settings.timeZone,
            link: { link($0, in: moment.generation, scope: scope) }
        )
        var answer = ServeAnswer.bytes(Array(page.html.utf8), type: "text/html; charset=utf-8")
        // The page names its end as an instant and reloads then, however long a cache kept it: kept until the entry
        // ends, like the picture. Stale, its end is only when to look again, and a new timeline may come first.
        answer.caching = moment.isStale ? moment.counting : moment.untilEntryEnds
        answer.headers[.contentSecurityPolicy] = WidgetPage.contentSecurityPolicy
        answer.validate(modified: moment.modified)
        return answer
    }

    /// Every size of `entry`'s picture that `/widget` may show, smallest first: the image, and the full-colour JPEG
    /// renders without a caption band (the page draws its own) that the generation holds.
    func pictureSources(of entry: Manifest.Entry, in generation: Generation?) -> [WidgetPage.Source] {
        guard let generation, let image = entry.image, !entry.placeholder else { return [] }
        var sources = [WidgetPage.Source(path: image, width: generation.manifest.size.width)]
        for (name, path) in entry.renders ?? [:] where generation.files[path] != nil {
            guard let profile = try? DisplayProfile(parsing: name), profile.kind == .rgb, profile.format == .jpeg,
                EntryRender.isUncaptioned(path, of: entry, profile: profile, timeZone: settings.timeZone)
            else { continue }
            sources.append(WidgetPage.Source(path: path, width: profile.width))
        }
        var widths = Set<Int>()
        return sources.sorted { ($0.width, $0.path) < ($1.width, $1.path) }.filter { widths.insert($0.width).inserted }
    }

    // MARK: - The current entry

    private func currentJSON(_ moment: Moment, request: Request, scope: FeedScope) -> ServeAnswer {
        guard let entry = moment.entry, let until = moment.until else { return noEntry(moment) }
        let base = "\(base(request))/\(scope.prefix)"
        // Paths stay relative to the cache directory, as in the manifest: the server's own paths are nobody's
        // business, and the URLs are what a remote client can use.
        let current = CurrentEntry(
            entry: entry,
            imageURL: entry.image.map { base + link($0, in: moment.generation, scope: scope) },
            avatarURL: entry.author.avatar.map { base + link($0, in: moment.generation, scope: scope) },
            until: until,
            refreshRate: refreshRate(moment, feed: scope.feed),
            isStale: moment.isStale
        )
        var answer = ServeAnswer.json(current)
        answer.caching = moment.counting
        answer.validate(modified: moment.modified)
        return answer
    }

    /// A file a manifest names: kept for a year under its version (`?v=` = its digest), else for one interval.
    func file(
        _ relative: String,
        version: Substring?,
        snapshot: ServedCache.Snapshot,
        moment: Moment,
        feed: ServedFeed
    ) -> ServeAnswer {
        guard let file = snapshot.file(relative) ?? (snapshot.isWithdrawn(relative) ? nil : feed.renders.file(relative))
        else {
            return .error(.notFound, "no such file")
        }
        var answer = ServeAnswer.file(file)
        answer.caching = version.map { $0 == file.version } == true ? .immutable : moment.lasting
        return answer
    }

    /// `/current.jpg`: the current entry's image (or its placeholder), fresh until the entry ends.
    func currentImage(_ moment: Moment, snapshot: ServedCache.Snapshot) -> ServeAnswer {
        guard let entry = moment.entry else { return noEntry(moment) }
        guard let relative = entry.image, let file = snapshot.file(relative) else {
            return .error(.notFound, "the current entry's image cannot be served")
        }
        var answer = ServeAnswer.file(file)
        answer.caching = moment.untilEntryEnds
        return answer
    }

    /// `/current.jpg?profile=P`: the current entry's render for display profile P, the refresh's or one made on
    /// demand.
    func currentRender(
        _ moment: Moment,
        snapshot: ServedCache.Snapshot,
        profile: String,
        feed: ServedFeed
    ) async -> ServeAnswer {
        guard let entry = moment.entry else { return noEntry(moment) }
        switch await render(named: profile, of: entry, moment: moment, snapshot: snapshot, feed: feed) {
        case .found(_, let file):
            var answer = ServeAnswer.file(file)
            answer.caching = moment.untilEntryEnds
            return answer
        case .refused(let why): return .error(.notFound, why)
        case .unavailable(let why):
            var answer = ServeAnswer.error(.serviceUnavailable, why)
            answer.headers[.retryAfter] = String(Self.renderRetrySeconds)
            return answer
        }
    }

    /// How long a client waits before asking again for a render that could not be had, in seconds.
    static let renderRetrySeconds = 30

    /// What looking for an entry's render found.
    enum RenderLookup {
        /// The render (or, while it is being made, the previous picture for the profile), under its path.
        case found(path: String, file: ServedFile)
        /// The profile is not served here (`--profile`), unknown, or too large to render on demand.
        case refused(String)
        /// No render could be had: the render libraries are missing, or too many renders are queued.
        case unavailable(String)
    }

    /// `entry`'s render for the profile named `name` (a client's `?profile=`, which the feed's `--profile` list
    /// restricts): the refresh's when the manifest names one, else one made on demand (``RenderShelf``).
    func render(
        named name: String,
        of entry: Manifest.Entry,
        moment: Moment,
        snapshot: ServedCache.Snapshot,
        feed: ServedFeed
    ) async -> RenderLookup {
        if let allowed = feed.profiles, !allowed.contains(name) {
            return .refused("profile \(Self.printable(name)) is not served here (--profile)")
        }
        if let path = entry.renders?[name], let file = snapshot.file(path) { return .found(path: path, file: file) }
        guard let profile = try? DisplayProfile(parsing: name), profile.name == name else {
            return .refused("unknown display profile \(Self.printable(name)): see docs/renders.md")
        }
        return await render(profile, of: entry, moment: moment, snapshot: snapshot, feed: feed, isAsked: true)
    }

    /// `entry`'s render for `profile`: the refresh's when the manifest names one, else one made on demand. `isAsked`:
    /// a client named the profile, which must then be small enough to render on demand (``RenderShelf/allows(_:)``);
    /// else the server chose it for a device (``TRMNLDevice``, a photo frame), within bounds of its own.
    func render(
        _ profile: DisplayProfile,
        of entry: Manifest.Entry,
        moment: Moment,
        snapshot: ServedCache.Snapshot,
        feed: ServedFeed,
        isAsked: Bool
    ) async -> RenderLookup {
        let name = profile.name
        if let path = entry.renders?[name], let file = snapshot.file(path) { return .found(path: path, file: file) }
        guard !isAsked || feed.renders.allows(profile) else {
            return .refused(
                "profile \(name) is larger than the server renders on demand: render it with kfeed refresh --profile"
            )
        }
        guard let generation = moment.generation,
            let made = await feed.renders.render(entry, profile: profile, in: generation),
            !snapshot.isWithdrawn(made.path)
        else {
            return .unavailable("the \(name) render cannot be made now; try again shortly")
        }
        return .found(path: made.path, file: made.file)
    }

    /// The answer when there is no entry to show: no timeline yet, or an empty one (a stale timeline still shows
    /// its last entry).
    func noEntry(_ moment: Moment) -> ServeAnswer {
        guard let manifest = moment.generation?.manifest else {
            return .error(.notFound, "no timeline yet: run kfeed refresh")
        }
        return .error(.notFound, Self.emptyTimeline(manifest))
    }

    /// Why an empty timeline has nothing to show, for an error and for `/healthz`.
    static func emptyTimeline(_ manifest: Manifest) -> String {
        "the timeline is empty: \(manifest.emptyReason ?? "no usable post yet")"
    }

    /// Control characters and non-ASCII shown as `?`, so that a path cannot forge log lines.
    static func printable(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.prefix(200).map { $0.isASCII && $0.value >= 0x20 && $0.value != 0x7F ? $0 : "?" }
            )
        )
    }
}

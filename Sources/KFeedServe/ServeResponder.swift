import Foundation
import HTTPTypes
import Hummingbird
import KFeed
import KFeedImages

/// Answers every request of `kfeed serve` (`DESIGN.md` §5) from the generations ``ServedCache`` holds.
struct ServeResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    /// The largest request body accepted (`/api/log`), in bytes.
    static let bodyLimit = 64 * 1_024

    let cache: ServedCache
    /// The renders made on demand, for profiles the refresh did not render.
    let renders: RenderShelf
    let key: AccessKey?
    let signer: URLSigner
    let settings: ServeConfiguration

    func respond(to request: Request, context: Context) async throws -> Response {
        let start = ContinuousClock.now
        var request = request
        let answer = await answer(to: &request)
        let response = answer.response(to: request)
        if settings.isVerbose {
            logRequest(
                method: request.method,
                path: request.uri.path,
                hasQuery: !(request.uri.query ?? "").isEmpty,
                status: response.status.code,
                bytes: answer.body.readableBytes,
                since: start
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
        since start: ContinuousClock.Instant
    ) {
        let elapsed = (ContinuousClock.now - start).components
        let milliseconds = Double(elapsed.attoseconds) / 1e15 + Double(elapsed.seconds) * 1e3
        settings.log(
            "\(method) \(Self.printable(path))\(hasQuery ? "?…" : "") \(status) \(bytes) B "
                + "\(String(format: "%.1f", milliseconds)) ms"
        )
    }

    /// The answer to a `GET` or `HEAD` of `/current.jpg` or a file (without a query string, or with only its version
    /// `?v=`) with the key (when one is required) in a header, computed on the event loop without the asynchronous
    /// request path; nil for every other request, which takes that path. Same code and same answers as the full path.
    func immediateAnswer(to head: HTTPRequest) -> ServeAnswer? {
        guard head.method == .get || head.method == .head, let target = head.path,
            head.headerFields[.connection] == nil
        else { return nil }
        // (`utf8` views: String's own `contains` and `split` go through Foundation here, at a cost per request.)
        let question = target.utf8.firstIndex(of: UInt8(ascii: "?"))
        let path = question.map { String(target[..<$0]) } ?? target
        var version: Substring?
        if let question {
            let query = target[target.index(after: question)...]
            guard query.hasPrefix("\(ServedFile.versionParameter)="), !query.utf8.contains(UInt8(ascii: "&")) else {
                return nil
            }
            version = query.dropFirst(ServedFile.versionParameter.count + 1)
        }
        guard let route = Route(path: path) else { return nil }
        if let key, !key.isPresented(inHeaders: head.headerFields) { return nil }
        let snapshot = cache.current()
        let moment = Moment(generation: snapshot.current, now: settings.now())
        var answer: ServeAnswer
        switch route {
        case .currentImage where version == nil: answer = currentImage(moment, snapshot: snapshot, profile: nil)
        case .file(let relative): answer = file(relative, version: version, snapshot: snapshot, moment: moment)
        default: return nil
        }
        answer.isPrivate = key != nil
        return answer
    }

    /// The route of a path, nil for an unknown one.
    enum Route {
        case preview, widget, timeline, currentJSON, currentImage
        case file(String)
        case setup, display, log, redirect
        case health

        init?(path: String) {
            switch path {
            case "/": self = .preview
            case "/widget": self = .widget
            case "/timeline.json": self = .timeline
            case "/current.json": self = .currentJSON
            case "/current.jpg": self = .currentImage
            case "/api/setup": self = .setup
            case "/api/display": self = .display
            case "/api/log": self = .log
            case "/trmnl/redirect.json": self = .redirect
            case "/healthz": self = .health
            default:
                let relative = String(path.dropFirst())
                guard path.hasPrefix("/"), CacheStore.isGenerationFile(relative) else { return nil }
                self = .file(relative)
            }
        }

        /// The methods the route answers.
        var methods: [HTTPRequest.Method] {
            if case .log = self { return [.post] }
            return [.get, .head]
        }
    }

    private func answer(to request: inout Request) async -> ServeAnswer {
        let path = request.uri.path
        let route = Route(path: path)
        let access = access(request, route: route)
        guard let access else {
            var answer = ServeAnswer.error(
                .unauthorized,
                "this server needs its key (Authorization: Bearer, Access-Token or ?key=)"
            )
            answer.headers[.wwwAuthenticate] = "Bearer realm=\"kfeed\""
            return answer
        }
        var answer = await answer(to: &request, route: route)
        answer.isPrivate = access == .key
        return answer
    }

    private func answer(to request: inout Request, route: Route?) async -> ServeAnswer {
        guard let route else { return .error(.notFound, "no such path") }
        guard route.methods.contains(request.method) else {
            var answer = ServeAnswer.error(.methodNotAllowed, "\(request.method) is not allowed here")
            answer.headers[.allow] = route.methods.map(\.rawValue).joined(separator: ", ")
            return answer
        }
        if case .log = route { return await deviceLog(&request) }
        let now = settings.now()
        let snapshot = cache.current()
        let moment = Moment(generation: snapshot.current, now: now)
        switch route {
        case .preview: return preview(moment)
        case .widget: return widget(moment)
        case .timeline:
            guard let generation = snapshot.current else {
                return .error(.notFound, "no timeline yet: run kfeed refresh")
            }
            var answer = ServeAnswer.file(generation.manifestFile)
            answer.caching = moment.lasting
            return answer
        case .currentJSON: return currentJSON(moment, request: request)
        case .currentImage:
            let profile = request.uri.query == nil ? nil : request.uri.queryParameters["profile"].map(String.init)
            guard let profile else { return currentImage(moment, snapshot: snapshot, profile: nil) }
            return await currentRender(moment, snapshot: snapshot, profile: profile)
        case .file(let relative):
            let version =
                request.uri.query == nil ? nil : request.uri.queryParameters[Substring(ServedFile.versionParameter)]
            return file(relative, version: version, snapshot: snapshot, moment: moment)
        case .setup: return setup(request, moment: moment)
        case .display: return await display(moment, snapshot: snapshot, request: request, isRedirect: false)
        case .redirect: return await display(moment, snapshot: snapshot, request: request, isRedirect: true)
        case .health: return health(moment)
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
    private func access(_ request: Request, route: Route?) -> Access? {
        guard let key else { return .open }
        if case .file(let relative) = route,
            let signature = request.uri.queryParameters[Substring(URLSigner.parameter)],
            signer.isValid(String(signature), for: relative)
        {
            return .signed
        }
        if case .setup = route { return .key }
        return key.isPresented(in: request) ? .key : nil
    }

    /// The URL path (relative, no leading `/`) a page or JSON answer uses for `relative`: with the file's version
    /// (`?v=`, so that caches may keep it for a year), and signed when a key is required, so that browsers and
    /// firmware that send no header can fetch it.
    func link(_ relative: String, in generation: Generation?) -> String {
        var query: [String] = []
        if let version = (generation?.files[relative] ?? renders.file(relative))?.version {
            query.append("\(ServedFile.versionParameter)=\(version)")
        }
        if key != nil { query.append("\(URLSigner.parameter)=\(signer.signature(for: relative))") }
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

    private func preview(_ moment: Moment) -> ServeAnswer {
        guard let manifest = moment.generation?.manifest else {
            return .error(.notFound, "no timeline yet: run kfeed refresh")
        }
        var html = PreviewPage(manifest: manifest, now: moment.now, timeZone: settings.timeZone).html
        html = html.replacing(#/ src="([a-z]+/[A-Za-z0-9._-]+|placeholder-[0-9x]+\.jpg)"/#) { match in
            " src=\"\(HTMLEscaping.escape(link(String(match.output.1), in: moment.generation)))\""
        }
        var answer = ServeAnswer.bytes(Array(html.utf8), type: "text/html; charset=utf-8")
        answer.caching = moment.untilEntryEnds
        answer.headers[.contentSecurityPolicy] = PreviewPage.contentSecurityPolicy
        answer.validate(modified: moment.modified)
        return answer
    }

    private func widget(_ moment: Moment) -> ServeAnswer {
        let page = WidgetPage(
            entry: moment.entry,
            sources: moment.entry.map { pictureSources(of: $0, in: moment.generation) } ?? [],
            imageSize: moment.generation?.manifest.size ?? .small,
            until: moment.entry == nil ? nil : moment.until,
            interval: moment.generation?.manifest.interval.seconds ?? 0,
            timeZone: settings.timeZone,
            link: { link($0, in: moment.generation) }
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
                EntryRender.isUncaptioned(path, of: entry, profile: profile)
            else { continue }
            sources.append(WidgetPage.Source(path: path, width: profile.width))
        }
        var widths = Set<Int>()
        return sources.sorted { ($0.width, $0.path) < ($1.width, $1.path) }.filter { widths.insert($0.width).inserted }
    }

    // MARK: - The current entry

    private func currentJSON(_ moment: Moment, request: Request) -> ServeAnswer {
        guard let entry = moment.entry, let until = moment.until else { return noEntry(moment) }
        let base = base(request)
        // Paths stay relative to the cache directory, as in the manifest: the server's own paths are nobody's
        // business, and the URLs are what a remote client can use.
        let current = CurrentEntry(
            entry: entry,
            imageURL: entry.image.map { "\(base)/\(link($0, in: moment.generation))" },
            avatarURL: entry.author.avatar.map { "\(base)/\(link($0, in: moment.generation))" },
            until: until,
            refreshRate: moment.secondsLeft,
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
        moment: Moment
    ) -> ServeAnswer {
        guard let file = snapshot.file(relative) ?? renders.file(relative) else {
            return .error(.notFound, "no such file")
        }
        var answer = ServeAnswer.file(file)
        answer.caching = version.map { $0 == file.version } == true ? .immutable : moment.lasting
        return answer
    }

    /// `/current.jpg`: the current entry's image (or its placeholder), fresh until the entry ends.
    func currentImage(_ moment: Moment, snapshot: ServedCache.Snapshot, profile: String?) -> ServeAnswer {
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
    func currentRender(_ moment: Moment, snapshot: ServedCache.Snapshot, profile: String) async -> ServeAnswer {
        guard let entry = moment.entry else { return noEntry(moment) }
        switch await render(named: profile, of: entry, moment: moment, snapshot: snapshot) {
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

    /// `entry`'s render for the profile named `name`: the refresh's when the manifest names one, else one made on
    /// demand (``RenderShelf``).
    func render(
        named name: String,
        of entry: Manifest.Entry,
        moment: Moment,
        snapshot: ServedCache.Snapshot
    ) async -> RenderLookup {
        if let allowed = settings.profiles, !allowed.contains(name) {
            return .refused("profile \(Self.printable(name)) is not served here (--profile)")
        }
        if let path = entry.renders?[name], let file = snapshot.file(path) { return .found(path: path, file: file) }
        guard let profile = try? DisplayProfile(parsing: name), profile.name == name else {
            return .refused("unknown display profile \(Self.printable(name)): see docs/renders.md")
        }
        guard renders.allows(profile) else {
            return .refused(
                "profile \(name) is larger than the server renders on demand: render it with kfeed refresh --profile"
            )
        }
        guard let generation = moment.generation,
            let made = await renders.render(entry, profile: profile, in: generation)
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

    // MARK: - Health

    private func health(_ moment: Moment) -> ServeAnswer {
        let state = cache.refreshState()
        let lastError = (cache.lastLoadError ?? state?.lastError?.message).map(cache.withoutPaths)
        guard let manifest = moment.generation?.manifest else {
            return .json(
                Health(status: "no timeline", generatedAt: nil, reloadAfter: nil, lastError: lastError),
                status: .serviceUnavailable
            )
        }
        var health = Health(
            status: "ok",
            generatedAt: manifest.generatedAt,
            reloadAfter: manifest.reloadAfter,
            lastError: lastError
        )
        if moment.entry == nil {
            health.status = "empty"
            health.reason = Self.emptyTimeline(manifest)
        } else if moment.isStale, let last = manifest.entries.last {
            let end = last.date.addingTimeInterval(manifest.interval.seconds)
            health.status = "stale"
            health.reason =
                "the timeline ran out at \(InstantFormat.string(from: end)): serving its last picture; "
                + (lastError.map { "the last refresh failed: \($0)" }
                    ?? "no refresh has made a new one (run kfeed refresh)")
        }
        return .json(health, status: health.status == "ok" ? .ok : .serviceUnavailable)
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

/// What `/healthz` answers.
struct Health: Encodable {
    var status: String
    var generatedAt: Date?
    var reloadAfter: Date?
    var lastError: String?
    /// Why the server is unhealthy though it answers (a stale or empty timeline); omitted when healthy.
    var reason: String?

    enum CodingKeys: String, CodingKey {
        case status, reason
        case generatedAt = "generated_at"
        case reloadAfter = "reload_after"
        case lastError = "last_error"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(status, forKey: .status)
        try container.encode(generatedAt, forKey: .generatedAt)
        try container.encode(reloadAfter, forKey: .reloadAfter)
        try container.encode(lastError, forKey: .lastError)
        try container.encodeIfPresent(reason, forKey: .reason)
    }
}

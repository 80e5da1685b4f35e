import Foundation
import HTTPTypes
import Hummingbird
import KFeed

/// Answers every request of `kfeed serve` (`DESIGN.md` §5) from the generations ``ServedCache`` holds.
struct ServeResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    /// The largest request body accepted (`/api/log`), in bytes.
    static let bodyLimit = 64 * 1_024

    let cache: ServedCache
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
                guard path.hasPrefix("/"), Generation.isServable(relative) else { return nil }
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
            return currentImage(moment, snapshot: snapshot, profile: profile)
        case .file(let relative):
            let version =
                request.uri.query == nil ? nil : request.uri.queryParameters[Substring(ServedFile.versionParameter)]
            return file(relative, version: version, snapshot: snapshot, moment: moment)
        case .setup: return setup(request, moment: moment)
        case .display: return display(moment, request: request, isRedirect: false)
        case .redirect: return display(moment, request: request, isRedirect: true)
        case .health: return health(snapshot)
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
        if let version = generation?.files[relative]?.version {
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
            reloadAfter: moment.entry == nil ? 300 : moment.secondsLeft,
            timeZone: settings.timeZone,
            link: { link($0, in: moment.generation) }
        )
        var answer = ServeAnswer.bytes(Array(page.html.utf8), type: "text/html; charset=utf-8")
        answer.caching = moment.counting
        answer.headers[.contentSecurityPolicy] = PreviewPage.contentSecurityPolicy
        answer.validate(modified: moment.modified)
        return answer
    }

    // MARK: - The current entry

    private func currentJSON(_ moment: Moment, request: Request) -> ServeAnswer {
        guard let entry = moment.entry, let until = moment.until else { return noEntry(moment) }
        let base = base(request)
        var printed = entry
        printed.image = entry.image.map(cache.absolutePath)
        printed.author.avatar = entry.author.avatar.map(cache.absolutePath)
        let current = CurrentEntry(
            entry: printed,
            imageURL: entry.image.map { "\(base)/\(link($0, in: moment.generation))" },
            avatarURL: entry.author.avatar.map { "\(base)/\(link($0, in: moment.generation))" },
            until: until,
            refreshRate: moment.secondsLeft
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
        guard let file = snapshot.file(relative) else { return .error(.notFound, "no such file") }
        var answer = ServeAnswer.file(file)
        answer.caching = version.map { $0 == file.version } == true ? .immutable : moment.lasting
        return answer
    }

    func currentImage(_ moment: Moment, snapshot: ServedCache.Snapshot, profile: String?) -> ServeAnswer {
        guard let entry = moment.entry else { return noEntry(moment) }
        let relative: String?
        if let profile {
            if let allowed = settings.profiles, !allowed.contains(profile) {
                return .error(.notFound, "profile \(profile) is not served (--profile)")
            }
            guard let render = entry.renders?[profile] else {
                return .error(
                    .notFound,
                    "the current entry has no \(profile) render: run kfeed refresh --profile \(profile)"
                )
            }
            relative = render
        } else {
            relative = entry.image
        }
        guard let relative, let file = snapshot.file(relative) else {
            return .error(.notFound, "the current entry's image cannot be served")
        }
        var answer = ServeAnswer.file(file)
        answer.caching = moment.untilEntryEnds
        return answer
    }

    private func noEntry(_ moment: Moment) -> ServeAnswer {
        guard let manifest = moment.generation?.manifest else {
            return .error(.notFound, "no timeline yet: run kfeed refresh")
        }
        let span =
            manifest.entries.first.map { first in
                let end = manifest.entries.last!.date.addingTimeInterval(manifest.interval.seconds)
                return
                    "the timeline runs \(InstantFormat.string(from: first.date)) to \(InstantFormat.string(from: end))"
            } ?? "the timeline is empty"
        return .error(.notFound, "no entry covers \(InstantFormat.string(from: moment.now)): \(span)")
    }

    // MARK: - Health

    private func health(_ snapshot: ServedCache.Snapshot) -> ServeAnswer {
        let state = cache.refreshState()
        let lastError = cache.lastLoadError ?? state?.lastError?.message
        guard let manifest = snapshot.current?.manifest else {
            return .json(
                Health(status: "no timeline", generatedAt: nil, reloadAfter: nil, lastError: lastError),
                status: .serviceUnavailable
            )
        }
        return .json(
            Health(
                status: "ok",
                generatedAt: manifest.generatedAt,
                reloadAfter: manifest.reloadAfter,
                lastError: lastError
            )
        )
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

    enum CodingKeys: String, CodingKey {
        case status
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
    }
}

import Foundation
import KFeed
import KFeedBase
import KFeedHTTP
import KFeedImages
import KFeedTestSupport
import Testing

/// `kfeed serve` with a feeds file behind a real caching proxy: two feeds (``TwoFeeds``) served by the built binary,
/// nginx in front with the configuration `docs/serve.md` shows (``RunningNginx``), and concurrent libcurl clients
/// reading every path of both feeds and the default's old paths, thousands of requests. Both servers run on the real
/// clock; the feeds' entries are dated so that one ends during the test.
@Suite(
    .timeLimit(.minutes(4)),
    .enabled(
        if: RunningNginx.executable != nil,
        "needs nginx: apt-get install -y nginx-light (scripts/test.sh installs it through scripts/deps.sh)"
    )
)
struct CachingProxyFeedsTests {
    private static let key = "pr0xy-Feeds_0123456789"
    /// The clients reading at once.
    private static let clients = 6
    /// The default feed's old paths, and each feed's own.
    private static let prefixes = ["", "/f/news", "/f/pets"]

    /// What one answer through the proxy showed.
    private struct Reading: Sendable {
        var received: Date
        var path: String
        /// The picture's `ETag` (for `/current.jpg` and the picture URLs), which says which picture it is.
        var etag: String?
        var problems: [String]
    }

    /// The feed a path is of: pets under `/f/pets/`, news (the default) elsewhere.
    private static func feed(of path: String) -> String {
        path.hasPrefix("/f/pets/") ? "pets" : "news"
    }

    // MARK: - Every path once per entry, and a refresh within its hour

    @Test func throughNginxEachFeedsPathsReachKfeedOncePerEntryAndARefreshShowsWithinItsHour() async throws {
        // 1-minute entries, the first begun 20 s ago. pets has one: 12 s before it ends, a refresh (forced, as after
        // a failure, or as one that finds the timeline ran out) makes a new timeline whose picture for the hour is
        // another post's, which must show through the proxy by the hour's end.
        let (feeds, server, nginx, start) = try await Self.setUpOneMinuteEntries()
        defer { feeds.remove() }
        let end = start.addingTimeInterval(60)
        let deadline = end.addingTimeInterval(8)
        #expect(Date() < end.addingTimeInterval(-18), "setting up took until \(Date()), the entry ends at \(end)")
        var known = try Self.pictures(of: feeds, label: { "\($0)#\($1)" })

        let base = nginx.base
        let clients = Task { try await Self.read(base: base, until: deadline, hour: end) }
        // The refresh comes 12 s before the hour, once the proxy holds pets' answers of the old timeline.
        let held = ["current.jpg", "widget", ""].map { "/f/pets/\($0)" }
        while !Set(nginx.accessLog().map(\.uri)).isSuperset(of: held), Date() < end.addingTimeInterval(-12) {
            try await Task.sleep(for: .milliseconds(200))
        }
        #expect(Set(nginx.accessLog().map(\.uri)).isSuperset(of: held), "no client read pets before its refresh")
        try await Task.sleep(for: .seconds(max(0, end.timeIntervalSinceNow - 12)))
        let refreshedAt = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        try await feeds.refresh(at: refreshedAt, ["--feed", "pets", "--force"])
        known.merge(try Self.pictures(of: feeds, only: "pets", label: { "\($0)'#\($1)" })) { first, _ in first }
        let (readings, bodies) = try await clients.value
        await nginx.stop()
        #expect((await server.stop()).status == 0)

        let problems = readings.flatMap(\.problems)
        #expect(problems.isEmpty, "\(problems.prefix(10)) of \(problems.count) in \(readings.count) answers")
        // (Some 25,000 on an idle machine, far fewer on a loaded one, where each answer takes longer: no count is asked
        // for, but every path of every feed read on both sides of the hour.)
        for prefix in Self.prefixes {
            for path in ["current.json", "current.jpg", "current.jpg?profile=trmnl", "widget", "timeline.json", ""] {
                let read = readings.filter { $0.path == "\(prefix)/\(path)" }.map(\.received)
                #expect(
                    read.contains { $0 < end } && read.contains { $0 >= end },
                    "\(prefix)/\(path) was not read on both sides of the hour (\(readings.count) answers)"
                )
            }
        }
        let labels = bodies.compactMapValues { known[$0] }
        let shown = try Self.checkPictures(readings, labels: labels, end: end, refreshedAt: refreshedAt)
        let upstream = try Self.checkUpstream(nginx.accessLog(), readings: readings, server: server, end: end)
        print(
            "CachingProxyFeedsTests: \(readings.count) answers through nginx, \(upstream) reached kfeed; news's next "
                + "picture \(shown.news) s after the hour, pets' refreshed one \(shown.pets) s after the refresh "
                + "(\(end.timeIntervalSince(refreshedAt)) s before the hour)"
        )
    }

    /// The feeds (pets' one 1-minute entry begun 20 s before the set-up ends), the server and nginx in front of it,
    /// and the instant the entries begin. Both servers run on the real clock (nginx keeps answers by it), so the
    /// entries are dated from the time the set-up is measured to take: when an attempt leaves less than 40 s of the
    /// entry, it is made again dated that much later (at most three attempts), and the entry's start is waited for.
    private static func setUpOneMinuteEntries() async throws -> (TwoFeeds, RunningServer, RunningNginx, Date) {
        var lead = 0.0
        for attempt in 1...3 {
            let began = Date()
            let start = Date(timeIntervalSince1970: (began.timeIntervalSince1970 + lead).rounded(.down) - 20)
            let feeds = try await TwoFeeds.make(now: start, interval: "1m", petsEntries: 1)
            let server = try await RunningServer.start([
                "--config", feeds.config.path, "--cache", feeds.cache.path, "--listen", "127.0.0.1:0", "-v",
            ])
            let nginx = try await RunningNginx.start(upstreamPort: server.port)
            let left = start.addingTimeInterval(60).timeIntervalSinceNow
            if left >= 40 || attempt == 3 {
                let early = start.timeIntervalSinceNow
                if early > 0 { try await Task.sleep(for: .seconds(early)) }
                return (feeds, server, nginx, start)
            }
            await nginx.stop()
            _ = await server.stop()
            feeds.remove()
            lead = Date().timeIntervalSince(began)
        }
        throw RunningServer.ServerFailure(description: "unreachable")
    }

    /// Labels for the bytes of every picture and `trmnl` render of the feeds' current timelines (`label(feed, entry)`).
    private static func pictures(
        of feeds: TwoFeeds,
        only: String? = nil,
        label: (String, Int) -> String
    ) throws -> [Data: String] {
        var pictures: [Data: String] = [:]
        for feed in ["news", "pets"] where only == nil || only == feed {
            for (index, entry) in try feeds.manifest(of: feed).entries.enumerated() {
                for path in [entry.image, entry.renders?["trmnl"]].compactMap({ $0 }) {
                    let data = try feeds.data(path, of: feed)
                    if pictures[data] == nil { pictures[data] = label(feed, index) }
                }
            }
        }
        return pictures
    }

    /// Clients reading every path until `deadline`, each round cut short so that all ask again right at `hour`:
    /// the readings, and the pictures' bytes by `ETag`.
    private static func read(
        base: String,
        until deadline: Date,
        hour: Date
    ) async throws -> (readings: [Reading], bodies: [String: Data]) {
        let transport = try CurlTransport()
        return try await withThrowingTaskGroup(of: ([Reading], [String: Data]).self) { group in
            for _ in 0..<clients {
                group.addTask {
                    var readings: [Reading] = []
                    var bodies: [String: Data] = [:]
                    while Date() < deadline {
                        for prefix in prefixes {
                            for (reading, body) in try await round(prefix, base: base, transport: transport) {
                                readings.append(reading)
                                if let etag = reading.etag, bodies[etag] == nil { bodies[etag] = body }
                            }
                        }
                        let untilHour = hour.timeIntervalSinceNow
                        try await Task.sleep(for: .seconds(untilHour > 0 ? min(0.2, untilHour) : 0.2))
                    }
                    return (readings, bodies)
                }
            }
            var all: ([Reading], [String: Data]) = ([], [:])
            for try await (readings, bodies) in group {
                all.0 += readings
                all.1.merge(bodies) { first, _ in first }
            }
            return all
        }
    }

    /// One client's round of one feed's paths (under `prefix`): `current.json` and the picture it names (with its
    /// version and without), then the fixed paths.
    private static func round(
        _ prefix: String,
        base: String,
        transport: CurlTransport
    ) async throws -> [(Reading, Data)] {
        let current = try await CachingProxyTests.get(transport, "\(base)\(prefix)/current.json")
        var paths = ["current.jpg", "current.jpg?profile=trmnl", "widget", "timeline.json", ""].map {
            "\(prefix)/\($0)"
        }
        var first = reading(current, path: "\(prefix)/current.json")
        let json = (try? JSONSerialization.jsonObject(with: current.body)) as? [String: Any]
        if let url = json?["image_url"] as? String, url.hasPrefix("\(base)\(prefix)/") {
            let path = String(url.dropFirst(base.count))
            paths += [path, String(path.prefix { $0 != "?" })]
        } else {
            first.problems.append("\(prefix)/current.json names no picture under \(prefix)/: \(json ?? [:])")
        }
        var readings = [(first, current.body)]
        for path in paths {
            let answer = try await CachingProxyTests.get(transport, "\(base)\(path)")
            readings.append((reading(answer, path: path), answer.body))
        }
        return readings
    }

    /// What an answer says, and what is wrong with its headers: shared (`public`), no relative lifetime but a
    /// versioned picture's year, an `Expires`, no `Vary`; `current.json` kept 30 s at most.
    private static func reading(_ answer: KFeedHTTP.HTTPResponse, path: String) -> Reading {
        var reading = Reading(received: Date(), path: path, problems: [])
        guard answer.status == 200 else {
            reading.problems.append("\(path): \(answer.status)")
            return reading
        }
        let cacheControl = answer[header: "cache-control"] ?? ""
        if path.contains("?v=") {
            if cacheControl != "public, max-age=31536000, immutable" {
                reading.problems.append("\(path): \(cacheControl)")
            }
        } else if !cacheControl.hasPrefix("public, ") || cacheControl.contains("max-age")
            || answer[header: "vary"] != nil || CachingProxyTests.secondsToExpiry(answer) == nil
        {
            reading.problems.append("\(path): Cache-Control \(cacheControl), Vary \(answer[header: "vary"] ?? "-")")
        }
        if path.hasSuffix("/current.json"), (CachingProxyTests.secondsToExpiry(answer) ?? .infinity) > 31 {
            reading.problems.append("\(path) may be kept \(CachingProxyTests.secondsToExpiry(answer) ?? -1) s")
        }
        if path.contains("current.jpg") || path.contains("?v=") {
            reading.etag = answer[header: "etag"]
            if reading.etag == nil { reading.problems.append("\(path): no ETag") }
        }
        return reading
    }

    /// Every picture shown is of the path's feed; news's next entry shows within 3 s of the hour, and pets' refreshed
    /// picture by then; neither old picture shows more than 12 s after it. Returns the seconds each took.
    private static func checkPictures(
        _ readings: [Reading],
        labels: [String: String],
        end: Date,
        refreshedAt: Date
    ) throws -> (news: Double, pets: Double) {
        var firstShown: [String: Date] = [:]
        var lastShown: [String: Date] = [:]
        for reading in readings {
            guard let etag = reading.etag else { continue }
            guard let label = labels[etag] else {
                Issue.record("\(reading.path) showed a picture of no timeline (\(etag))")
                continue
            }
            #expect(label.hasPrefix(feed(of: reading.path)), "\(reading.path) showed \(label)")
            firstShown[label] = min(firstShown[label] ?? .distantFuture, reading.received)
            lastShown[label] = max(lastShown[label] ?? .distantPast, reading.received)
        }
        #expect(firstShown["pets#0"] != nil, "pets' picture before the refresh never showed")
        let toNews = try #require(firstShown["news#1"]).timeIntervalSince(end)
        #expect(toNews >= 0 && toNews <= 3, "news's next picture first showed \(toNews) s after the hour")
        let refreshed = try #require(firstShown.filter { $0.key.hasPrefix("pets'") }.map(\.value).min())
        let toPets = refreshed.timeIntervalSince(refreshedAt)
        #expect(
            toPets >= 0 && refreshed <= end.addingTimeInterval(3),
            "pets' refreshed picture first showed \(toPets) s after the refresh, \(end.timeIntervalSince(refreshedAt)) s before the hour"
        )
        for old in ["news#0", "pets#0"] {
            let after = (lastShown[old] ?? .distantPast).timeIntervalSince(end)
            #expect(after <= 12, "\(old) still showed \(after) s after the hour")
        }
        return (toNews, toPets)
    }

    /// At most one request per path per entry reached kfeed (`current.json` at most once per 30 s, a versioned
    /// picture once in all), as nginx's and kfeed's own logs both say. Returns the requests that reached kfeed.
    private static func checkUpstream(
        _ logged: [RunningNginx.Logged],
        readings: [Reading],
        server: RunningServer,
        end: Date
    ) throws -> Int {
        #expect(logged.count == readings.count, "nginx logged \(logged.count) of \(readings.count) requests")
        let upstream = logged.filter(\.reachedServer)
        #expect(upstream.count == CachingProxyTests.loggedRequests(server), "kfeed's own log disagrees with nginx's")
        let first = try #require(logged.map(\.time).min())
        let last = try #require(logged.map(\.time).max())
        let spans = [end.timeIntervalSince1970 - first, last - end.timeIntervalSince1970]
        var perPath: [String: [Int]] = [:]
        for request in upstream {
            perPath[request.uri, default: [0, 0]][request.time < end.timeIntervalSince1970 ? 0 : 1] += 1
        }
        for (path, counts) in perPath {
            if path.contains("?v=") {
                #expect(counts.reduce(0, +) == 1, "\(path) reached kfeed \(counts) times")
                continue
            }
            for (entry, count) in counts.enumerated() {
                let allowed = path.hasSuffix("/current.json") ? Int(spans[entry] / 30) + 1 : 1
                #expect(count <= allowed, "\(path) reached kfeed \(count) times in entry \(entry) (\(allowed) allowed)")
            }
        }
        for prefix in prefixes {
            for path in ["current.jpg", "widget", "current.jpg?profile=trmnl", ""].map({ "\(prefix)/\($0)" }) {
                #expect(perPath[path] == [1, 1], "\(path): \(perPath[path] ?? [])")
            }
        }
        print("CachingProxyFeedsTests: requests reaching kfeed per path, before and after the hour: \(perPath)")
        return upstream.count
    }

    // MARK: - A keyed server

    @Test func throughNginxAKeyedServerHandsNoKeyedAnswerOnAndOneSignedURLPerPicture() async throws {
        let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down) - 600)
        let feeds = try await TwoFeeds.make(now: start, serve: "[serve]\nkey_file = \"key\"")
        defer { feeds.remove() }
        try Data("\(Self.key)\n".utf8).write(to: feeds.directory.url.appendingPathComponent("key"))
        let server = try await RunningServer.start([
            "--config", feeds.config.path, "--cache", feeds.cache.path, "--listen", "127.0.0.1:0", "-v",
        ])
        let nginx = try await RunningNginx.start(upstreamPort: server.port)
        let paths = Self.prefixes.flatMap { prefix in
            [
                "current.json", "current.jpg", "current.jpg?profile=trmnl", "widget", "timeline.json", "",
                "api/display", "trmnl/redirect.json", "healthz",
            ].map { "\(prefix)/\($0)" }
        }
        let (problems, signed) = try await Self.readKeyed(paths, base: nginx.base)
        await nginx.stop()
        #expect((await server.stop()).status == 0)
        #expect(problems.isEmpty, "\(problems.prefix(10)) of \(problems.count)")

        // One signed URL per picture, whichever client or form of the key asked: a cache keeps one copy of each.
        let byPath = Dictionary(grouping: signed, by: { String($0.prefix { $0 != "?" }) })
        #expect(byPath.values.allSatisfy { $0.count == 1 }, "\(byPath.filter { $0.value.count > 1 })")
        #expect(
            byPath.keys.contains { $0.hasPrefix("/f/pets/renders/") }
                && byPath.keys.contains { $0.hasPrefix("/renders/") }
        )
        // nginx answered nothing but signed pictures from its cache, and asked kfeed for each of those once.
        let logged = nginx.accessLog()
        #expect(logged.count > 2_000, "only \(logged.count) requests")
        let fromCache = logged.filter { !$0.reachedServer }
        #expect(
            fromCache.allSatisfy { $0.uri.contains("sig=") },
            "\(fromCache.filter { !$0.uri.contains("sig=") }.prefix(5))"
        )
        let fetches = Dictionary(grouping: logged.filter { $0.reachedServer && $0.uri.contains("sig=") }, by: \.uri)
        #expect(
            fetches.count == signed.count && fetches.values.allSatisfy { $0.count == 1 },
            "\(fetches.mapValues(\.count))"
        )
        #expect(!server.stderr.contains(Self.key))
    }

    /// Clients at once, each a few rounds: every path with the key (its three forms in turn), then without it (the
    /// order in which a cache that kept keyed answers would hand them on: 401, never the keyed answer), then the signed
    /// picture URLs the keyed answers named, without any key. Returns what was wrong and the signed URLs seen.
    private static func readKeyed(_ paths: [String], base: String) async throws -> ([String], Set<String>) {
        let forms: [(String, [HTTPHeader], String)] = [
            ("Authorization", [HTTPHeader("Authorization", "Bearer \(key)")], ""),
            ("Access-Token", [HTTPHeader("Access-Token", key), HTTPHeader("ID", "AA:BB:CC:00:11:22")], ""),
            ("?key=", [], "key=\(key)"),
        ]
        let transport = try CurlTransport()
        return try await withThrowingTaskGroup(of: ([String], Set<String>).self) { group in
            for client in 0..<8 {
                group.addTask {
                    var problems: [String] = []
                    var signed: Set<String> = []
                    for round in 0..<4 {
                        for path in paths {
                            let (form, headers, query) = forms[(client + round) % forms.count]
                            let separator = path.contains("?") ? "&" : "?"
                            let url = "\(base)\(path)\(query.isEmpty ? "" : separator + query)"
                            let keyed = try await CachingProxyTests.get(transport, url, headers: headers)
                            problems += keyedProblems(keyed, path: path, form: form)
                            let text = String(decoding: keyed.body, as: UTF8.self)
                            for match in text.matches(
                                of:
                                    /(f\/[a-z]+\/)?(images|avatars|renders)\/[^"?\s]+\?v=[0-9a-f-]+&(amp;)?sig=[0-9a-f]+/
                            ) {
                                let link = String(match.output.0).replacingOccurrences(of: "&amp;", with: "&")
                                // Pages link relative to themselves: a feed's page under its prefix.
                                let page = path.hasPrefix("/f/") && !link.hasPrefix("f/") ? String(path.prefix(8)) : "/"
                                signed.insert(page + link)
                            }
                            let keyless = try await CachingProxyTests.get(transport, "\(base)\(path)")
                            if keyless.status != 401 {
                                problems.append("\(path) without the key after \(form): \(keyless.status)")
                            }
                        }
                        for path in signed {
                            let answer = try await CachingProxyTests.get(transport, "\(base)\(path)")
                            let cacheControl = answer[header: "cache-control"] ?? "-"
                            if answer.status != 200 || cacheControl != "public, max-age=31536000, immutable" {
                                problems.append("signed \(path): \(answer.status) \(cacheControl)")
                            }
                        }
                    }
                    return (problems, signed)
                }
            }
            var all: ([String], Set<String>) = ([], [])
            for try await (problems, signed) in group {
                all.0 += problems
                all.1.formUnion(signed)
            }
            return all
        }
    }

    /// What is wrong with an answer to a request with the key: anything but 200 `private` with `Vary` on the key's
    /// headers (or `no-store`).
    private static func keyedProblems(_ keyed: KFeedHTTP.HTTPResponse, path: String, form: String) -> [String] {
        let cacheControl = keyed[header: "cache-control"] ?? "-"
        var problems: [String] = []
        if keyed.status != 200 { problems.append("\(path) with \(form): \(keyed.status)") }
        if !(cacheControl.hasPrefix("private") && keyed[header: "vary"] == "Authorization, Access-Token")
            && cacheControl != "no-store"
        {
            problems.append("\(path) with \(form): \(cacheControl), Vary \(keyed[header: "vary"] ?? "-")")
        }
        return problems
    }
}

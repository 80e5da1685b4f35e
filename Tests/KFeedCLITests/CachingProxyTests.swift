import Foundation
import KFeed
import KFeedBase
import KFeedHTTP
import KFeedImages
import KFeedTestSupport
import Testing

/// `kfeed serve` behind a real caching proxy: the built binary on loopback, nginx in front of it with the
/// configuration `docs/serve.md` shows (`RunningNginx`), and concurrent libcurl clients. Both servers run on the real
/// clock; the cache's entries are dated with `--now` so that one ends during the test.
@Suite(
    .timeLimit(.minutes(3)),
    .enabled(
        if: RunningNginx.executable != nil,
        "needs nginx: apt-get install -y nginx-light (scripts/test.sh installs it through scripts/deps.sh)"
    )
)
struct CachingProxyTests {
    private static let key = "pr0xy-Key_0123456789"
    /// The clients reading at once.
    private static let clients = 8
    /// The widget page's script (`WidgetPage.reloadScript`): it reloads this long after the instant the page names,
    /// or, when that has passed, after at most `widgetRetry` seconds.
    private static let widgetMargin = 2.0
    private static let widgetRetry = 45.0

    /// When a widget page naming `until` and read at `time` reloads, at the latest.
    private static func widgetReload(until: Date, readAt time: Date) -> Date {
        let reload = until.addingTimeInterval(widgetMargin)
        return reload > time ? reload : time.addingTimeInterval(widgetRetry)
    }

    // MARK: - Helpers

    /// A sample cache of 1-minute entries (with the trmnl render), the first of which began `elapsed` seconds ago.
    private static func cache(
        firstEntryBegan elapsed: Int,
        interval: String = "1m"
    ) async throws -> (cache: TemporaryDirectory, manifest: Manifest) {
        let directory = try TemporaryDirectory()
        let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down) - Double(elapsed))
        let result = try await KFeedProcess.run([
            "refresh", "--replay", Fixture.replay("sample").path, "--cache", directory.url.path, "--now",
            InstantFormat.string(from: start), "--entries", "6", "--interval", interval, "--profile", "trmnl",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let manifest = try #require(try CacheStore(directory: directory.url).manifest())
        return (directory, manifest)
    }

    /// A cache of 1-minute entries whose first began 10 s before the set-up ends, served by the binary with nginx in
    /// front. Both run on the real clock (nginx keeps answers by it), so the entries are dated from the time the
    /// set-up is measured to take: when an attempt leaves less than 30 s of the first entry, it is made again dated
    /// that much later (at most three attempts), and the first entry's start is waited for.
    private static func setUpOneMinuteEntries() async throws -> (
        TemporaryDirectory, Manifest, RunningServer, RunningNginx
    ) {
        var lead = 0
        for attempt in 1...3 {
            let began = Date()
            let (cache, manifest) = try await Self.cache(firstEntryBegan: 10 - lead)
            let server = try await RunningServer.start(["--cache", cache.url.path, "--listen", "127.0.0.1:0", "-v"])
            let nginx = try await RunningNginx.start(upstreamPort: server.port)
            let first = try #require(manifest.entries.first).date
            if manifest.entries[1].date.timeIntervalSinceNow >= 30 || attempt == 3 {
                let early = first.timeIntervalSinceNow
                if early > 0 { try await Task.sleep(for: .seconds(early)) }
                return (cache, manifest, server, nginx)
            }
            await nginx.stop()
            _ = await server.stop()
            cache.remove()
            lead = Int(Date().timeIntervalSince(began).rounded(.up))
        }
        throw RunningServer.ServerFailure(description: "unreachable")
    }

    static func get(
        _ transport: CurlTransport,
        _ url: String,
        headers: [HTTPHeader] = []
    ) async throws -> KFeedHTTP.HTTPResponse {
        try await transport.send(HTTPRequest(url: try #require(URL(string: url)), headers: headers))
    }

    /// The number in `Cache-Control`'s `name=N`, if any.
    static func directive(_ name: String, in response: KFeedHTTP.HTTPResponse) -> Int? {
        let directives = (response[header: "cache-control"] ?? "").split(separator: ",")
        return directives.lazy.compactMap { directive in
            let parts = directive.trimmingCharacters(in: .whitespaces).split(separator: "=")
            return parts.count == 2 && parts[0] == name ? Int(parts[1]) : nil
        }.first
    }

    /// `Expires` minus `Date`: the seconds a client's cache may keep the answer (nil without `Expires`).
    static func secondsToExpiry(_ response: KFeedHTTP.HTTPResponse) -> Double? {
        guard let expires = response[header: "expires"].flatMap(InstantFormat.date(fromHTTPDate:)),
            let date = response[header: "date"].flatMap(InstantFormat.date(fromHTTPDate:))
        else { return nil }
        return expires.timeIntervalSince(date)
    }

    /// Requests `kfeed serve -v` logged (one line each).
    static func loggedRequests(_ server: RunningServer) -> Int {
        server.stderr.matches(of: /(GET|HEAD) \/\S* \d{3} \d+ B/).count
    }

    // MARK: - Fresh, and asked once

    /// What one answer through the proxy showed and told its client.
    private struct Reading: Sendable {
        var received: Date
        var path: String
        /// The entry it shows (by its bytes, `date`, or the post's time the widget shows), if it shows one.
        var entry: Int?
        /// When it tells the client to come back: `refresh_rate`, the widget's reload (by its script, from the instant
        /// the page names), or `Expires` (as `Date` + the seconds between them).
        var comeBack: Date?
        /// The widget's `data-until`: the instant its script reloads at.
        var until: Date?
        /// The latest a client's own cache could still reuse it (`Expires` + `stale-while-revalidate`) and so the
        /// latest its relative value could be read.
        var reusableUntil: Date?
        var problems: [String]
    }

    @Test(.timeLimit(.minutes(3)))
    func throughNginxEachPathReachesKfeedOncePerEntryAndNoCopyHoldsAScreenPastItsHour() async throws {
        // 1-minute entries, the first begun 10 s ago: it ends 50 s into the test, so answers stored at its start
        // would, with relative lifetimes, tell clients to come back ~50 s late.
        let (cache, manifest, server, nginx) = try await Self.setUpOneMinuteEntries()
        defer { cache.remove() }
        let end = manifest.entries[1].date
        let interval = manifest.interval.seconds
        let base = nginx.base

        // What each entry shows: its image and render bytes, by entry index.
        var shows: [Data: Int] = [:]
        for (index, entry) in manifest.entries.enumerated() {
            for path in [entry.image, entry.renders?["trmnl"]].compactMap({ $0 }) {
                shows[try Data(contentsOf: cache.url.appendingPathComponent(path))] = index
            }
        }
        let pictures = shows
        let dates = Dictionary(uniqueKeysWithValues: manifest.entries.enumerated().map { ($1.date, $0) })
        // The widget shows each entry's post's time.
        let posted = Dictionary(
            manifest.entries.enumerated().compactMap { index, entry in entry.postedAt.map { ($0, index) } },
            uniquingKeysWith: { first, _ in first }
        )
        let endOf: @Sendable (Int) -> Date = { manifest.entries[$0].date.addingTimeInterval(interval) }

        let deadline = end.addingTimeInterval(8)
        #expect(Date() < end.addingTimeInterval(-30), "setting up took until \(Date()), the entry ends at \(end)")
        let transport = try CurlTransport()
        let readings = try await withThrowingTaskGroup(of: [Reading].self) { group in
            for _ in 0..<Self.clients {
                group.addTask {
                    var readings: [Reading] = []
                    var rounds = 0
                    while Date() < deadline && rounds < 2_000 {
                        rounds += 1
                        // A client's round: current.json and the picture it names (as a widget reads them), the
                        // fixed paths, and the picture asked for without its version.
                        let current = try await Self.get(transport, "\(base)/current.json")
                        readings.append(Self.reading(current, path: "/current.json", dates: dates))
                        var paths = ["/current.jpg", "/current.jpg?profile=trmnl", "/widget", "/timeline.json", "/"]
                        if let json = try? JSONSerialization.jsonObject(with: current.body) as? [String: Any],
                            let imageURL = json["image_url"] as? String, imageURL.hasPrefix("\(base)/")
                        {
                            let path = String(imageURL.dropFirst(base.count))
                            paths += [path, String(path.prefix { $0 != "?" })]
                        }
                        for path in paths {
                            let answer = try await Self.get(transport, "\(base)\(path)")
                            readings.append(
                                Self.reading(answer, path: path, dates: dates, posted: posted, pictures: pictures)
                            )
                        }
                        // A pause between rounds, cut short so that every client asks again right at the hour.
                        let untilEnd = end.timeIntervalSinceNow
                        let pause = untilEnd > 0 ? min(0.1, untilEnd) : 0.1
                        try await Task.sleep(for: .seconds(pause))
                    }
                    return readings
                }
            }
            var all: [Reading] = []
            for try await readings in group { all += readings }
            return all
        }
        await nginx.stop()
        #expect((await server.stop()).status == 0)

        // Every answer was 200 and its headers follow the rules (no relative max-age but a picture's year, …).
        let problems = readings.flatMap(\.problems)
        #expect(problems.isEmpty, "\(problems.prefix(10)) of \(problems.count) in \(readings.count) answers")
        #expect(readings.count > 200, "only \(readings.count) answers")

        // No answer tells a client to come back more than 60 s after the end of the entry it shows, also when a
        // client's own cache reuses its copy as long as it may. The countdown (refresh_rate) at most the 30 s it is
        // kept (plus nginx's whole seconds and the time one update takes; 40 s from a reused stale copy); the widget
        // 2 s after the end, as it names the end itself, or its retry when read past it.
        var worst: [String: Double] = [:]
        var worstReused: [String: Double] = [:]
        for reading in readings {
            guard let entry = reading.entry, let comeBack = reading.comeBack else { continue }
            let overshoot = comeBack.timeIntervalSince(endOf(entry))
            worst[reading.path] = max(worst[reading.path] ?? -.infinity, overshoot)
            guard let reusable = reading.reusableUntil else { continue }
            var reused = overshoot + reusable.timeIntervalSince(reading.received)
            if let until = reading.until {
                reused = Self.widgetReload(until: until, readAt: reusable).timeIntervalSince(endOf(entry))
            }
            worstReused[reading.path] = max(worstReused[reading.path] ?? -.infinity, reused)
        }
        // The issue's bound is 60 s; /current.json's copies (30 s, 10 s stale) stay well inside it unless the machine
        // is loaded enough to delay the clients themselves.
        let limits = ["/current.json": (35.0, 60.0), "/widget": (60.0, 60.0)]
        for (path, overshoot) in worst {
            let (limit, reusedLimit) = limits[path] ?? (35, 35)
            #expect(overshoot <= limit, "\(path) told its client to come back \(overshoot) s after its entry's end")
            let reused = worstReused[path] ?? -.infinity
            #expect(reused <= reusedLimit, "a reused copy of \(path) says to come back \(reused) s after the end")
        }
        // Every widget names the end of the entry it shows, whenever its copy was stored: read before that end, it
        // reloads 2 s after it.
        let widgets = readings.filter { $0.path == "/widget" && $0.entry != nil }
        let misnamed = widgets.filter { $0.until != $0.entry.map(endOf) }
        #expect(misnamed.isEmpty, "\(misnamed.prefix(3))")
        #expect(widgets.filter { $0.received < $0.until ?? .distantPast }.count > 20)

        // The new picture shows through the proxy as the hour turns, and the old one is gone within seconds.
        let shown = readings.filter { $0.path == "/current.jpg" && $0.entry != nil }
        let firstNew = shown.filter { $0.entry == 1 }.map(\.received).min()
        let lastOld = readings.filter { $0.entry == 0 }.map(\.received).max()
        let toNew = try #require(firstNew).timeIntervalSince(end)
        #expect(toNew >= 0 && toNew <= 3, "the new picture first showed \(toNew) s after the hour")
        let oldAfter = try #require(lastOld).timeIntervalSince(end)
        #expect(oldAfter <= 12, "the old entry still showed \(oldAfter) s after the hour")

        // At most one request per path per entry reached kfeed (at the hour too, under load), /widget included; the
        // countdown (/current.json) at most once per 30 s; the TRMNL answers are never cached.
        let logged = nginx.accessLog()
        #expect(logged.count == readings.count, "nginx logged \(logged.count) of \(readings.count) requests")
        let upstream = logged.filter(\.reachedServer)
        #expect(upstream.count == Self.loggedRequests(server), "kfeed's own log disagrees with nginx's")
        let testStart = logged.map(\.time).min() ?? 0
        var perPath: [String: [Int]] = [:]
        for request in upstream {
            let entry = request.time < end.timeIntervalSince1970 ? 0 : 1
            perPath[request.uri, default: [0, 0]][entry] += 1
        }
        let spans = [end.timeIntervalSince1970 - testStart, deadline.timeIntervalSince(end)]
        for (path, counts) in perPath {
            for (entry, count) in counts.enumerated() {
                // (For /current.json at most ceil(interval / 30) + 1 = 3 in a whole entry; here, in the part of it seen.)
                let allowed = path == "/current.json" ? Int(spans[entry] / 30) + 1 : 1
                #expect(count <= allowed, "\(path) reached kfeed \(count) times in entry \(entry) (\(allowed) allowed)")
            }
        }
        #expect(perPath["/current.jpg"] == [1, 1] && perPath["/widget"] == [1, 1], "\(perPath)")
    }

    // MARK: - A keyed feed

    @Test func throughNginxAKeyedAnswerNeverReachesAClientWithoutTheKeyAndSignedPicturesAreFetchedOnce() async throws {
        let (cache, manifest) = try await Self.cache(firstEntryBegan: 600, interval: "1h")
        defer { cache.remove() }
        let keyFile = cache.url.appendingPathComponent("key")
        try Data("\(Self.key)\n".utf8).write(to: keyFile)
        let server = try await RunningServer.start([
            "--cache", cache.url.path, "--listen", "127.0.0.1:0", "--key-file", keyFile.path, "-v",
        ])
        let nginx = try await RunningNginx.start(upstreamPort: server.port)
        let base = nginx.base
        let image = try #require(manifest.entries[0].image)
        let current = try await Self.get(
            try CurlTransport(),
            "\(base)/current.json",
            headers: [HTTPHeader("Authorization", "Bearer \(Self.key)")]
        ).body
        let version = try #require(
            String(decoding: current, as: UTF8.self).firstMatch(of: /\?v=([0-9a-f-]+)/)?.output.1
        )
        // Every path that needs the key, the picture's URLs with its version but not signed among them.
        let paths = [
            "/current.json", "/current.jpg", "/current.jpg?profile=trmnl", "/widget", "/timeline.json", "/",
            "/api/display", "/trmnl/redirect.json", "/healthz", "/\(image)", "/\(image)?v=\(version)",
        ]
        let forms: [(String, [HTTPHeader], String)] = [
            ("Authorization", [HTTPHeader("Authorization", "Bearer \(Self.key)")], ""),
            ("Access-Token", [HTTPHeader("Access-Token", Self.key), HTTPHeader("ID", "AA:BB:CC:00:11:22")], ""),
            ("?key=", [], "key=\(Self.key)"),
        ]

        // Clients at once, each a few rounds: every path with the key in each form, then without it (the order in
        // which a cache that kept keyed answers would hand them on), then the signed picture URLs the keyed answers
        // named, without any key.
        let transport = try CurlTransport()
        let problems = try await withThrowingTaskGroup(of: [String].self) { group in
            for client in 0..<Self.clients {
                group.addTask {
                    var problems: [String] = []
                    var signed: Set<String> = []
                    for round in 0..<4 {
                        for path in paths {
                            let (form, headers, query) = forms[(client + round) % forms.count]
                            let separator = path.contains("?") ? "&" : "?"
                            let keyed = try await Self.get(
                                transport,
                                "\(base)\(path)\(query.isEmpty ? "" : separator + query)",
                                headers: headers
                            )
                            let cacheControl = keyed[header: "cache-control"] ?? "-"
                            if keyed.status != 200 { problems.append("\(path) with \(form): \(keyed.status)") }
                            if !(cacheControl.hasPrefix("private")
                                && keyed[header: "vary"] == "Authorization, Access-Token")
                                && cacheControl != "no-store"
                            {
                                problems.append(
                                    "\(path) with \(form): \(cacheControl), Vary \(keyed[header: "vary"] ?? "-")"
                                )
                            }
                            let text = String(decoding: keyed.body, as: UTF8.self)
                            for match in text.matches(
                                of: /(images|avatars|renders)\/[^"?\s]+\?v=[0-9a-f-]+&(amp;)?sig=[0-9a-f]+/
                            ) {
                                signed.insert("/" + String(match.output.0).replacingOccurrences(of: "&amp;", with: "&"))
                            }
                            let keyless = try await Self.get(
                                transport,
                                "\(base)\(path)",
                                headers: [HTTPHeader("ID", "AA:BB:CC:00:11:22")]
                            )
                            if keyless.status != 401 {
                                problems.append("\(path) without the key after \(form): \(keyless.status)")
                            }
                        }
                        for path in signed {
                            let answer = try await Self.get(transport, "\(base)\(path)")
                            let cacheControl = answer[header: "cache-control"] ?? "-"
                            if answer.status != 200 || cacheControl != "public, max-age=31536000, immutable" {
                                problems.append("signed \(path): \(answer.status) \(cacheControl)")
                            }
                        }
                        if signed.count < 3 { problems.append("only \(signed.count) signed URLs handed out") }
                    }
                    return problems
                }
            }
            var all: [String] = []
            for try await problems in group { all += problems }
            return all
        }
        await nginx.stop()
        #expect((await server.stop()).status == 0)
        #expect(problems.isEmpty, "\(problems.prefix(10)) of \(problems.count)")

        // nginx answered nothing but signed pictures from its cache, and asked kfeed for each of those once.
        let logged = nginx.accessLog()
        let fromCache = logged.filter { !$0.reachedServer }
        #expect(
            fromCache.allSatisfy { $0.uri.contains("sig=") },
            "\(fromCache.filter { !$0.uri.contains("sig=") }.prefix(5).map(\.uri))"
        )
        let signedFetches = Dictionary(
            grouping: logged.filter { $0.reachedServer && $0.uri.contains("sig=") },
            by: \.uri
        )
        #expect(signedFetches.count >= 3)
        #expect(signedFetches.values.allSatisfy { $0.count == 1 }, "\(signedFetches.mapValues(\.count))")
        #expect(!server.stderr.contains(Self.key))
    }

    /// Reads what an answer shows and tells its client, and what is wrong with it.
    private static func reading(
        _ answer: KFeedHTTP.HTTPResponse,
        path: String,
        dates: [Date: Int],
        posted: [Date: Int] = [:],
        pictures: [Data: Int] = [:]
    ) -> Reading {
        let received = Date()
        var reading = Reading(received: received, path: path, problems: [])
        guard answer.status == 200 else {
            reading.problems.append("\(path): \(answer.status)")
            return reading
        }
        // How long a client's cache may keep it: max-age (which kfeed only gives a versioned picture), else Expires.
        let cacheControl = answer[header: "cache-control"] ?? ""
        let lifetime = directive("max-age", in: answer).map(Double.init) ?? secondsToExpiry(answer)
        let stale = Double(directive("stale-while-revalidate", in: answer) ?? 0)
        if path.contains("?v=") {
            if cacheControl != "public, max-age=31536000, immutable" {
                reading.problems.append("\(path): \(cacheControl)")
            }
        } else if cacheControl.contains("max-age") || cacheControl.contains("private") || answer[header: "vary"] != nil
            || secondsToExpiry(answer) == nil || stale == 0
        {
            reading.problems.append("\(path): Cache-Control \(cacheControl), Vary \(answer[header: "vary"] ?? "-")")
        }
        let text = String(decoding: answer.body, as: UTF8.self)
        switch path {
        case "/current.json":
            let json = (try? JSONSerialization.jsonObject(with: answer.body)) as? [String: Any]
            reading.entry = (json?["date"] as? String).flatMap(InstantFormat.date(from:)).flatMap { dates[$0] }
            if let rate = json?["refresh_rate"] as? Int { reading.comeBack = received.addingTimeInterval(Double(rate)) }
        case "/widget":
            reading.entry = text.firstMatch(of: /<time class="posted" datetime="([^"]+)"/)
                .flatMap { InstantFormat.date(from: String($0.output.1)) }.flatMap { posted[$0] }
            reading.until = text.firstMatch(of: /data-until="([^"]+)"/).flatMap {
                InstantFormat.date(from: String($0.output.1))
            }
            if let until = reading.until {
                reading.comeBack = widgetReload(until: until, readAt: received)
                // Kept by a client's cache at most until the end it names (and then briefly stale). (The instants
                // themselves: how late this test reads an answer on a loaded machine is no property of the copy.)
                let expires = answer[header: "expires"].flatMap(InstantFormat.date(fromHTTPDate:))
                reading.reusableUntil = expires.map { $0.addingTimeInterval(stale) }
                if let expires, expires > until {
                    reading.problems.append("/widget may be kept until \(expires), past the end it names (\(until))")
                }
            } else {
                reading.problems.append("/widget names no end")
            }
        case "/current.jpg", "/current.jpg?profile=trmnl":
            reading.entry = pictures[answer.body]
            reading.comeBack = lifetime.map { received.addingTimeInterval($0) }
        default:
            return reading
        }
        if path == "/current.json" {
            // What counts seconds is kept briefly; a client's cache could read it until then.
            reading.reusableUntil = lifetime.map { received.addingTimeInterval($0 + stale) }
            if (lifetime ?? .infinity) > 31 || stale > 10 {
                reading.problems.append("\(path) may be kept \(lifetime ?? -1) s and then \(stale) s stale")
            }
        }
        if reading.entry == nil { reading.problems.append("\(path) shows no entry of the timeline") }
        return reading
    }
}

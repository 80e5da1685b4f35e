import Foundation
import HTTPTypes
import Hummingbird
import KFeed
import KFeedBase
import KFeedHTTP
import KFeedImages
import KFeedTestSupport
import Testing

@testable import KFeedServe

/// `kfeed serve`'s answers, in process (``InProcessServer``: HummingbirdTesting's router framework) on a cache made
/// from the bundled sample by the built binary, at instants the tests set and move by hand. What needs a socket,
/// a process or a browser stays in `KFeedCLITests` (`ServeCommandTests`, `ServeFeedsTests`, `CachingProxy*Tests`).
@Suite(.timeLimit(.minutes(3)))
struct KFeedServerTests {
    private static let key = "s3cret-Key_0123456789"

    private static func json(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// `Expires` as an instant.
    private static func expires(_ answer: Answer) -> Date? {
        answer[header: "expires"].flatMap(InstantFormat.date(fromHTTPDate:))
    }

    // MARK: - Routes

    @Test(arguments: [false, true])
    func theRoutesPassTheRoutersValidation(feedsFile: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let clock = ManualNow("2026-11-22T10:30:00Z")
        let configuration =
            feedsFile
            ? InProcessServer.configuration(feeds: [("news", directory.url), ("pets", directory.url)], now: clock)
            : InProcessServer.configuration(cache: directory.url, now: clock)
        try ServeResponder(settings: configuration).router().validate()
    }

    // MARK: - Time

    @Test func aTimelineThatRanOutAnswersItsLastEntryStaleAndNoTimelineIs503() async throws {
        let cache = try await KFeedProcess.sampleCache()
        defer { cache.remove() }
        let manifest = try #require(try CacheStore(directory: cache.url).manifest())
        let last = try #require(manifest.entries.last)  // 14:00Z; the timeline ran out at 15:00Z
        let clock = ManualNow("2026-11-23T09:00:00Z")
        let now = try #require(InstantFormat.date(from: "2026-11-23T09:00:00Z"))
        try await InProcessServer.test(InProcessServer.configuration(cache: cache.url, now: clock)) { late in
            let current = try await late.get("\(InProcessServer.base)/current.json")
            #expect(current.status == 200)
            let json = try Self.json(current.body)
            #expect(json["stale"] as? Bool == true)
            #expect(json["date"] as? String == "2026-11-22T14:00:00Z" && json["tweet_id"] as? String == last.tweetID)
            #expect((1...900).contains(json["refresh_rate"] as? Int ?? 0))
            let until = try #require((json["until"] as? String).flatMap(InstantFormat.date(from:)))
            #expect(until > now && until <= now.addingTimeInterval(905))
            // The picture, fresh for at most 15 minutes so that clients come back soon.
            let picture = try await late.get("/current.jpg")
            #expect(picture.status == 200)
            #expect(picture.body == (try Data(contentsOf: cache.url.appendingPathComponent(try #require(last.image)))))
            let expires = try #require(Self.expires(picture))
            #expect(expires <= now.addingTimeInterval(905) && expires > now)
            let display = try Self.json((try await late.get("/api/display")).body)
            #expect(display["status"] as? Int == 0 && (1...900).contains(display["refresh_rate"] as? Int ?? 0))
            // The widget reloads within 15 minutes too, and a cache keeps it briefly: a new timeline may come first.
            // (The server's clock moves only when the test moves it: a minute on.)
            clock.advance(by: 60)
            let serverNow = clock.date
            let staleWidget = try await late.get("/widget")
            let widget = String(decoding: staleWidget.body, as: UTF8.self)
            #expect(widget.contains(">@\(last.author.username)</span>"))
            let reload = try #require(
                widget.firstMatch(of: /data-until="([^"]+)"/).flatMap { InstantFormat.date(from: String($0.output.1)) }
            )
            #expect(reload > now && reload <= serverNow.addingTimeInterval(900))
            let widgetExpires = try #require(Self.expires(staleWidget))
            #expect(widgetExpires > now && widgetExpires <= serverNow.addingTimeInterval(30))
            // /healthz says why.
            let staleHealth = try await late.get("/healthz")
            #expect(staleHealth.status == 503)
            let staleJSON = try Self.json(staleHealth.body)
            #expect(staleJSON["status"] as? String == "stale")
            #expect((staleJSON["reason"] as? String)?.contains("ran out at 2026-11-22T15:00:00Z") == true)
        }

        let empty = try TemporaryDirectory()
        defer { empty.remove() }
        let at = ManualNow("2026-11-22T10:30:00Z")
        try await InProcessServer.test(InProcessServer.configuration(cache: empty.url, now: at)) { server in
            let health = try await server.get("/healthz")
            #expect(health.status == 503)
            #expect(try Self.json(health.body)["status"] as? String == "no timeline")
            #expect((try await server.get("/current.json")).status == 404)
            #expect((try await server.get("/timeline.json")).status == 404)
            // The widget says there is no picture and names no end: its script tries again within a minute.
            let emptyWidget = String(decoding: (try await server.get("/widget")).body, as: UTF8.self)
            #expect(emptyWidget.contains("class=\"empty\"") && emptyWidget.contains("<script>"))
            #expect(!emptyWidget.contains("data-until="))
        }
    }

    // MARK: - HTTP

    @Test func headConditionalRequestsAndMethodsFollowHTTP() async throws {
        let cache = try await KFeedProcess.sampleCache()
        defer { cache.remove() }
        let clock = ManualNow("2026-11-22T10:30:00Z")
        try await InProcessServer.test(InProcessServer.configuration(cache: cache.url, now: clock)) { server in
            let get = try await server.get("/current.jpg")
            let head = try await server.get("/current.jpg", method: .head)
            #expect(get.status == 200 && head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.headers["content-length"] == String(get.body.count))
            for name in ["etag", "last-modified", "content-type"] { #expect(head.headers[name] == get.headers[name]) }
            let etag = try #require(get.headers["etag"])
            let notModified = try await server.get("/current.jpg", headers: [HTTPHeader("If-None-Match", etag)])
            #expect(notModified.status == 304 && notModified.body.isEmpty)
            #expect(notModified.headers["etag"] == etag)
            let listed = try await server.get("/current.jpg", headers: [HTTPHeader("If-None-Match", "\"x\", \(etag)")])
            #expect(listed.status == 304)
            let changed = try await server.get("/current.jpg", headers: [HTTPHeader("If-None-Match", "\"other\"")])
            #expect(changed.status == 200 && changed.body == get.body)
            // current.json counts refresh_rate in seconds, so its body (and strong tag) changes every second: within
            // one second, a 304; a second later, a 200 with a new tag.
            let json = try await server.get("/current.json")
            let jsonETag = try #require(json.headers["etag"])
            #expect(
                (try await server.get("/current.json", headers: [HTTPHeader("If-None-Match", jsonETag)])).status == 304
            )
            clock.advance(by: 1)
            let later = try await server.get("/current.json", headers: [HTTPHeader("If-None-Match", jsonETag)])
            #expect(later.status == 200 && later.headers["etag"] != jsonETag)
            let headJSON = try await server.get("/current.json", method: .head)
            #expect(
                headJSON.status == 200 && headJSON.body.isEmpty
                    && headJSON.headers["content-length"] == String(later.body.count)
            )

            for method in [HTTPTypes.HTTPRequest.Method.post, .put, .delete, .patch] {
                let answer = try await server.get("/current.json", method: method)
                #expect(answer.status == 405, "\(method)")
                #expect(answer.headers["allow"] == "GET, HEAD", "\(method)")
            }
            // OPTIONS there is a browser's CORS preflight; on a page, a method like the others.
            let preflight = try await server.get("/current.json", method: .options)
            #expect(preflight.status == 204 && preflight.headers["access-control-allow-origin"] == "*")
            let optionsWidget = try await server.get("/widget", method: .options)
            #expect(optionsWidget.status == 405 && optionsWidget.headers["allow"] == "GET, HEAD")
            let getLog = try await server.get("/api/log")
            #expect(getLog.status == 405 && getLog.headers["allow"] == "POST")
            let log = try await server.get(
                "/api/log",
                headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("ID", "AA:BB:CC:00:11:22")],
                method: .post,
                body: Array(#"{"log":{"logs_array":[{"message":"hello"}]}}"#.utf8)
            )
            #expect(log.status == 204)
            let large = try await server.get("/api/log", method: .post, body: [UInt8](repeating: 0x41, count: 70_000))
            #expect(large.status == 413)
            let exact = try await server.get("/api/log", method: .post, body: [UInt8](repeating: 0x41, count: 65_536))
            #expect(exact.status == 204)

            // Paths the router would match once empty components are dropped name nothing here.
            for path in [
                "/widget/", "//current.json", "/images//x.jpg", "/nothing-here", "/favicon.ico", "/f/x/widget",
            ] {
                let answer = try await server.get(path)
                #expect(answer.status == 404 && answer[header: "content-type"] == "application/json", "\(path)")
            }
        }
    }

    // MARK: - Caching

    @Test func everyAnswerSaysHowLongACacheMayKeepItAsAnInstantNeverPastItsHour() async throws {
        let cache = try await KFeedProcess.sampleCache(profiles: ["trmnl"])
        defer { cache.remove() }
        let clock = ManualNow("2026-11-22T10:30:00Z")  // the 10:00Z entry, until 11:00Z
        try await InProcessServer.test(InProcessServer.configuration(cache: cache.url, now: clock)) { server in
            let base = InProcessServer.base
            let hour = try #require(InstantFormat.date(from: "2026-11-22T11:00:00Z"))
            let half = try #require(InstantFormat.date(from: "2026-11-22T10:30:00Z"))

            // Answers that change at the hour are fresh until it, as an instant (no max-age a cache could stretch).
            for path in ["/current.jpg", "/current.jpg?profile=trmnl", "/", "/widget"] {
                let answer = try await server.get("\(base)\(path)")
                #expect(answer.status == 200, "\(path)")
                #expect(answer[header: "cache-control"] == "public, stale-while-revalidate=10", "\(path)")
                #expect(Self.expires(answer) == hour, "\(path)")
                #expect(answer[header: "etag"] != nil && answer[header: "vary"] == nil, "\(path)")
            }
            // The answer that counts seconds to the hour (refresh_rate) is kept 30 s at most.
            let json = try await server.get("\(base)/current.json")
            #expect(json[header: "cache-control"] == "public, stale-while-revalidate=10")
            let jsonExpires = try #require(Self.expires(json))
            #expect(jsonExpires >= half.addingTimeInterval(30) && jsonExpires <= half.addingTimeInterval(90))
            // What does not change at the hour lasts one interval; a picture under its version a year.
            let timeline = try await server.get("\(base)/timeline.json")
            #expect(timeline[header: "cache-control"] == "public, stale-while-revalidate=3600")
            let lasting = try #require(Self.expires(timeline))
            #expect(lasting >= half.addingTimeInterval(3_600) && lasting <= half.addingTimeInterval(3_660))
            let current = try Self.json((try await server.get("\(base)/current.json")).body)
            let imageURL = try #require(current["image_url"] as? String)
            let versioned = try await server.get(imageURL)
            #expect(versioned[header: "cache-control"] == "public, max-age=31536000, immutable")
            #expect(Self.expires(versioned) == nil)
            let path = String(imageURL.prefix { $0 != "?" })
            for other in [path, "\(path)?v=0-0", "\(path)?v="] {
                let answer = try await server.get(other)
                #expect(answer.status == 200 && answer.body == versioned.body, "\(other)")
                #expect(answer[header: "cache-control"] == "public, stale-while-revalidate=3600", "\(other)")
            }
            let display = try Self.json((try await server.get("\(base)/api/display")).body)
            let render = try #require(display["image_url"] as? String)
            #expect(render.contains("?v="))
            #expect((try await server.get(render))[header: "cache-control"] == "public, max-age=31536000, immutable")

            // Never stored: TRMNL's answers, the key's hand-over, health, errors.
            for path in [
                "/api/display", "/trmnl/redirect.json", "/api/setup", "/healthz", "/nothing", "/current.jpg?profile=x",
            ] {
                let answer = try await server.get("\(base)\(path)")
                #expect(answer[header: "cache-control"] == "no-store", "\(path)")
                #expect(answer[header: "expires"] == nil, "\(path)")
            }

            // A 304 repeats the caching headers, so that a cache renews its copy.
            let picture = try await server.get("/current.jpg")
            let notModified = try await server.get(
                "/current.jpg",
                headers: [HTTPHeader("If-None-Match", try #require(picture.headers["etag"]))]
            )
            #expect(notModified.status == 304)
            for name in ["cache-control", "expires", "etag"] {
                #expect(notModified.headers[name] == picture.headers[name])
            }
        }
    }

    @Test func answersToTheKeyArePrivateWhileSignedPicturesMayBeShared() async throws {
        let cache = try await KFeedProcess.sampleCache()
        defer { cache.remove() }
        let manifest = try #require(try CacheStore(directory: cache.url).manifest())
        let image = try #require(manifest.entries[1].image)
        let clock = ManualNow("2026-11-22T10:30:00Z")
        let configuration = InProcessServer.configuration(cache: cache.url, now: clock, key: Self.key)
        try await InProcessServer.test(configuration) { server in
            let base = InProcessServer.base
            let forms: [([HTTPHeader], String)] = [
                ([HTTPHeader("Authorization", "Bearer \(Self.key)")], ""), ([HTTPHeader("Access-Token", Self.key)], ""),
                ([], "key=\(Self.key)"),
            ]
            var signed = ""
            for (headers, query) in forms {
                for path in ["/current.json", "/current.jpg", "/widget", "/timeline.json", "/", "/\(image)"] {
                    let url = "\(base)\(path)" + (query.isEmpty ? "" : "?\(query)")
                    let answer = try await server.get(url, headers: headers)
                    #expect(answer.status == 200, "\(path) \(headers) \(query)")
                    #expect(
                        answer[header: "cache-control"]?.hasPrefix("private, ") == true,
                        "\(path) \(headers) \(query)"
                    )
                    #expect(answer[header: "vary"] == "Authorization, Access-Token", "\(path)")
                    if path == "/current.json" {
                        signed = try #require(try Self.json(answer.body)["image_url"] as? String)
                    }
                }
                let version = String(signed.prefix { $0 != "&" })
                let versioned = try await server.get(version + (query.isEmpty ? "" : "&\(query)"), headers: headers)
                #expect(versioned[header: "cache-control"] == "private, max-age=31536000, immutable")
                let display = try await server.get(
                    "\(base)/api/display" + (query.isEmpty ? "" : "?\(query)"),
                    headers: headers
                )
                #expect(display.status == 200 && display[header: "cache-control"] == "no-store")
            }
            // The signed URL: the same for every client and no key in it, so shared caches may keep it (even when
            // the client also sends the key).
            for headers in [[], forms[0].0] {
                let answer = try await server.get(signed, headers: headers)
                #expect(answer.status == 200)
                #expect(answer[header: "cache-control"] == "public, max-age=31536000, immutable")
                #expect(answer[header: "vary"] == nil)
            }
            let unversioned = "\(base)/\(image)?sig=\(try #require(signed.firstMatch(of: /sig=([0-9a-f]+)/)?.output.1))"
            #expect(
                (try await server.get(unversioned))[header: "cache-control"] == "public, stale-while-revalidate=3600"
            )
            let refused = try await server.get("\(base)/current.json")
            #expect(refused.status == 401 && refused[header: "cache-control"] == "no-store")
        }
    }

    // MARK: - TRMNL

    @Test func trmnlDisplayNamesTheRenderAndItsFilenameChangesExactlyWithTheEntry() async throws {
        let cache = try await KFeedProcess.sampleCache(profiles: ["trmnl"])
        defer { cache.remove() }
        let manifest = try #require(try CacheStore(directory: cache.url).manifest())
        var renders: [String: Data] = [:]
        for entry in manifest.entries {
            let path = try #require(entry.renders?["trmnl"])
            renders[path] = try Data(contentsOf: cache.url.appendingPathComponent(path))
            let png = try DecodedPNG(try #require(renders[path]))
            #expect(png.width == 800 && png.height == 480 && png.bitDepth == 1)
        }
        let rendered = renders
        // Ten seconds before the entry changes; the clock moves only when the test moves it.
        let clock = ManualNow("2026-11-22T10:59:50Z")
        try await InProcessServer.test(InProcessServer.configuration(cache: cache.url, now: clock)) { server in
            let base = InProcessServer.base
            let headers = [
                HTTPHeader("ID", "AA:BB:CC:00:11:22"), HTTPHeader("Access-Token", "anything"),
                HTTPHeader("Refresh-Rate", "900"), HTTPHeader("Battery-Voltage", "4.1"),
                HTTPHeader("FW-Version", "1.5.2"),  // before 2-bit PNGs: the refresh's 1-bit `trmnl` render
            ]
            let before = try Self.json((try await server.get("\(base)/api/display", headers: headers)).body)
            let again = try Self.json((try await server.get("\(base)/api/display", headers: headers)).body)
            let redirect = try Self.json((try await server.get("\(base)/trmnl/redirect.json")).body)
            let render = try #require(manifest.entries[1].renders?["trmnl"])
            #expect(before["status"] as? Int == 0)
            #expect((before["image_url"] as? String)?.hasPrefix("\(base)/\(render)?v=") == true)
            #expect(before["update_firmware"] as? Bool == false && before["reset_firmware"] as? Bool == false)
            #expect(before["firmware_url"] is NSNull)
            let rate = try #require(before["refresh_rate"] as? Int)
            #expect((1...10).contains(rate))
            let filename = try #require(before["filename"] as? String)
            #expect(again["filename"] as? String == filename)
            #expect(
                redirect["filename"] as? String == filename
                    && redirect["url"] as? String == before["image_url"] as? String
            )
            let png = try await server.get("\(base)/\(render)")
            #expect(png.status == 200 && png.body == rendered[render] && png[header: "content-type"] == "image/png")
            let byProfile = try await server.get("\(base)/current.jpg?profile=trmnl")
            #expect(byProfile.body == rendered[render])
            // A profile the refresh did not render is rendered on demand; an unknown one is not found.
            let inky = try await server.get("\(base)/current.jpg?profile=inky7")
            #expect(inky.status == 200 && inky[header: "content-type"] == "image/png")
            #expect(try DecodedPNG(inky.body).width == 800)
            #expect((try await server.get("\(base)/current.jpg?profile=nonsense")).status == 404)

            // The entry changes at 11:00Z: so does the filename, and refresh_rate is the next hour.
            clock.advance(by: Double(rate) + 0.3)
            let after = try Self.json((try await server.get("\(base)/api/display", headers: headers)).body)
            let next = try #require(manifest.entries[2].renders?["trmnl"])
            #expect((after["image_url"] as? String)?.hasPrefix("\(base)/\(next)?v=") == true)
            #expect(after["filename"] as? String != filename)
            // The next hour's countdown (the entry before counted ≤ 10).
            #expect((3_540...3_600).contains(after["refresh_rate"] as? Int ?? 0))
            let later = try Self.json((try await server.get("\(base)/api/display", headers: headers)).body)
            #expect(later["filename"] as? String == after["filename"] as? String)
        }
    }

    // MARK: - Renders on demand

    @Test func aTRMNLClientOfACacheMadeWithoutProfilesGetsARenderMadeOnDemand() async throws {
        let cache = try await KFeedProcess.sampleCache()
        defer { cache.remove() }
        let manifest = try #require(try CacheStore(directory: cache.url).manifest())
        #expect(manifest.entries.allSatisfy { $0.renders == nil })
        let entry = manifest.entries[1]  // 10:00Z covers 10:30Z
        // The source pictures come from the replay's recorded X renditions (no traffic at all).
        let clock = ManualNow("2026-11-22T10:30:00Z")
        try await InProcessServer.test(InProcessServer.configuration(cache: cache.url, now: clock)) { server in
            let headers = [HTTPHeader("ID", "AA:BB:CC:00:11:22"), HTTPHeader("Access-Token", "anything")]
            // Four panels at once: one render, made once, the same URL for all of them.
            let urls = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        let answer = try await server.get("\(InProcessServer.base)/api/display", headers: headers)
                        #expect(answer.status == 200 && answer[header: "cache-control"] == "no-store")
                        let json = try Self.json(answer.body)
                        #expect(json["status"] as? Int == 0)
                        // The render's digest, as in its URL's version.
                        let filename = try #require(json["filename"] as? String)
                        let url = try #require(json["image_url"] as? String)
                        #expect(filename.hasSuffix(".png") && url.hasSuffix("?v=\(filename.dropFirst(6).dropLast(4))"))
                        return url
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(Set(urls).count == 1, "\(urls)")
            let url = try #require(urls.first)
            #expect(
                url.hasPrefix("\(InProcessServer.base)/renders/\(entry.media.key)-trmnl-") && url.contains(".png?v=")
            )
            let png = try await server.get(url)
            #expect(png.status == 200 && png[header: "content-type"] == "image/png")
            #expect(png[header: "cache-control"] == "public, max-age=31536000, immutable")
            let decoded = try DecodedPNG(png.body)
            #expect(decoded.width == 800 && decoded.height == 480 && decoded.bitDepth == 1)
            #expect(png.body.count < 90_000)
            #expect((try await server.get("\(InProcessServer.base)/current.jpg?profile=trmnl")).body == png.body)
            let redirect = try Self.json((try await server.get("\(InProcessServer.base)/trmnl/redirect.json")).body)
            #expect(redirect["url"] as? String == url)

            // A full-colour profile too: a baseline JPEG of the panel's size.
            let frame = try await server.get("\(InProcessServer.base)/current.jpg?profile=frame")
            #expect(frame.status == 200 && frame[header: "content-type"] == "image/jpeg")
            #expect(frame.body.starts(with: [0xFF, 0xD8]))
            // A profile too large to render on demand is refused, never attempted.
            let huge = try await server.get("\(InProcessServer.base)/current.jpg?profile=4000x4000:rgb")
            #expect(huge.status == 404)
        }
    }

    @Test func moreDistinctRendersAtOnceThanTheQueueHoldsAllGetAPictureNeverA5xx() async throws {
        let cache = try await KFeedProcess.sampleCache()
        defer { cache.remove() }
        let clock = ManualNow("2026-11-22T10:30:00Z")
        try await InProcessServer.test(InProcessServer.configuration(cache: cache.url, now: clock)) { server in
            // Twenty small panels, all different, asked at once: more than twice the 8 renders the shelf queues.
            let sizes = (0..<20).map { "\(240 + 8 * $0)x\(160 + 8 * $0):rgb" }
            let statuses = try await withThrowingTaskGroup(of: (String, Int, Int).self) { group in
                for size in sizes {
                    group.addTask {
                        let answer = try await server.get("\(InProcessServer.base)/current.jpg?profile=\(size)")
                        return (size, answer.status, answer.body.count)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.count == 20)
            for (size, status, bytes) in statuses {
                #expect(status == 200 && bytes > 0, "\(size): \(status)")
            }
        }
    }

    @Test func everyJSONAnswerCarriesURLsOrCacheRelativePathsNeverTheServersFilePaths() async throws {
        let cache = try await KFeedProcess.sampleCache(profiles: ["trmnl"])
        defer { cache.remove() }
        // A refresh error that names a file in the cache directory, as state.json may hold one.
        var state = RefreshState()
        state.recordFailure(
            KFeedError(.io, "cannot write \(cache.url.appendingPathComponent("images/x.jpg").path): disk full"),
            now: Date(timeIntervalSince1970: 1_795_330_000)
        )
        try InstantFormat.jsonEncoder().encode(state).write(to: cache.url.appendingPathComponent("state.json"))
        #expect(CacheStore(directory: cache.url).state()?.lastError?.message.hasPrefix("cannot write /") == true)
        let paths = [cache.url.path, cache.url.resolvingSymlinksInPath().path]
        let auth = [HTTPHeader("Authorization", "Bearer \(Self.key)")]
        for now in ["2026-11-22T10:30:00Z", "2026-11-23T09:00:00Z"] {  // current, then stale
            let configuration = InProcessServer.configuration(cache: cache.url, now: ManualNow(now), key: Self.key)
            try await InProcessServer.test(configuration) { server in
                var scanned = 0
                for path in [
                    "/current.json", "/timeline.json", "/healthz", "/api/display", "/trmnl/redirect.json", "/api/setup",
                    "/current.jpg?profile=nonsense", "/nothing", "/current.json?profile=x",
                ] {
                    let answer = try await server.get("\(InProcessServer.base)\(path)", headers: auth)
                    #expect(answer[header: "content-type"] == "application/json", "\(path)")
                    let text = String(decoding: answer.body, as: UTF8.self)
                    #expect(paths.allSatisfy { !text.contains($0) }, "\(path): \(text)")
                    scanned += 1
                }
                #expect(scanned == 9)
                let health = try Self.json(
                    (try await server.get("\(InProcessServer.base)/healthz", headers: auth)).body
                )
                #expect(health["last_error"] as? String == "cannot write DIR/images/x.jpg: disk full")
                let current = try Self.json(
                    (try await server.get("\(InProcessServer.base)/current.json", headers: auth)).body
                )
                #expect((current["image"] as? String)?.hasPrefix("images/") == true)
                #expect((current["image_url"] as? String)?.hasPrefix("\(InProcessServer.base)/images/") == true)
                #expect((current["renders"] as? [String: String])?["trmnl"]?.hasPrefix("renders/") == true)
            }
        }
    }

    // MARK: - Feeds

    @Test func theRootListsTheFeedsAndAnUnknownFeedIs404() async throws {
        let news = try await KFeedProcess.sampleCache()
        defer { news.remove() }
        let pets = try await KFeedProcess.sampleCache(entries: 4)
        defer { pets.remove() }
        let caches = ["news": news.url, "pets": pets.url]
        let configuration = InProcessServer.configuration(
            feeds: [("news", news.url), ("pets", pets.url)],
            now: ManualNow("2026-11-22T10:30:00Z")
        )
        try await InProcessServer.test(configuration) { server in
            let base = InProcessServer.base
            let list = try await server.get("\(base)/")
            #expect(list.status == 200 && list[header: "content-type"] == "text/html; charset=utf-8")
            // Shared until the first feed's entry ends, like every page that shows an entry.
            #expect(list[header: "cache-control"] == "public, stale-while-revalidate=10")
            #expect(list[header: "expires"] == "Sun, 22 Nov 2026 11:00:00 GMT")
            #expect(list[header: "etag"] != nil && list[header: "vary"] == nil)
            let html = String(decoding: list.body, as: UTF8.self)
            #expect(html.components(separatedBy: "<li class=\"card").count - 1 == 2)
            for feed in ["news", "pets"] {
                let directory = try #require(caches[feed])
                let entry = try #require(try CacheStore(directory: directory).manifest()).entries[1]
                #expect(html.contains("<img class=\"media\" src=\"f/\(feed)/\(try #require(entry.image))?v="))
                for link in ["", "widget", "current.json"] { #expect(html.contains("href=\"f/\(feed)/\(link)\"")) }
                #expect(html.contains("@\(HTMLEscaping.escape(entry.author.username))"))
            }
            #expect(html.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';"))

            // An unknown feed: 404 with a JSON error naming the feeds there are; /f/NAME without its slash: its page.
            let unknown = try await server.get("\(base)/f/nope/current.json")
            #expect(unknown.status == 404 && unknown[header: "content-type"] == "application/json")
            #expect(unknown[header: "cache-control"] == "no-store")
            #expect(
                try Self.json(unknown.body)["error"] as? String == "no feed 'nope' here: this server serves news, pets"
            )
            #expect((try await server.get("\(base)/f/")).status == 404)
            let slashless = try await server.get("\(base)/f/pets")
            #expect(slashless.status == 308 && slashless[header: "location"] == "/f/pets/")
            #expect((try await server.get("\(base)/f/pets/nothing")).status == 404)
        }
    }

    @Test func withoutAFeedsFileThereAreNoFeedPaths() async throws {
        let cache = try await KFeedProcess.sampleCache()
        defer { cache.remove() }
        let clock = ManualNow("2026-11-22T10:30:00Z")
        try await InProcessServer.test(InProcessServer.configuration(cache: cache.url, now: clock)) { server in
            #expect((try await server.get("\(InProcessServer.base)/f/default/current.json")).status == 404)
            let preview = String(decoding: try await server.get("\(InProcessServer.base)/").body, as: UTF8.self)
            #expect(preview.components(separatedBy: "<li class=\"card").count - 1 == 6)
            let health = try Self.json((try await server.get("\(InProcessServer.base)/healthz")).body)
            #expect(health["feeds"] == nil && health["budget"] == nil && health["status"] as? String == "ok")
        }
    }
}

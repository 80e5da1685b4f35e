import Foundation
import KFeed
import KFeedBase
import KFeedHTTP
import KFeedImages
import KFeedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `kfeed serve`: the built binary serving a cache made from the bundled sample, on `127.0.0.1:0`, read by real
/// clients (libcurl, a plain socket for what libcurl would tidy up, headless Chromium).
@Suite(.timeLimit(.minutes(3)))
struct ServeCommandTests {
    private static let key = "s3cret-Key_0123456789"

    // MARK: - Helpers

    private static func get(_ url: String, headers: [HTTPHeader] = []) async throws -> KFeedHTTP.HTTPResponse {
        let transport = try CurlTransport()
        return try await transport.send(HTTPRequest(url: try #require(URL(string: url)), headers: headers))
    }

    private static func json(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Serves `cache` at `now` (moving on in real time) on a free loopback port.
    private static func serve(
        _ cache: TemporaryDirectory,
        now: String = "2026-11-22T10:30:00Z",
        _ more: [String] = []
    ) async throws -> RunningServer {
        try await RunningServer.start(["--cache", cache.url.path, "--listen", "127.0.0.1:0", "--now", now] + more)
    }

    private static func writeKey(in directory: TemporaryDirectory) throws -> String {
        let path = directory.url.appendingPathComponent("key").path
        try Data("\(key)\n".utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Replaces `timeline.json` the way a refresh does (temp file, rename), after `edit` changes its JSON.
    private static func editManifest(in cache: TemporaryDirectory, _ edit: (inout [String: Any]) throws -> Void) throws
    {
        let url = cache.url.appendingPathComponent("timeline.json")
        var json = try self.json(Data(contentsOf: url))
        try edit(&json)
        let temporary = cache.url.appendingPathComponent(".tmp-edit")
        try JSONSerialization.data(withJSONObject: json).write(to: temporary)
        #expect(rename(temporary.path, url.path) == 0)
    }

    /// The SHA-256 of `text`'s UTF-8 in base64 (as a Content-Security-Policy hash names it), from coreutils'
    /// The SHA-256 of `text` by `sha256sum` (the page's hash is a constant in the code: this checks it).
    private static func sha256(_ text: String) async throws -> String {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("text")
        try Data(text.utf8).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [file.path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let output = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let data = out.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: String(decoding: data, as: UTF8.self))
            }
        }
        let hex = Array(output.prefix(64).utf8)
        let bytes = stride(from: 0, to: hex.count, by: 2).compactMap {
            UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16)
        }
        #expect(bytes.count == 32, "sha256sum printed \(output)")
        return Data(bytes).base64EncodedString()
    }

    // MARK: - Endpoints

    @Test func everyEndpointAnswersFromTheCommittedTimeline() async throws {
        let cache = try await KFeedProcess.sampleCache()
        defer { cache.remove() }
        let server = try await Self.serve(cache)
        #expect(server.line == "kfeed: serving \(cache.url.path) at \(server.base)/")
        let manifest = try #require(try CacheStore(directory: cache.url).manifest())
        let entry = manifest.entries[1]  // 10:00Z covers 10:30Z
        let image = try #require(entry.image)
        let avatar = try #require(entry.author.avatar)

        // /current.json: exactly what `kfeed current` prints, plus the URLs, `until` and `refresh_rate`.
        let current = try await Self.get("\(server.base)/current.json")
        #expect(current.status == 200)
        #expect(current[header: "content-type"] == "application/json")
        var served = try Self.json(current.body)
        // The picture URLs name the file's version (its digest), so that caches may keep them for a year.
        let imageURL = try #require(served["image_url"] as? String)
        #expect(imageURL.hasPrefix("\(server.base)/\(image)?v=") && !imageURL.contains("sig="))
        #expect((served["avatar_url"] as? String)?.hasPrefix("\(server.base)/\(avatar)?v=") == true)
        #expect(served["until"] as? String == "2026-11-22T11:00:00Z")
        let refreshRate = try #require(served["refresh_rate"] as? Int)
        #expect((1_770...1_800).contains(refreshRate))
        #expect(current[header: "cache-control"] == "public, stale-while-revalidate=10")
        #expect(current[header: "etag"]?.hasPrefix("\"") == true)
        #expect(current[header: "last-modified"].flatMap(InstantFormat.date(fromHTTPDate:)) != nil)
        #expect(served["stale"] as? Bool == false)
        // The paths are the manifest's, relative to the cache directory; `kfeed current` prints them absolute.
        #expect(served["image"] as? String == image)
        #expect((served["author"] as? [String: Any])?["avatar"] as? String == avatar)
        // The attribution: the author's profile, the post, its time and its text.
        #expect((served["author"] as? [String: Any])?["url"] as? String == "https://x.com/\(entry.author.username)")
        #expect((served["author"] as? [String: Any])?["name"] as? String == entry.author.name)
        #expect(served["post_url"] as? String == entry.url.absoluteString)
        #expect(served["text"] as? String == entry.text)
        let created = try #require(entry.createdAt)
        #expect((served["created_at"] as? String).flatMap(InstantFormat.date(from:)) == created)
        for key in ["image_url", "avatar_url", "until", "refresh_rate", "stale", "post_url"] { served[key] = nil }
        let printed = try await KFeedProcess.run([
            "current", "--cache", cache.url.path, "--now", "2026-11-22T10:30:00Z",
        ])
        #expect(printed.status == 0)
        var local = try Self.json(Data(printed.stdout.utf8))
        #expect(local["image"] as? String == cache.url.appendingPathComponent(image).path)
        local["image"] = image
        var author = try #require(local["author"] as? [String: Any])
        author["avatar"] = avatar
        local["author"] = author
        #expect(NSDictionary(dictionary: served) == NSDictionary(dictionary: local))

        // The image behind image_url, /current.jpg, avatars, the placeholder: the bytes on disk, with validators.
        let onDisk = try Data(contentsOf: cache.url.appendingPathComponent(image))
        let picture = try await Self.get("\(server.base)/\(image)")
        #expect(picture.status == 200 && picture.body == onDisk)
        #expect(picture[header: "content-type"] == "image/jpeg")
        #expect(picture[header: "content-length"] == String(onDisk.count))
        #expect(picture[header: "cache-control"] == "public, stale-while-revalidate=3600")
        let versioned = try await Self.get(imageURL)
        #expect(versioned.body == onDisk)
        #expect(versioned[header: "cache-control"] == "public, max-age=31536000, immutable")
        #expect(picture[header: "etag"]?.hasPrefix("\"") == true && picture[header: "last-modified"] != nil)
        let currentJPEG = try await Self.get("\(server.base)/current.jpg")
        #expect(currentJPEG.status == 200 && currentJPEG.body == onDisk)
        #expect(currentJPEG[header: "etag"] == picture[header: "etag"])
        let avatarAnswer = try await Self.get("\(server.base)/\(avatar)")
        #expect(avatarAnswer.body == (try Data(contentsOf: cache.url.appendingPathComponent(avatar))))
        let placeholder = try await Self.get("\(server.base)/placeholder-340x340.jpg")
        #expect(placeholder.status == 200)
        #expect(placeholder.body == (try Data(contentsOf: cache.url.appendingPathComponent("placeholder-340x340.jpg"))))
        #expect((try await Self.get("\(server.base)/placeholder-100x100.jpg")).status == 404)

        // /timeline.json as on disk.
        let timeline = try await Self.get("\(server.base)/timeline.json")
        #expect(timeline.status == 200)
        #expect(timeline.body == (try Data(contentsOf: cache.url.appendingPathComponent("timeline.json"))))

        // /healthz.
        let health = try await Self.get("\(server.base)/healthz")
        #expect(health.status == 200)
        let healthJSON = try Self.json(health.body)
        #expect(healthJSON["generated_at"] as? String == "2026-11-22T09:00:00Z")
        #expect(healthJSON["reload_after"] as? String == "2026-11-22T14:00:00Z")
        #expect(healthJSON.keys.contains("last_error"))

        // TRMNL without renders from the refresh: one made on demand (more in aTRMNLClientGetsARenderMadeOnDemand…).
        let display = try await Self.get("\(server.base)/api/display", headers: [HTTPHeader("ID", "AA:BB:CC:00:11:22")])
        #expect(display.status == 200)
        #expect(try Self.json(display.body)["status"] as? Int == 0)
        #expect((try await Self.get("\(server.base)/trmnl/redirect.json")).status == 200)

        // The preview page with links relative to the server, and the widget page.
        let preview = try await Self.get("\(server.base)/")
        #expect(preview.status == 200)
        #expect(preview[header: "content-type"] == "text/html; charset=utf-8")
        let html = String(decoding: preview.body, as: UTF8.self)
        #expect(html.components(separatedBy: "<li class=\"card").count - 1 == 6)
        #expect(html.contains("src=\"\(image)?v="))
        let widget = try await Self.get("\(server.base)/widget")
        let widgetHTML = String(decoding: widget.body, as: UTF8.self)
        #expect(widget.status == 200)
        // It names the entry's end as an instant, for its one script to reload at; without scripts, every 50 s.
        #expect(widgetHTML.contains("<html lang=\"en\" data-until=\"2026-11-22T11:00:00Z\" data-interval=\"3600\">"))
        #expect(widgetHTML.contains("<noscript><meta http-equiv=\"refresh\" content=\"50\"></noscript>"))
        #expect(widgetHTML.contains("<img class=\"picture\" src=\"\(image)?v="))
        #expect(widgetHTML.contains("<img class=\"avatar\" src=\"\(avatar)?v="))
        #expect(widgetHTML.contains(">@\(entry.author.username)</span>"))
        #expect(widgetHTML.contains(">\(HTMLEscaping.escape(entry.author.name))</span>"))
        // The attribution: name and @username link to the profile, the post's time to the post, the mark, the text.
        let profileLink =
            "<a class=\"who\" href=\"https://x.com/\(entry.author.username)\" rel=\"noopener noreferrer\">"
        #expect(widgetHTML.contains(profileLink))
        let posted = PostTime(created, timeZone: .gmt)  // the server runs with TZ=UTC
        #expect(
            widgetHTML.contains(
                "<a class=\"when\" href=\"\(entry.url.absoluteString)\" rel=\"noopener noreferrer\"><time class=\"posted\" "
                    + "datetime=\"\(InstantFormat.string(from: created))\"><b>\(posted.clock)</b>"
                    + "<span class=\"day\">\(posted.day)</span></time></a>"
            )
        )
        #expect(widgetHTML.contains("<svg class=\"xmark\""))
        #expect(widgetHTML.contains("<p class=\"text\" dir=\"auto\">\(HTMLEscaping.escape(entry.text))</p>"))
        #expect(widgetHTML.contains("apple-mobile-web-app-capable"))
        // The script is the only one the page's policy lets run: by its SHA-256, as coreutils computes it.
        #expect(widgetHTML.components(separatedBy: "<script").count == 2)
        let script = try #require(widgetHTML.firstMatch(of: /<script>([\s\S]*?)<\/script>/)?.output.1)
        #expect(script.contains("location.reload()"))
        let policy =
            "\(PreviewPage.contentSecurityPolicy); script-src 'sha256-\(try await Self.sha256(String(script)))'"
        #expect(widgetHTML.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"\(policy)\">"))
        #expect(widget[header: "content-security-policy"] == policy)

        // Unknown paths.
        let unknown = try await Self.get("\(server.base)/nothing-here")
        #expect(unknown.status == 404 && unknown[header: "content-type"] == "application/json")
        #expect((await server.stop()).status == 0)
    }

    // MARK: - HTTP

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        let cache = try await KFeedProcess.sampleCache()
        defer { cache.remove() }
        let server = try await Self.serve(cache)
        let port = server.port
        // Pipelined requests are answered in order, whichever path answers each. (HEAD, conditional requests and
        // methods: KFeedServerTests, in process.)
        let jsonRequest = "GET /current.json HTTP/1.1\r\nHost: x\r\n\r\n"
        let jpeg = "GET /current.jpg HTTP/1.1\r\nHost: x\r\n\r\n"
        let last = "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        for order in [[jsonRequest, jpeg, jpeg, jsonRequest, last], [jpeg, jsonRequest, jpeg, last]] {
            let raw = String(decoding: try await RawHTTP.pipelined(order, port: port), as: UTF8.self)
            let types = raw.matches(of: /(?i)content-type: ([a-z\/]+)/).map { String($0.output.1) }
            let expected = order.map { $0 == jpeg ? "image/jpeg" : "application/json" }
            #expect(types == expected)
        }
        #expect((await server.stop()).status == 0)
    }

    @Test func requestHeadersThatDribbleInAreCutOff() async throws {
        let cache = try await KFeedProcess.sampleCache()
        defer { cache.remove() }
        let server = try await Self.serve(cache)
        let port = server.port
        let seconds = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                guard let socket = RawHTTP.connect(port: port, timeoutSeconds: 1) else {
                    continuation.resume(returning: -1.0)
                    return
                }
                defer { close(socket) }
                let start = Date()
                RawHTTP.write(Array("GET /healthz HTTP/1.1\r\nHost: x\r\n".utf8), to: socket)
                // One header byte a second, for at most 15 s: the server must hang up long before.
                while Date().timeIntervalSince(start) < 15 {
                    guard RawHTTP.write([UInt8(ascii: "X")], to: socket) else { break }
                    var byte: UInt8 = 0
                    let count = recv(socket, &byte, 1, 0)
                    if count == 0 { break }  // closed
                    if count < 0 && errno != EAGAIN && errno != EWOULDBLOCK { break }
                }
                continuation.resume(returning: Date().timeIntervalSince(start))
            }
        }
        #expect(seconds > 0 && seconds < 10, "the connection stayed open \(seconds) s")
        // The server still answers others.
        #expect((try await RawHTTP.request("GET", "/healthz", port: port)).status == 200)
        #expect((await server.stop()).status == 0)
    }

    // MARK: - What is served

    @Test func nothingButWhatTheManifestsNameIsServed() async throws {
        let cache = try await KFeedProcess.sampleCache()
        defer { cache.remove() }
        try Data("secret".utf8).write(to: cache.url.appendingPathComponent(".lock"))
        try Data().write(to: cache.url.appendingPathComponent("images/unnamed.jpg"))
        let manifest = try #require(try CacheStore(directory: cache.url).manifest())

        // The generation the server loads has an image that is a symlink to a file outside, one that is a symlink
        // to state.json, a renders directory that is a symlink, and an entry naming ../state.json.
        let first = try #require(manifest.entries[0].image)
        let second = try #require(manifest.entries[1].image)
        try FileManager.default.removeItem(at: cache.url.appendingPathComponent(first))
        #expect(symlink("/etc/passwd", cache.url.appendingPathComponent(first).path) == 0)
        try FileManager.default.removeItem(at: cache.url.appendingPathComponent(second))
        #expect(symlink("../state.json", cache.url.appendingPathComponent(second).path) == 0)
        let outside = try TemporaryDirectory()
        defer { outside.remove() }
        try Data("outside".utf8).write(to: outside.url.appendingPathComponent("x-trmnl.png"))
        // A refresh creates renders/ (empty without a profile); the symlink takes its place.
        try FileManager.default.removeItem(at: cache.url.appendingPathComponent("renders"))
        #expect(symlink(outside.url.path, cache.url.appendingPathComponent("renders").path) == 0)
        try Self.editManifest(in: cache) { json in
            var entries = try #require(json["entries"] as? [[String: Any]])
            entries[2]["renders"] = ["trmnl": "renders/x-trmnl.png"]
            entries[3]["image"] = "../state.json"
            json["entries"] = entries
        }
        let server = try await Self.serve(cache)
        let port = server.port
        let paths = [
            "/state.json", "/kfeed.log", "/.lock", "/preview.html", "/../state.json", "/images/../state.json",
            "/images/%2e%2e/state.json", "/images/..%2fstate.json", "/images/", "/images", "/avatars/", "/renders/",
            "//etc/passwd", "/images/unnamed.jpg", "/timeline.json/..", "/%2e%2e/%2e%2e/etc/passwd",
            "/images/\(manifest.entries[2].image?.split(separator: "/").last ?? "")/..", "/IMAGES/x.jpg",
        ]
        for path in paths {
            let answer = try await RawHTTP.request("GET", path, port: port)
            #expect(answer.status == 404 || answer.status == 400, "\(path) → \(answer.status)")
            #expect(!answer.text.contains("secret") && !answer.text.contains("reload_after"), "\(path)")
        }

        for path in [first, second, "renders/x-trmnl.png"] {
            let answer = try await RawHTTP.request("GET", "/\(path)", port: port)
            #expect(answer.status == 404, "\(path) → \(answer.status): \(answer.text.prefix(80))")
        }
        let third = try #require(manifest.entries[2].image)
        #expect((try await RawHTTP.request("GET", "/\(third)", port: port)).status == 200)
        #expect((try await RawHTTP.request("GET", "/state.json", port: port)).status == 404)
        #expect((await server.stop()).status == 0)
    }

    // MARK: - The key

    @Test func aKeyIsRequiredInOneOfThreePlacesAndNeverEchoed() async throws {
        let cache = try await KFeedProcess.sampleCache()
        defer { cache.remove() }
        let keyFile = try Self.writeKey(in: cache)
        let server = try await Self.serve(
            cache,
            ["--key-file", keyFile, "-v", "--trmnl-device", "aa:bb:cc:dd:ee:ff"]
        )
        let base = server.base
        let key = Self.key

        let none = try await Self.get("\(base)/current.json")
        #expect(none.status == 401)
        #expect(none[header: "www-authenticate"] == "Bearer realm=\"kfeed\"")
        #expect(
            (try await Self.get("\(base)/current.json", headers: [HTTPHeader("Authorization", "Bearer wrong")])).status
                == 401
        )
        #expect((try await Self.get("\(base)/current.json?key=\(key)x")).status == 401)
        #expect(
            (try await Self.get("\(base)/current.json", headers: [HTTPHeader("Access-Token", String(key.dropLast()))]))
                .status == 401
        )
        #expect((try await Self.get("\(base)/healthz")).status == 401)
        #expect((try await Self.get("\(base)/nothing")).status == 401)

        let bearer = try await Self.get("\(base)/current.json", headers: [HTTPHeader("Authorization", "Bearer \(key)")])
        let token = try await Self.get("\(base)/current.json", headers: [HTTPHeader("Access-Token", key)])
        let query = try await Self.get("\(base)/current.json?key=\(key)")
        #expect(bearer.status == 200 && token.status == 200 && query.status == 200)
        for answer in [bearer, token, query] {
            #expect(!String(decoding: answer.body, as: UTF8.self).contains(key))
        }

        // The URLs it hands out are signed per path: they work without the key, for that path only.
        let current = try Self.json(query.body)
        let imageURL = try #require(current["image_url"] as? String)
        let avatarURL = try #require(current["avatar_url"] as? String)
        #expect(imageURL.contains("?v=") && imageURL.contains("&sig="))
        #expect((try await Self.get(imageURL)).status == 200)
        #expect((try await Self.get(avatarURL)).status == 200)
        let signature = try #require(imageURL.split(separator: "?").last)
        let avatarPath = try #require(avatarURL.split(separator: "?").first)
        #expect((try await Self.get("\(avatarPath)?\(signature)")).status == 401)
        #expect((try await Self.get(String(try #require(imageURL.split(separator: "?").first)))).status == 401)
        #expect((try await Self.get("\(base)/current.json?\(signature)")).status == 401)

        // TRMNL set-up: the key goes to a listed device only.
        let stranger = try await Self.get("\(base)/api/setup", headers: [HTTPHeader("ID", "11:22:33:44:55:66")])
        #expect(stranger.status == 404)
        let strangerJSON = try Self.json(stranger.body)
        #expect(strangerJSON["api_key"] is NSNull && strangerJSON["status"] as? Int == 404)
        #expect(!String(decoding: stranger.body, as: UTF8.self).contains(key))
        let device = try await Self.get("\(base)/api/setup", headers: [HTTPHeader("ID", "AA:BB:CC:DD:EE:FF")])
        #expect(device.status == 200)
        let deviceJSON = try Self.json(device.body)
        #expect(deviceJSON["api_key"] as? String == key && deviceJSON["status"] as? Int == 200)
        #expect((deviceJSON["friendly_id"] as? String)?.count == 6)
        #expect((try await Self.get("\(base)/api/display", headers: [HTTPHeader("Access-Token", key)])).status == 200)

        #expect((await server.stop()).status == 0)
        let log = server.stderr
        #expect(log.contains("GET /current.json?… 200"))
        #expect(log.contains("GET /current.json 401"))
        #expect(log.contains("refused TRMNL setup for device ID '11:22:33:44:55:66'"))
        #expect(!log.contains(key) && !log.contains("sig="))
    }

    @Test func anIdleTimeoutThatIsNotWholeSecondsFromOneTo3600IsBadUsage() async throws {
        let empty = try TemporaryDirectory()
        defer { empty.remove() }
        for seconds in ["0", "5s", "3601"] {
            let result = try await KFeedProcess.run(["serve", "--cache", empty.url.path, "--idle-timeout", seconds])
            #expect(result.status == 64, "\(seconds)")
            #expect(result.stderr.contains("--idle-timeout '\(seconds)' is not a whole number of seconds from 1"))
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test func listeningBeyondLoopbackNeedsAKey() async throws {
        let empty = try TemporaryDirectory()
        defer { empty.remove() }
        for address in ["0.0.0.0:0", "[::]:0", "192.168.1.10:8787"] {
            let result = try await KFeedProcess.run(["serve", "--cache", empty.url.path, "--listen", address])
            #expect(result.status == 78, "\(address)")
            #expect(result.stderr.split(separator: "\n").count == 1)
            #expect(result.stderr.contains("needs --key-file"))
            #expect(result.stdout.isEmpty)
        }
        let missing = try await KFeedProcess.run([
            "serve", "--cache", empty.url.path, "--listen", "0.0.0.0:0", "--key-file", "/nonexistent/key",
        ])
        #expect(missing.status == 78)
        let bad = try await KFeedProcess.run(["serve", "--cache", empty.url.path, "--listen", "somewhere"])
        #expect(bad.status == 64)
        // --refresh without a token stops at start-up (78), not at every refresh round.
        let noToken = try await KFeedProcess.run(
            ["serve", "--cache", empty.url.path, "--listen", "127.0.0.1:0", "--refresh"],
            environment: ["X_BEARER_TOKEN": "", "TWITTER_BEARER_TOKEN": ""],
            directory: empty.url
        )
        #expect(noToken.status == 78)
        #expect(noToken.stderr.contains("no bearer token"))
    }

    // MARK: - In a browser

    @Test(
        .enabled(
            if: Chromium.executable != nil,
            "needs headless Chromium: no chromium or chromium-browser on PATH; run apt-get install -y chromium"
        )
    )
    func chromiumShowsTheWidgetAndThePreviewFromTheServerWithEveryImageDecoded() async throws {
        let cache = try await KFeedProcess.sampleCache()
        defer { cache.remove() }
        let keyFile = try Self.writeKey(in: cache)
        let server = try await Self.serve(cache, ["--key-file", keyFile])
        let manifest = try #require(try CacheStore(directory: cache.url).manifest())
        let entry = manifest.entries[1]

        for (page, images) in [("widget", 2), ("", 2 * manifest.entries.count)] {
            // The DOM Chromium built from the served page (with the key in the URL, as a home-screen bookmark has).
            let url = "\(server.base)/\(page)?key=\(Self.key)"
            let dom = try await Chromium.run(["--virtual-time-budget=5000", "--dump-dom", url])
            // The widget's one script (its reload; the entry ends 30 minutes on) and no other; none in the preview.
            #expect(dom.lowercased().components(separatedBy: "<script").count - 1 == (page == "widget" ? 1 : 0))
            let sources = dom.matches(of: /<img [^>]*src="([^"]*)"/).map {
                String($0.output.1).replacingOccurrences(of: "&amp;", with: "&")
            }
            #expect(sources.count == images, "/\(page): \(sources)")
            // Every image is fetched by its version with a per-path signature, never the key.
            #expect(
                sources.allSatisfy { $0.contains("?v=") && $0.contains("&sig=") && !$0.contains(Self.key) },
                "\(sources)"
            )
            if page == "widget" {
                #expect(dom.contains("<img class=\"avatar\""))
                #expect(dom.contains(">@\(entry.author.username)</span>"))
                #expect(dom.contains("<span class=\"name\">\(HTMLEscaping.escape(entry.author.name))</span>"))
                let posted = PostTime(try #require(entry.postedAt), timeZone: .gmt)  // the server runs with TZ=UTC
                #expect(dom.contains("<b>\(posted.clock)</b><span class=\"day\">\(posted.day)</span></time>"))
                #expect(dom.contains("<svg class=\"xmark\""))
                // The name and @username link to the profile, the time to the post, as Chromium parsed the page.
                #expect(dom.contains("<a class=\"who\" href=\"https://x.com/\(entry.author.username)\""))
                #expect(dom.contains("<a class=\"when\" href=\"\(entry.url.absoluteString)\""))
            }

            // Each of those images, loaded by Chromium from the server, decodes to its real size.
            let report = try await Self.decodeReport(sources.map { "\(server.base)/\($0)" }, in: cache)
            #expect(report.count == sources.count)
            for image in report {
                let expected = image.src.contains("/avatars/") ? ImageSize.avatar : manifest.size
                #expect(image.naturalWidth == expected.width && image.naturalHeight == expected.height, "\(image.src)")
            }
        }

        // A rendering of the widget at a phone's size: the picture fills it (a blank page this size is ~3 KB).
        let screenshot = cache.url.appendingPathComponent("widget.png")
        _ = try await Chromium.run([
            "--screenshot=\(screenshot.path)", "--window-size=390,844", "--virtual-time-budget=5000",
            "\(server.base)/widget?key=\(Self.key)",
        ])
        let png = try Data(contentsOf: screenshot)
        #expect(Chromium.pngSize(png) == [390, 844])
        #expect(png.count > 40_000, "a \(png.count)-byte screenshot looks blank")
        if let keep = ProcessInfo.processInfo.environment["KFEED_KEEP_SCREENSHOT"] {
            try png.write(to: URL(fileURLWithPath: keep))
        }
        #expect((await server.stop()).status == 0)
    }

    @Test(
        .enabled(
            if: Chromium.executable != nil,
            "needs headless Chromium: no chromium or chromium-browser on PATH; run apt-get install -y chromium"
        )
    )
    func chromiumReloadsTheWidgetWhenItsEntryEndsAndShowsTheNextPictureOnce() async throws {
        // 1-minute entries dated by the real clock, the second beginning 30 s from when the timeline is written, served
        // on the real clock (no --now): the page's script reloads by Chromium's clock, which is the real one. The
        // server and Chromium start first (slow on a busy machine); the timeline is written last, and again while its
        // entry would end less than 15 s after it is (the server reads a new timeline as soon as it is written).
        let cache = try TemporaryDirectory()
        defer { cache.remove() }
        let server = try await RunningServer.start(["--cache", cache.url.path, "--listen", "127.0.0.1:0", "-v"])
        let chromium = try await ChromiumSession.start()
        var manifest: Manifest?
        for _ in 0..<3 {
            let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down) - 30)
            let refresh = try await KFeedProcess.run([
                "refresh", "--force", "--replay", Fixture.replay("sample").path, "--cache", cache.url.path, "--now",
                InstantFormat.string(from: start), "--entries", "3", "--interval", "1m",
            ])
            #expect(refresh.status == 0, "\(refresh.stderr)")
            manifest = try CacheStore(directory: cache.url).manifest()
            if let written = manifest, written.entries[1].date.timeIntervalSinceNow >= 15 { break }
        }
        let made = try #require(manifest)
        let end = made.entries[1].date
        let next = try #require(made.entries[1].image)

        // What the page shows, read every 0.2 s until the next entry's picture has loaded (or 20 s past the end).
        // (Between two documents, while one loads, there is no root element yet: that reading shows nothing.)
        struct Shown: Decodable, Equatable {
            var hour: String?
            var until: String?
            /// The picture's URL once it has loaded and decoded.
            var picture: String?
            /// How the document was loaded: `navigate`, then `reload`.
            var navigation: String?
        }
        let read = """
            (function () {
              var hour = document.querySelector('time.posted'), picture = document.querySelector('img.picture');
              var navigation = performance.getEntriesByType('navigation')[0], root = document.documentElement;
              return JSON.stringify({ hour: hour && hour.getAttribute('datetime'),
                until: root && root.getAttribute('data-until'),
                picture: picture && picture.complete && picture.naturalWidth > 0 ? picture.currentSrc : null,
                navigation: navigation ? navigation.type : null });
            })()
            """
        try await chromium.navigate(to: "\(server.base)/widget")
        var readings: [(at: Date, shown: Shown)] = []
        while Date() < end.addingTimeInterval(20) {
            let shown = try JSONDecoder().decode(Shown.self, from: Data(try await chromium.evaluate(read).utf8))
            readings.append((Date(), shown))
            if shown.picture?.contains(next) == true { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        // A few seconds more: the new page reloads no sooner than its own entry's end.
        try await Task.sleep(for: .seconds(3))
        // (Less the browser's own request for a favicon, which kfeed answers 404.)
        let messages = chromium.messages.filter { !$0.contains("/favicon.ico\"") }
        await chromium.stop()
        #expect((await server.stop()).status == 0)

        // First the entry that ends, with its end as the instant to reload at…
        let first = try #require(readings.first { $0.shown.picture != nil }, "\(readings)")
        #expect(first.at < end, "Chromium showed the page only \(first.at.timeIntervalSince(end)) s after the end")
        // (Each entry is told by its post's time, which the page shows.)
        #expect(first.shown.hour == made.entries[0].postedAt.map(InstantFormat.string(from:)))
        #expect(first.shown.until == InstantFormat.string(from: end) && first.shown.navigation == "navigate")
        // …then, reloaded by its script 2 s after the end, the next entry's picture (within seconds on a busy machine,
        // where its retry would take 30 at least).
        let shownNext = try #require(
            readings.first { $0.shown.picture?.contains(next) == true },
            "\(readings.suffix(3))"
        )
        let after = shownNext.at.timeIntervalSince(end)
        #expect(after >= 2 && after <= 15, "the next picture showed \(after) s after the end")
        #expect(
            shownNext.shown.hour == made.entries[1].postedAt.map(InstantFormat.string(from:))
                && shownNext.shown.navigation == "reload"
        )
        // The policy let the script run and refused nothing, and the page threw nothing.
        #expect(messages.isEmpty, "\(messages)")
        // The server saw the page twice: the load and one reload, no loop.
        #expect(server.stderr.matches(of: #/GET /widget 200 /#).count == 2, "\(server.stderr)")
    }

    @Test(
        .enabled(
            if: Chromium.executable != nil,
            "needs headless Chromium: no chromium or chromium-browser on PATH; run apt-get install -y chromium"
        ),
        arguments: [
            ("past its end (a copy kept too long)", #"data-until="2000-01-01T00:00:00Z""#),
            ("a clock years behind", #"data-until="2100-01-01T00:00:00Z""#),
            ("no end named", ""),
        ]
    )
    func aWidgetPageWhoseEndIsNotAheadReloadsEveryHalfMinuteOrSoNeverInALoop(
        situation: String,
        until: String
    ) async throws {
        let cache = try await KFeedProcess.sampleCache(entries: 2)
        defer { cache.remove() }
        let server = try await Self.serve(cache)
        let page = String(decoding: (try await Self.get("\(server.base)/widget")).body, as: UTF8.self)
        #expect((await server.stop()).status == 0)
        // The served page with its end replaced, loaded from file:// in a frame whose loads the harness counts, on
        // Chromium's virtual clock (the page's timers run at once, the clock moving on as they fire). The page keeps
        // its policy: a script it did not allow would not run, and nothing would reload.
        let copy = page.replacing(/data-until="[^"]*"/, with: until)
        #expect(copy != page || until.isEmpty)
        try Data(copy.utf8).write(to: cache.url.appendingPathComponent("widget.html"))
        let harness = cache.url.appendingPathComponent("harness.html")
        try Data(
            """
            <!DOCTYPE html><html><head><meta charset="utf-8"></head><body>
            <pre id="report">[]</pre>
            <iframe id="page" src="widget.html"></iframe>
            <script>
            const loads = [];
            document.getElementById('page').addEventListener('load', () => {
              loads.push(Date.now());
              document.getElementById('report').textContent = JSON.stringify(loads);
            });
            </script>
            </body></html>
            """.utf8
        ).write(to: harness)
        let dom = try await Chromium.run(["--virtual-time-budget=200000", "--dump-dom", harness.absoluteString])
        let json = try #require(dom.firstMatch(of: /<pre id="report">([^<]*)<\/pre>/)?.output.1, "\(dom)")
        let loads = try JSONDecoder().decode([Double].self, from: Data(json.utf8))
        // In 200 s: the load and a reload every 30–45 s (4 to 6 of them), never sooner. (Between two load events, as
        // the harness sees them: give or take the time a load takes, which the page's timer does not count.)
        #expect((5...7).contains(loads.count), "\(situation): loads at \(loads)")
        let gaps = zip(loads.dropFirst(), loads).map { ($0 - $1) / 1_000 }
        #expect(gaps.allSatisfy { $0 >= 28 && $0 <= 47 }, "\(situation): reloads after \(gaps) s")
    }

    /// What the phone harness read from the widget page: the viewport, the picture Chromium chose and how it shows.
    private struct PhonePicture: Decodable {
        var devicePixelRatio: Double
        var viewportWidth: Double
        var viewportHeight: Double
        var currentSrc: String
        /// The chosen file's size in pixels.
        var naturalWidth: Double
        var naturalHeight: Double
        var boxWidth: Double
        var boxHeight: Double

        /// Image pixels per CSS pixel of the picture covering its box (`object-fit: cover`).
        var imagePixelsPerCSSPixel: Double {
            1 / max(boxWidth / naturalWidth, boxHeight / naturalHeight)
        }
    }

    @Test(
        .enabled(
            if: Chromium.executable != nil,
            "needs headless Chromium: no chromium or chromium-browser on PATH; run apt-get install -y chromium"
        ),
        arguments: [
            (["--size", "844x844"], 844, true),
            (["--profile", "1170x2532:rgb", "--no-caption"], 1_170, true),
            ([], 340, false),
        ]
    )
    func onAPhoneTheWidgetShowsAtLeastOneImagePixelPerCSSPixelWhenTheCacheHasThatSize(
        options: [String],
        chosenWidth: Int,
        isSharp: Bool
    ) async throws {
        let cache = try TemporaryDirectory()
        defer { cache.remove() }
        let refresh = try await KFeedProcess.run(
            [
                "refresh", "--replay", Fixture.replay("sample").path, "--cache", cache.url.path,
                "--now", "2026-11-22T09:00:00Z", "--entries", "2",
            ] + options
        )
        #expect(refresh.status == 0, "\(refresh.stderr)")
        let server = try await Self.serve(cache, now: "2026-11-22T09:30:00Z")
        let page = String(decoding: (try await Self.get("\(server.base)/widget")).body, as: UTF8.self)
        if options.contains("--profile") {
            #expect(page.contains(" 340w, renders/") && page.contains(" 1170w\""), "\(page)")
        }
        // The served page, its links resolved against the server, framed at a phone's size (390×844 CSS pixels; a
        // headless window is at least 500 wide) at 3 device pixels per CSS pixel, and read by the harness around it.
        // (Its Content-Security-Policy, which would refuse the server's images in a file:// copy, and its reload
        // are taken out of this copy only.)
        var copy = page.replacing(/<meta http-equiv="(Content-Security-Policy|refresh)"[^>]*>/, with: "")
        copy = copy.replacing(/<script>[\s\S]*?<\/script>/, with: "")
        copy = copy.replacingOccurrences(of: "<head>", with: "<head><base href=\"\(server.base)/\">")
        try Data(copy.utf8).write(to: cache.url.appendingPathComponent("phone.html"))
        let harness = cache.url.appendingPathComponent("harness.html")
        let html = """
            <!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0">
            <iframe id="phone" src="phone.html" style="width:390px;height:844px;border:0;display:block"></iframe>
            <pre id="report">pending</pre>
            <script>
            window.addEventListener('load', () => {
              const phone = document.getElementById('phone').contentWindow;
              const picture = phone.document.querySelector('img.picture'), box = picture.getBoundingClientRect();
              // naturalWidth of a srcset picture is in CSS pixels (divided by its density): load the chosen file
              // alone for its pixels.
              const probe = new Image();
              probe.onload = () => {
                document.getElementById('report').textContent = JSON.stringify({
                  devicePixelRatio: phone.devicePixelRatio, viewportWidth: phone.innerWidth,
                  viewportHeight: phone.innerHeight, currentSrc: picture.currentSrc,
                  naturalWidth: probe.naturalWidth, naturalHeight: probe.naturalHeight,
                  boxWidth: box.width, boxHeight: box.height });
              };
              probe.src = picture.currentSrc;
            });
            </script>
            </body></html>
            """
        try Data(html.utf8).write(to: harness)
        let dom = try await Chromium.run(
            [
                "--allow-file-access-from-files", "--window-size=600,900", "--virtual-time-budget=5000", "--dump-dom",
                harness.absoluteString,
            ],
            deviceScale: 3
        )
        let json = try #require(dom.firstMatch(of: /<pre id="report">([^<]*)<\/pre>/)?.output.1, "\(dom)")
        let report = try JSONDecoder().decode(
            PhonePicture.self,
            from: Data(String(json).replacingOccurrences(of: "&quot;", with: "\"").utf8)
        )
        #expect(report.devicePixelRatio == 3 && report.viewportWidth == 390 && report.viewportHeight == 844)
        #expect(report.boxWidth == 390 && report.boxHeight == 844)
        #expect(Int(report.naturalWidth) == chosenWidth, "\(report)")
        #expect((report.imagePixelsPerCSSPixel >= 1) == isSharp, "\(report)")
        #expect((await server.stop()).status == 0)
    }

    private struct DecodedImage: Decodable {
        var src: String
        var naturalWidth: Int
        var naturalHeight: Int
    }

    /// Loads `urls` as images in a page of their own in Chromium and returns each one's decoded size.
    private static func decodeReport(_ urls: [String], in cache: TemporaryDirectory) async throws -> [DecodedImage] {
        let tags = urls.map { "<img src=\"\($0)\">" }.joined(separator: "\n")
        let harness = cache.url.appendingPathComponent("images-\(UUID().uuidString).html")
        let html = """
            <!DOCTYPE html><html><head><meta charset="utf-8"></head><body>
            <pre id="report">pending</pre>
            \(tags)
            <script>
            window.addEventListener('load', () => {
              const images = Array.from(document.images).map(image => ({ src: image.src,
                naturalWidth: image.naturalWidth, naturalHeight: image.naturalHeight }));
              document.getElementById('report').textContent = JSON.stringify(images);
            });
            </script>
            </body></html>
            """
        try Data(html.utf8).write(to: harness)
        defer { try? FileManager.default.removeItem(at: harness) }
        let dom = try await Chromium.run(["--virtual-time-budget=10000", "--dump-dom", harness.absoluteString])
        let json = try #require(dom.firstMatch(of: /<pre id="report">([^<]*)<\/pre>/)?.output.1, "\(dom)")
        let text = String(json).replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(
            of: "&amp;",
            with: "&"
        )
        return try JSONDecoder().decode([DecodedImage].self, from: Data(text.utf8))
    }

    // MARK: - Refresh beside the server

    /// A replay like `sample` whose posts, media keys and so file names differ (ids rewritten), in `directory`.
    private static func variantReplay(of digit: Character, in directory: TemporaryDirectory) throws -> URL {
        let fixtures = Fixture.replay("sample").deletingLastPathComponent().deletingLastPathComponent()
        let root = directory.url.appendingPathComponent("fixtures-\(digit)")
        let replay = root.appendingPathComponent("replay/variant")
        try FileManager.default.createDirectory(at: replay, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("images"),
            to: root.appendingPathComponent("images")
        )
        let rewrite = { (text: String) in text.replacingOccurrences(of: "1859170000", with: "18591\(digit)0000") }
        let routes = try String(
            contentsOf: Fixture.replay("sample").appendingPathComponent("routes.json"),
            encoding: .utf8
        )
        try Data(rewrite(routes).utf8).write(to: replay.appendingPathComponent("routes.json"))
        for page in ["recent-search.sample-page1.json", "recent-search.sample-page2.json"] {
            let text = try String(contentsOf: fixtures.appendingPathComponent(page), encoding: .utf8)
            try Data(rewrite(text).utf8).write(to: root.appendingPathComponent(page))
        }
        return replay
    }

    @Test(.timeLimit(.minutes(4)))
    func refreshesBesideTheServerNeverGiveAClientA404APartialOrAnotherGenerationsImage() async throws {
        let work = try TemporaryDirectory()
        defer { work.remove() }
        let replays = [
            Fixture.replay("sample"), try Self.variantReplay(of: "8", in: work),
            try Self.variantReplay(of: "9", in: work),
        ]
        let refresh = { (replay: URL, cache: URL) in
            try await KFeedProcess.run([
                "refresh", "--force", "--replay", replay.path, "--cache", cache.path, "--now", "2026-11-22T09:00:00Z",
                "--entries", "6",
            ])
        }
        // Reference: every file each data set's generation names, and which image each post shows.
        var expectedBytes: [String: Data] = [:]
        var expectedImage: [String: String] = [:]
        for (index, replay) in replays.enumerated() {
            let reference = work.url.appendingPathComponent("reference-\(index)")
            #expect(try await refresh(replay, reference).status == 0)
            let manifest = try #require(try CacheStore(directory: reference).manifest())
            for entry in manifest.entries {
                for path in [entry.image, entry.author.avatar].compactMap({ $0 }) {
                    let data = try Data(contentsOf: reference.appendingPathComponent(path))
                    #expect(expectedBytes[path] == nil || expectedBytes[path] == data, "\(path) differs between sets")
                    expectedBytes[path] = data
                }
                expectedImage[entry.tweetID] = entry.image
            }
        }
        #expect(Set(expectedImage.values).count > 10)

        let live = work.url.appendingPathComponent("live")
        #expect(try await refresh(replays[0], live).status == 0)
        let server = try await RunningServer.start([
            "--cache", live.path, "--listen", "127.0.0.1:0", "--now", "2026-11-22T11:30:00Z",
        ])
        let base = server.base

        // Refreshes cycle through the three data sets (each commit sweeps the files two generations old), at least
        // nine of them and until the client has read at least 20 times: a fast refresh must not end the race before
        // the client has run it…
        let progress = RaceProgress()
        let refresher = Task {
            defer { progress.finish() }
            var statuses: [Int32] = []
            var round = 0
            while round < 9 || (progress.readerRounds < 20 && round < 90) {
                round += 1
                statuses.append(try await refresh(replays[round % 3], live).status)
            }
            return statuses
        }
        // …while a client keeps reading current.json and then the files it names.
        var problems: [String] = []
        var seen: Set<String> = []
        var rounds = 0
        let deadline = ContinuousClock.now + .seconds(150)
        let transport = try CurlTransport()
        func fetch(_ url: String) async throws -> KFeedHTTP.HTTPResponse {
            try await transport.send(HTTPRequest(url: try #require(URL(string: url))))
        }
        while true {
            if progress.isFinished || rounds >= 3_000 || ContinuousClock.now > deadline { break }
            rounds += 1
            progress.readerRounds = rounds
            let current = try await fetch("\(base)/current.json")
            guard current.status == 200 else {
                problems.append("current.json \(current.status)")
                continue
            }
            let json = try Self.json(current.body)
            let tweet = try #require(json["tweet_id"] as? String)
            seen.insert(tweet)
            for key in ["image_url", "avatar_url"] {
                let url = try #require(json[key] as? String)
                let path = String(url.dropFirst(base.count + 1).prefix { $0 != "?" })
                if key == "image_url", expectedImage[tweet] != path {
                    problems.append("post \(tweet) came with \(path), not \(expectedImage[tweet] ?? "-")")
                }
                let file = try await fetch(url)
                if file.status != 200 {
                    problems.append("\(path): \(file.status)")
                } else if file.body != expectedBytes[path] {
                    problems.append("\(path): \(file.body.count) bytes that are not the generation's file")
                }
            }
        }
        let statuses = try await refresher.value
        #expect(statuses.count >= 9 && statuses.allSatisfy { $0 == 0 }, "\(statuses)")
        #expect(problems.isEmpty, "\(problems.prefix(10)) of \(problems.count) in \(rounds) rounds")
        #expect(rounds >= 20)
        #expect(seen.count >= 3, "the client saw \(seen.count) generations' first posts")
        #expect((await server.stop()).status == 0)
    }

    @Test func withRefreshTheServerFillsAnEmptyCacheAndKeepsServingOnFailure() async throws {
        let empty = try TemporaryDirectory()
        defer { empty.remove() }
        let server = try await RunningServer.start([
            "--cache", empty.url.path, "--listen", "127.0.0.1:0", "--now", "2026-11-22T09:30:00Z", "--refresh",
            "--replay", Fixture.replay("sample").path, "--entries", "6",
        ])
        var status = 0
        for _ in 0..<300 {
            status = (try await Self.get("\(server.base)/healthz")).status
            if status == 200 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(status == 200)
        let current = try Self.json((try await Self.get("\(server.base)/current.json")).body)
        #expect(current["date"] as? String == "2026-11-22T09:30:00Z")
        #expect((await server.stop()).status == 0)

        // A refresh that fails (the API answers 503) is logged; the last good timeline keeps being served.
        let failing = try await RunningServer.start([
            "--cache", empty.url.path, "--listen", "127.0.0.1:0", "--now", "2026-11-22T15:30:00Z", "--refresh",
            "--replay", Fixture.replay("503").path, "--entries", "6", "--policy", "atEnd",
        ])
        var logged = false
        for _ in 0..<300 {
            if failing.stderr.contains("refresh failed") {
                logged = true
                break
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(logged, "\(failing.stderr)")
        #expect((try await Self.get("\(failing.base)/timeline.json")).status == 200)
        // The timeline (09:30Z to 15:30Z) ran out: its last picture is served, and /healthz says why.
        let health = try await Self.get("\(failing.base)/healthz")
        #expect(health.status == 503)
        let healthJSON = try Self.json(health.body)
        #expect(healthJSON["status"] as? String == "stale")
        #expect((healthJSON["reason"] as? String)?.contains("the last refresh failed") == true, "\(healthJSON)")
        let stale = try Self.json((try await Self.get("\(failing.base)/current.json")).body)
        #expect(stale["stale"] as? Bool == true && stale["date"] as? String == "2026-11-22T14:30:00Z")
        #expect((await failing.stop()).status == 0)
    }

    // MARK: - Lifecycle

    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalStopsTheServerWithExitZeroWithinFiveSeconds(_ signal: Int32) async throws {
        let cache = try await KFeedProcess.sampleCache()
        defer { cache.remove() }
        let server = try await Self.serve(cache)
        #expect((try await Self.get("\(server.base)/current.json")).status == 200)
        // An idle keep-alive connection (it was answered once, and stays open) must not hold the shutdown up.
        let idle = RawHTTP.connect(port: server.port)
        defer { if let idle { close(idle) } }
        if let idle {
            let request = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n"
            #expect(RawHTTP.write(Array(request.utf8), to: idle))
            #expect(
                String(decoding: RawHTTP.readAnswer(from: idle, isHead: false), as: UTF8.self).hasPrefix("HTTP/1.1 200")
            )
        }
        let stopped = await server.stop(signal)
        print("kfeed serve stopped \(stopped.seconds) s after signal \(signal), one idle connection open")
        #expect(stopped.status == 0)
        #expect(stopped.seconds < 5, "took \(stopped.seconds) s")
    }

    /// The signal closes every connection that is not in the middle of a request at once, whatever answered it
    /// before (the router, or the event loop for pictures) or if nothing or half a request head came, while a request
    /// still being sent is let finish and answered. With a 30 s idle timeout a connection the shutdown passed over
    /// would stay open until the graceful bound (4 s) cut it and the request in flight with it: the order of events
    /// shows it, not their timing.
    @Test func aSignalClosesIdleConnectionsAtOnceAndLetsARequestInFlightFinish() async throws {
        let cache = try await KFeedProcess.sampleCache()
        defer { cache.remove() }
        let server = try await Self.serve(cache, ["--idle-timeout", "30"])
        let host = "Host: 127.0.0.1:\(server.port)\r\n"
        var idle: [(kind: String, descriptor: Int32)] = []
        defer { for connection in idle { close(connection.descriptor) } }
        for (kind, paths) in [
            ("router", ["/healthz"]), ("router", ["/current.json"]), ("event loop", ["/current.jpg"]),
            ("event loop", ["/current.jpg", "/current.jpg"]), ("both", ["/current.jpg", "/current.json"]),
            ("nothing sent", []), ("nothing sent", []), ("half a head", []),
        ] {
            let descriptor = try #require(RawHTTP.connect(port: server.port))
            idle.append((kind, descriptor))
            for path in paths {
                #expect(RawHTTP.write(Array("GET \(path) HTTP/1.1\r\n\(host)\r\n".utf8), to: descriptor))
                let answer = try RawHTTP.parse(RawHTTP.readAnswer(from: descriptor, isHead: false), isHead: false)
                #expect(answer.status == 200, "\(kind) \(path)")
            }
            if kind == "half a head" {
                #expect(RawHTTP.write(Array("GET /healthz HTTP/1.1\r\nHo".utf8), to: descriptor))
            }
        }
        // A log post whose body is half sent, behind a request on the same connection in the same write: once that
        // request's answer is in, the server has read the post's head (it decodes a read's requests in one go).
        let posting = try #require(RawHTTP.connect(port: server.port))
        defer { close(posting) }
        let post = "GET /healthz HTTP/1.1\r\n\(host)\r\nPOST /api/log HTTP/1.1\r\n\(host)Content-Length: 20\r\n\r\n"
        #expect(RawHTTP.write(Array((post + "0123456789").utf8), to: posting))
        #expect(try RawHTTP.parse(RawHTTP.readAnswer(from: posting, isHead: false), isHead: false).status == 200)

        // After the signal, on a thread of its own (not held up by a busy cooperative pool): the idle connections
        // must close, and only then the rest of the post is sent; it was not cut with them, and gets its answer.
        let descriptors = idle.map(\.descriptor)
        let stopped = await server.stop(SIGTERM) {
            let closed = Self.closedByServer(descriptors)
            RawHTTP.write(Array("0123456789".utf8), to: posting)
            let answer = try? RawHTTP.parse(RawHTTP.readAnswer(from: posting, isHead: false), isHead: false)
            return (closed: closed, posted: answer?.status ?? 0, postClosed: Self.closedByServer([posting]))
        }
        for (kind, closed) in zip(idle.map(\.kind), stopped.meanwhile.closed) {
            #expect(closed, "an idle connection (\(kind)) stayed open after the signal")
        }
        #expect(stopped.meanwhile.posted == 204, "the post in flight got \(stopped.meanwhile.posted) (0: none): cut")
        #expect(stopped.meanwhile.postClosed == [true])
        print("kfeed serve stopped \(stopped.seconds) s after SIGTERM, eight idle connections and a post in flight")
        #expect(stopped.status == 0)
        #expect(stopped.seconds < 5, "took \(stopped.seconds) s")
    }

    /// Whether the server closed each of `descriptors` (end of stream or reset) before its receive timeout.
    private static func closedByServer(_ descriptors: [Int32]) -> [Bool] {
        var buffer = [UInt8](repeating: 0, count: 4096)
        return descriptors.map { descriptor in
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if count == 0 { return true }
                if count < 0 { return errno != EAGAIN && errno != EWOULDBLOCK }
            }
        }
    }
}

/// Set once by one task, read by another. `@unchecked Sendable`: `value` is only touched under `lock`.
/// What the refresher and the reader of a race tell each other: the refresher is done; the reader has read this often.
private final class RaceProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var finished = false
    private var rounds = 0

    var isFinished: Bool { lock.withLock { finished } }

    var readerRounds: Int {
        get { lock.withLock { rounds } }
        set { lock.withLock { rounds = newValue } }
    }

    func finish() { lock.withLock { finished = true } }
}

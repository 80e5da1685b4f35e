import Foundation
import KFeed
import KFeedBase
import KFeedHTTP
import KFeedTestSupport
import Testing

/// `kfeed serve` with a feeds file: the built binary serving two feeds (``TwoFeeds``) on `127.0.0.1:0`, each under
/// `/f/NAME/`, the first also at the paths of a server without a feeds file, read by libcurl.
@Suite(.timeLimit(.minutes(3)))
struct ServeFeedsTests {
    private static let key = "f33ds-Key_0123456789"
    /// The instant the feeds are refreshed at, and the server's clock starts at (an hour and a half later).
    private static let refreshed = Date(timeIntervalSince1970: 1_795_338_000)  // 2026-11-22T09:00:00Z
    private static let serving = "2026-11-22T10:30:00Z"

    private static func get(_ url: String, headers: [HTTPHeader] = []) async throws -> KFeedHTTP.HTTPResponse {
        try await CurlTransport().send(HTTPRequest(url: try #require(URL(string: url)), headers: headers))
    }

    private static func json(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    private static func text(_ response: KFeedHTTP.HTTPResponse) -> String {
        String(decoding: response.body, as: UTF8.self)
    }

    private static func serve(_ feeds: TwoFeeds, _ more: [String] = []) async throws -> RunningServer {
        try await RunningServer.start(
            ["--config", feeds.config.path, "--cache", feeds.cache.path, "--now", serving, "--listen", "127.0.0.1:0"]
                + more
        )
    }

    // MARK: - Paths

    @Test func everyFeedIsServedUnderItsOwnPathAndTheOldPathsServeTheFirst() async throws {
        let feeds = try await TwoFeeds.make(now: Self.refreshed)
        defer { feeds.remove() }
        let server = try await Self.serve(feeds)
        let base = server.base
        #expect(server.line == "kfeed: serving 2 feeds (news, pets) from \(feeds.cache.path) at \(base)/")
        for (feed, prefix) in [("news", "/f/news"), ("pets", "/f/pets"), ("news", "")] {
            let entry = try feeds.manifest(of: feed).entries[1]  // 10:00Z covers 10:30Z
            let image = try #require(entry.image)
            let avatar = try #require(entry.author.avatar)
            // current.json: the feed's entry, its URLs under the prefix the request used.
            let current = try await Self.get("\(base)\(prefix)/current.json")
            let json = try Self.json(current.body)
            #expect(json["tweet_id"] as? String == entry.tweetID, "\(prefix)")
            #expect((json["image_url"] as? String)?.hasPrefix("\(base)\(prefix)/\(image)?v=") == true, "\(json)")
            #expect((json["avatar_url"] as? String)?.hasPrefix("\(base)\(prefix)/\(avatar)?v=") == true)
            #expect(current[header: "cache-control"] == "public, stale-while-revalidate=10")
            let versioned = try await Self.get(try #require(json["image_url"] as? String))
            #expect(versioned.body == (try feeds.data(image, of: feed)))
            #expect(versioned[header: "cache-control"] == "public, max-age=31536000, immutable")
            // The picture, the timeline, the render, the widget: the feed's own.
            #expect((try await Self.get("\(base)\(prefix)/current.jpg")).body == (try feeds.data(image, of: feed)))
            let timeline = try await Self.get("\(base)\(prefix)/timeline.json")
            #expect(timeline.body == (try feeds.data("timeline.json", of: feed)))
            let render = try #require(entry.renders?["trmnl"])
            let rendered = try await Self.get("\(base)\(prefix)/current.jpg?profile=trmnl")
            let renderOnDisk = try feeds.data(render, of: feed)
            #expect(rendered.status == 200 && rendered.body == renderOnDisk)
            let widget = Self.text(try await Self.get("\(base)\(prefix)/widget"))
            #expect(widget.contains("<img class=\"picture\" src=\"\(image)?v="))
            #expect(widget.contains("data-until=\"2026-11-22T11:00:00Z\""))
        }
        // Each feed's page is what / is without a feeds file: its timeline as cards.
        for feed in ["news", "pets"] {
            let page = Self.text(try await Self.get("\(base)/f/\(feed)/"))
            #expect(page.components(separatedBy: "<li class=\"card").count - 1 == 6)
            #expect(page.contains("src=\"\(try #require(try feeds.manifest(of: feed).entries[1].image))?v="))
        }
        // Nothing of pets is served outside its prefix: the old paths serve news's timelines only.
        let petsImage = try #require(try feeds.manifest(of: "pets").entries[1].image)
        #expect((try await Self.get("\(base)/\(petsImage)")).status == 404)
        #expect((try await Self.get("\(base)/f/pets/\(petsImage)")).status == 200)
        #expect((await server.stop()).status == 0)
    }

    // MARK: - TRMNL and the key

    @Test func eachTRMNLDeviceGetsItsOwnFeedsPictureAndSignedURLsOutliveARestart() async throws {
        let serve = """
            [serve]
            key_file = "key"

            [serve.trmnl]
            "aa:bb:cc:00:00:02" = "pets"
            """
        let feeds = try await TwoFeeds.make(now: Self.refreshed, serve: serve)
        defer { feeds.remove() }
        try Data("\(Self.key)\n".utf8).write(to: feeds.directory.url.appendingPathComponent("key"))
        let server = try await Self.serve(feeds, ["--trmnl-device", "AA:BB:CC:00:00:01", "-v"])
        let base = server.base
        let device = { (id: String) in [HTTPHeader("ID", id), HTTPHeader("Access-Token", Self.key)] }

        // The key goes to the devices of either feed, to no other.
        for id in ["AA:BB:CC:00:00:01", "aa:bb:cc:00:00:02"] {
            let setup = try await Self.get("\(base)/api/setup", headers: [HTTPHeader("ID", id)])
            let handed = try Self.json(setup.body)["api_key"] as? String
            #expect(setup.status == 200 && handed == Self.key)
        }
        #expect(
            (try await Self.get("\(base)/api/setup", headers: [HTTPHeader("ID", "AA:BB:CC:00:00:03")])).status == 404
        )

        // Each device's /api/display shows its own feed's render, under that feed's prefix, signed.
        var urls: [String: String] = [:]
        for (id, feed, prefix) in [
            ("AA:BB:CC:00:00:01", "news", ""), ("AA:BB:CC:00:00:02", "pets", "/f/pets"),
            ("AA:BB:CC:00:00:03", "news", ""),
        ] {
            let render = try #require(try feeds.manifest(of: feed).entries[1].renders?["trmnl"])
            let display = try Self.json((try await Self.get("\(base)/api/display", headers: device(id))).body)
            let url = try #require(display["image_url"] as? String)
            #expect(url.hasPrefix("\(base)\(prefix)/\(render)?v=") && url.contains("&sig="), "\(id): \(url)")
            let picture = try await Self.get(url)  // no key: the signature lets it in
            let onDisk = try feeds.data(render, of: feed)
            #expect(picture.status == 200 && picture.body == onDisk)
            #expect(picture[header: "cache-control"] == "public, max-age=31536000, immutable")
            urls[feed] = url
        }
        // /f/NAME/api/display is that feed's whatever the device.
        let direct = try Self.json((try await Self.get("\(base)/f/pets/api/display", headers: device("X"))).body)
        #expect(direct["image_url"] as? String == urls["pets"])
        // A signature names its path: pets' signature does not open the same path of news, nor a path unsigned.
        let petsURL = try #require(urls["pets"])
        let moved = petsURL.replacingOccurrences(of: "/f/pets/", with: "/f/news/")
        #expect((try await Self.get(moved)).status == 401)
        #expect((try await Self.get("\(base)/f/pets/current.json")).status == 401)
        #expect((await server.stop()).status == 0)
        #expect(!server.stderr.contains(Self.key))

        // The same key after a restart: the same URLs, which still open their pictures.
        let again = try await Self.serve(feeds)
        let display = try Self.json(
            (try await Self.get("\(again.base)/api/display", headers: device("aa:bb:cc:00:00:02"))).body
        )
        let signed = try #require(display["image_url"] as? String)
        let path = { (url: String) in String(url.drop { $0 != "/" }.dropFirst(2).drop { $0 != "/" }) }
        #expect(path(signed) == path(petsURL))
        #expect((try await Self.get("\(again.base)\(path(petsURL))")).status == 200)
        #expect((await again.stop()).status == 0)
    }

    // MARK: - [serve]

    @Test func serveTableGivesTheAddressAndTheKeyFileWhichFlagsOverride() async throws {
        let serve = """
            [serve]
            listen = "0.0.0.0:0"
            """
        let feeds = try await TwoFeeds.make(now: Self.refreshed, serve: serve)
        defer { feeds.remove() }
        let arguments = ["serve", "--config", feeds.config.path, "--cache", feeds.cache.path]
        // Listening beyond loopback from the file needs a key as from the flag.
        let refused = try await KFeedProcess.run(arguments)
        #expect(refused.status == 78 && refused.stderr.contains("0.0.0.0:0 accepts other machines"), "\(refused)")

        // key_file, relative to the file's directory; --listen overrides the file's address.
        let keyed = feeds.config.deletingLastPathComponent()
        try Data("\(Self.key)\n".utf8).write(to: keyed.appendingPathComponent("serve.key"))
        try Data("other-key\n".utf8).write(to: keyed.appendingPathComponent("other.key"))
        var text = try String(contentsOf: feeds.config, encoding: .utf8)
        text += "key_file = \"serve.key\"\n"
        try Data(text.utf8).write(to: feeds.config)
        let server = try await Self.serve(feeds)
        #expect((try await Self.get("\(server.base)/f/news/current.json")).status == 401)
        let bearer = [HTTPHeader("Authorization", "Bearer \(Self.key)")]
        #expect((try await Self.get("\(server.base)/f/news/current.json", headers: bearer)).status == 200)
        #expect((await server.stop()).status == 0)
        // --key-file overrides the file's key file.
        let other = try await Self.serve(feeds, ["--key-file", keyed.appendingPathComponent("other.key").path])
        #expect((try await Self.get("\(other.base)/current.json", headers: bearer)).status == 401)
        let otherBearer = [HTTPHeader("Authorization", "Bearer other-key")]
        #expect((try await Self.get("\(other.base)/current.json", headers: otherBearer)).status == 200)
        #expect((await other.stop()).status == 0)

        // A listen that is no address: exit 78, naming the file, its line and the key.
        try Data(text.replacingOccurrences(of: "0.0.0.0:0", with: "somewhere").utf8).write(to: feeds.config)
        let bad = try await KFeedProcess.run(arguments)
        #expect(bad.status == 78 && bad.stderr.contains("kfeed.toml:"), "\(bad)")
        #expect(bad.stderr.contains("serve.listen: 'somewhere' is not HOST:PORT"), "\(bad)")
    }

    /// `[serve] idle_timeout` is the idle timeout unless `--idle-timeout` says: a connection that sends nothing is
    /// closed after the file's 1 s (its read waits up to 10 s), and is still open after 3 s with the flag's 3600 s
    /// (the file's 1 s and the default 5 s would both have closed it by then or soon after: a bound, not a speed check).
    @Test func serveTableGivesTheIdleTimeoutWhichTheFlagOverrides() async throws {
        let feeds = try await TwoFeeds.make(now: Self.refreshed, serve: "[serve]\nidle_timeout = 1")
        defer { feeds.remove() }
        for (more, wait, closes) in [([String](), 10, true), (["--idle-timeout", "3600"], 3, false)] {
            let server = try await Self.serve(feeds, more)
            let descriptor = try #require(RawHTTP.connect(port: server.port, timeoutSeconds: wait))
            var byte: UInt8 = 0
            let count = recv(descriptor, &byte, 1, 0)  // 0: closed by the server; -1: still open when the wait ends
            close(descriptor)
            #expect((count == 0) == closes, "\(more): recv gave \(count)")
            #expect((await server.stop()).status == 0)
        }
        // An idle timeout out of range: exit 78, naming the file, its line and the key.
        try Data("[feeds.news]\nquery = \"cats\"\n[serve]\nidle_timeout = 0\n".utf8).write(to: feeds.config)
        let bad = try await KFeedProcess.run(["serve", "--config", feeds.config.path, "--cache", feeds.cache.path])
        #expect(bad.status == 78 && bad.stderr.contains("kfeed.toml:4: serve.idle_timeout"), "\(bad)")
        #expect(bad.stderr.contains("must be a whole number 1…3600"), "\(bad)")
    }

    // MARK: - Health and refresh

    @Test func healthzCarriesTheStatusFiguresAndIs503WhileAFeedIsStale() async throws {
        // pets was refreshed a day before only: its timeline ran out.
        let feeds = try await TwoFeeds.make(now: Self.refreshed, refreshed: ["news"])
        defer { feeds.remove() }
        let server = try await Self.serve(feeds)
        let health = try await Self.get("\(server.base)/healthz")
        #expect(health.status == 503 && health[header: "cache-control"] == "no-store")
        let json = try Self.json(health.body)
        // Today's fields for the default feed; status and reason name the feed that is not ok.
        #expect(json["generated_at"] as? String == "2026-11-22T09:00:00Z")
        #expect(json["reload_after"] as? String == "2026-11-22T14:00:00Z")
        #expect(json["status"] as? String == "stale")
        #expect(
            (json["reason"] as? String)?.hasPrefix("feed pets: the timeline ran out at 2026-11-21T15:00:00Z") == true
        )
        // The figures `kfeed status --json` prints, per feed and for the budget (with the server's --replay: a feed is
        // due when its settings differ from its timeline's, and a replay's feeds keep no history by default).
        let printed = try await KFeedProcess.run([
            "status", "--json", "--config", feeds.config.path, "--cache", feeds.cache.path, "--now", Self.serving,
            "--replay", Fixture.replay("sample").path,
        ])
        let status = try Self.json(Data(printed.stdout.utf8))
        let served = try #require(json["feeds"] as? [[String: Any]])
        let expected = try #require(status["feeds"] as? [[String: Any]])
        #expect(served.map { $0["name"] as? String } == ["news", "pets"])
        #expect(served.map { $0["status"] as? String } == ["ok", "stale"])
        for (feed, figures) in zip(served, expected) {
            for (key, value) in figures {
                #expect(
                    NSDictionary(dictionary: [key: value]) == NSDictionary(dictionary: [key: feed[key] ?? NSNull()])
                )
            }
        }
        let budget = try #require(json["budget"] as? [String: Any])
        #expect(
            NSDictionary(dictionary: budget)
                == NSDictionary(dictionary: try #require(status["budget"] as? [String: Any]))
        )
        // /f/NAME/healthz is that feed's, as a server without a feeds file answers.
        let news = try await Self.get("\(server.base)/f/news/healthz")
        let newsHealth = try Self.json(news.body)
        #expect(news.status == 200 && newsHealth["feeds"] == nil)
        #expect((try await Self.get("\(server.base)/f/pets/healthz")).status == 503)

        // A refresh of pets: every feed is ok.
        try await feeds.refresh(at: Self.refreshed.addingTimeInterval(3_600), ["--feed", "pets"])
        let healthy = try await Self.get("\(server.base)/healthz")
        let healthyJSON = try Self.json(healthy.body)
        #expect(healthy.status == 200 && healthyJSON["status"] as? String == "ok")
        #expect((await server.stop()).status == 0)
    }

    @Test func withRefreshOneRefreshFillsEveryFeedUnderTheBudgetWithTheDevicesRenders() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let config = directory.url.appendingPathComponent("kfeed.toml")
        try Data(
            """
            [budget]
            posts_per_day = 100

            [feeds.news]
            query = "news has:images"
            entries = 6

            [feeds.pets]
            query = "pets has:images"
            entries = 6

            [serve.trmnl]
            "AA:BB:CC:00:00:02" = "pets"

            """.utf8
        ).write(to: config)
        let cache = directory.url.appendingPathComponent("cache")
        let started = Date()
        let server = try await RunningServer.start([
            "--config", config.path, "--cache", cache.path, "--listen", "127.0.0.1:0", "--now", Self.serving,
            "--refresh",
        ])
        var health: [String: Any] = [:]
        for _ in 0..<300 {
            let answer = try await Self.get("\(server.base)/healthz")
            health = try Self.json(answer.body)
            if answer.status == 200 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(health["status"] as? String == "ok", "\(health)")
        // One refresh for both, under one ledger: the budget's figures count what it read.
        let budget = try #require(health["budget"] as? [String: Any])
        #expect(budget["posts_per_day"] as? Int == 100)
        #expect((budget["posts_today"] as? Int ?? 0) > 0 && (budget["posts_today"] as? Int ?? 0) <= 100)
        #expect(FileManager.default.fileExists(atPath: cache.appendingPathComponent("ledger.json").path))
        // pets shows a TRMNL device: its refresh rendered trmnl for every entry; news was rendered nothing.
        let pets = try #require(try CacheStore(directory: cache.appendingPathComponent("feeds/pets")).manifest())
        let news = try #require(try CacheStore(directory: cache.appendingPathComponent("feeds/news")).manifest())
        #expect(pets.entries.allSatisfy { $0.renders?["trmnl"] != nil })
        #expect(news.entries.allSatisfy { ($0.renders ?? [:]).isEmpty })
        let current = try Self.json((try await Self.get("\(server.base)/f/pets/current.json")).body)
        // Dated by the server's clock, which starts at --now and runs: at the refresh made at start-up (within the
        // seconds the start took on a busy machine).
        let date = try #require((current["date"] as? String).flatMap(InstantFormat.date(from:)))
        let serving = try #require(InstantFormat.date(from: Self.serving))
        #expect(date >= serving && date <= serving.addingTimeInterval(Date().timeIntervalSince(started)), "\(date)")
        #expect((await server.stop()).status == 0)
    }
}

import Foundation
import KFeed
import KFeedBase
import KFeedHTTP
import KFeedTestSupport
import Testing

/// The requests of the dashboards `docs/dashboards.md` configures, as those clients send them, against the built
/// binary: Home Assistant's template image and generic camera (its httpx client's headers), its `feedreader`
/// (feedparser itself, fetching the URL, then again with the `ETag` it was given), MagicMirror's MMM-Wallpaper
/// (Chromium fetching the URL with the module's cache-busting parameter), with and without a key.
@Suite(.timeLimit(.minutes(3)))
struct DashboardClientsTests {
    private static let serving = "2026-11-22T10:30:00Z"
    private static let key = "dashb0ard-Key_0123456789"
    private static let homeAssistant = [
        HTTPHeader("User-Agent", "HomeAssistant/2026.11.0 httpx/0.28.1 Python/3.13"), HTTPHeader("Accept", "*/*"),
        HTTPHeader("Accept-Encoding", "gzip, deflate"),
    ]
    private static let chromium = [
        HTTPHeader(
            "User-Agent",
            "Mozilla/5.0 (X11; Linux aarch64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36"
        ),
        HTTPHeader("Accept", "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"),
        HTTPHeader("Accept-Encoding", "gzip, deflate, br"),
    ]

    private static func get(_ url: String, headers: [HTTPHeader]) async throws -> KFeedHTTP.HTTPResponse {
        try await CurlTransport().send(HTTPRequest(url: try #require(URL(string: url)), headers: headers))
    }

    @Test(arguments: [false, true])
    func everyDashboardGetsTheCurrentPicture(keyed: Bool) async throws {
        let cache = try await KFeedProcess.sampleCache()
        defer { cache.remove() }
        let keyFile = cache.url.appendingPathComponent("serve.key")
        try Self.key.write(to: keyFile, atomically: true, encoding: .utf8)
        let server = try await RunningServer.start(
            ["--cache", cache.url.path, "--now", Self.serving, "--listen", "127.0.0.1:0"]
                + (keyed ? ["--key-file", keyFile.path] : [])
        )
        defer { Task { _ = await server.stop() } }
        let manifest = try #require(try CacheStore(directory: cache.url).manifest())
        let now = try #require(InstantFormat.date(from: Self.serving))
        let index = try #require(manifest.currentEntryIndex(at: now))
        let entry = manifest.entries[index]
        let picture = try Data(contentsOf: cache.url.appendingPathComponent(try #require(entry.image)))
        let query = keyed ? "?key=\(Self.key)" : ""
        let join = keyed ? "&" : "?"

        // Home Assistant: the REST sensor reads /current.json, the template image fetches its image_url.
        let current = try await Self.get("\(server.base)/current.json\(query)", headers: Self.homeAssistant)
        #expect(current.status == 200)
        let json = try #require(try JSONSerialization.jsonObject(with: current.body) as? [String: Any])
        let imageURL = try #require(json["image_url"] as? String)
        let image = try await Self.get(imageURL, headers: Self.homeAssistant)
        #expect(image.status == 200, "\(imageURL)")
        #expect(image[header: "content-type"]?.hasPrefix("image/") == true)
        #expect(image.body == picture)
        // The template with the hour in its URL, and the generic camera's still image URL.
        for path in ["/current.jpg\(query)\(join)hour=2026112210", "/current.jpg\(query)"] {
            let still = try await Self.get(server.base + path, headers: Self.homeAssistant)
            #expect(still.status == 200, "\(path)")
            #expect(still[header: "content-type"] == "image/jpeg")
            #expect(still.body == picture)
        }

        // MagicMirror's MMM-Wallpaper: Chromium loads the URL with the module's cache buster.
        let wallpaper = try await Self.get(
            "\(server.base)/current.jpg\(query)\(join)mmm-wallpaper-ts=1795343400000",
            headers: Self.chromium
        )
        #expect(wallpaper.status == 200)
        #expect(wallpaper.body == picture)

        // Home Assistant's feedreader: feedparser fetches the feed itself, then again with the ETag it was given.
        let feedURL = "\(server.base)/feed.xml\(query)"
        let polled = try await Self.feedparser(feedURL)
        #expect(polled["status"] as? Int == 200, "\(polled)")
        #expect(polled["bozo"] as? Int == 0, "\(polled)")
        #expect(polled["entries"] as? Int == 2, "09:00 and 10:00 have begun")
        #expect(polled["first_link"] as? String == entry.url.absoluteString)
        #expect((polled["first_image"] as? String)?.hasPrefix("\(server.base)/\(entry.image ?? "")") == true)
        #expect(polled["again"] as? Int == 304, "\(polled)")
    }

    /// Runs feedparser as Home Assistant's feedreader does (`feedparser.parse(url)`, then with the `etag` and
    /// `modified` it returned) and reports what it saw.
    private static func feedparser(_ url: String) async throws -> [String: Any] {
        let script = """
            import json, sys, feedparser
            first = feedparser.parse(sys.argv[1])
            again = feedparser.parse(sys.argv[1], etag=first.get("etag"), modified=first.get("modified"))
            entries = first.entries
            print(json.dumps({
                "status": first.get("status"), "bozo": int(first.bozo), "entries": len(entries),
                "first_link": entries[0].link if entries else None,
                "first_image": entries[0].media_content[0]["url"] if entries else None,
                "again": again.get("status"),
            }))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, url]
        process.environment = ["PATH": "/usr/bin:/bin", "NO_PROXY": "*", "no_proxy": "*"]
        let result = try await KFeedProcess.outcome(of: process)
        return try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
            "feedparser: \(result.stderr)"
        )
    }
}

import Foundation
import KFeed
import KFeedBase
import KFeedHTTP
import KFeedImages
import KFeedTestSupport
import Testing

/// `kfeed serve` for the screens with no code of kfeed's: simulated TRMNL devices of each model (their headers as
/// the firmware sends them), a Waveshare PhotoPainter in URL mode, and a browser-based device simulator on another
/// origin (CORS), against the built binary serving the bundled sample; every picture decoded by libspng.
@Suite(.timeLimit(.minutes(4)))
struct ServeDevicesTests {
    private static let key = "d3vice-Key_0123456789"
    private static let mac = "AA:BB:CC:00:11:22"

    /// Serves `cache` at `now` (moving on in real time) on a free loopback port.
    private static func serve(
        _ cache: TemporaryDirectory,
        now: String = "2026-11-22T10:30:00Z",
        _ more: [String] = []
    ) async throws -> RunningServer {
        try await RunningServer.start(["--cache", cache.url.path, "--listen", "127.0.0.1:0", "--now", now] + more)
    }

    /// What a device got: `/api/display`'s JSON, and the picture behind its `image_url`.
    private struct Shown {
        var filename: String
        var imageURL: String
        var bytes: [UInt8]
        var etag: String?
        var png: DecodedPNG
    }

    /// `GET /api/display` with `headers` (names exactly as given, over a plain socket), then the picture.
    private static func display(
        _ server: RunningServer,
        _ headers: [(String, String)],
        path: String = "/api/display"
    ) async throws -> Shown {
        let answer = try await RawHTTP.request("GET", path, port: server.port, headers: headers)
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.headers["cache-control"] == "no-store")
        let json = try answer.json()
        #expect(json["status"] as? Int == 0)
        let filename = try #require(json["filename"] as? String, "\(json)")
        let url = try #require(json["image_url"] as? String, "\(json)")
        let target = String(try #require(url.firstMatch(of: /^http:\/\/127\.0\.0\.1:\d+(\/.*)$/)?.output.1))
        let picture = try await RawHTTP.request("GET", target, port: server.port)
        #expect(picture.status == 200 && picture.headers["content-type"] == "image/png")
        return Shown(
            filename: filename,
            imageURL: url,
            bytes: picture.body,
            etag: picture.headers["etag"],
            png: try DecodedPNG(Data(picture.body))
        )
    }

    /// Width, height, bit depth and colour type.
    private static func shape(_ png: DecodedPNG) -> [Int] {
        [png.width, png.height, png.bitDepth, png.colourType]
    }

    // MARK: - TRMNL

    @Test func eachTRMNLModelGetsAPictureOfItsSizeDepthAndByteLimit() async throws {
        let cache = try await KFeedProcess.sampleCache()
        defer { cache.remove() }
        let server = try await Self.serve(cache)

        // TRMNL OG on a firmware before 2-bit PNGs: 800×480, 1 bit, grey (no palette table), ≤ 90,000 bytes.
        let og = try await Self.display(
            server,
            [
                ("ID", Self.mac), ("Access-Token", "x"), ("Refresh-Rate", "1800"), ("Battery-Voltage", "4.1"),
                ("FW-Version", "1.5.2"), ("RSSI", "-61"), ("Width", "800"), ("Height", "480"),
                ("special_function", "true"), ("X-Unknown", "ignored"),
            ]
        )
        #expect(Self.shape(og.png) == [800, 480, 1, 0])
        #expect(og.bytes.count < 90_000 && og.png.palette.isEmpty)
        // `filename` is the picture's digest (its ETag's), the device's cache key.
        let ogVersion = try #require(og.etag?.dropFirst().dropLast())
        #expect(og.filename == "kfeed-\(ogVersion).png" && og.imageURL.contains("?v=\(ogVersion)"))
        // The same picture keeps its name; /api/current_screen (the mirror apps') answers the same.
        #expect((try await Self.display(server, [("ID", Self.mac)])).filename == og.filename)
        #expect(
            (try await Self.display(server, [("ID", Self.mac)], path: "/api/current_screen")).filename == og.filename
        )

        // TRMNL OG on 1.6.0 and later: its 2-bit mode, 4 greys, ≤ 90,000 bytes; another picture, another name.
        let og2 = try await Self.display(
            server,
            [
                ("ID", "AA:BB:CC:00:11:23"), ("Model", "og"), ("FW-Version", "1.6.0"), ("Width", "800"),
                ("Height", "480"),
            ]
        )
        #expect(Self.shape(og2.png) == [800, 480, 2, 0])
        #expect(og2.bytes.count < 90_000 && og2.filename != og.filename)

        // TRMNL X, header names in lower case: 1872×1404, 4-bit grey, ≤ 750,000 bytes.
        let x = try await Self.display(
            server,
            [
                ("id", "AA:BB:CC:00:11:24"), ("access-token", "x"), ("model", "x"), ("width", "1872"),
                ("height", "1404"), ("fw-version", "1.6.2"), ("battery-voltage", "3.9"), ("rssi", "-70"),
            ]
        )
        #expect(Self.shape(x.png) == [1872, 1404, 4, 0])
        #expect(x.bytes.count < 750_000 && x.png.palette.isEmpty)
        #expect(Set(x.png.rows.prefix(200_000).flatMap { [$0 >> 4, $0 & 15] }).count > 4, "16 greys in use")
        #expect(x.filename.hasPrefix("kfeed-") && x.filename != og.filename)

        // Another board, by its size: a 1-bit render at that size within the small boards' limit.
        let other = try await Self.display(server, [("ID", "AA:BB:CC:00:11:25"), ("Width", "1024"), ("Height", "600")])
        #expect(Self.shape(other.png) == [1024, 600, 1, 0])
        #expect(other.bytes.count < 90_000)
        // A size that is no number is ignored: the OG's picture.
        let odd = try await Self.display(server, [("ID", Self.mac), ("Width", "wide"), ("Height", "-3")])
        #expect(odd.filename == og.filename)

        // BMP where asked: the firmware's 1-bit BMP3.
        let bmp = try await RawHTTP.request("GET", "/api/display?profile=trmnl-bmp", port: server.port)
        let bmpURL = try #require(try bmp.json()["image_url"] as? String)
        let bmpPath = String(try #require(bmpURL.firstMatch(of: /^http:\/\/127\.0\.0\.1:\d+(\/.*)$/)?.output.1))
        let bmpFile = try await RawHTTP.request("GET", bmpPath, port: server.port)
        #expect(bmpFile.body.count == 48_062 && bmpFile.body.prefix(2) == [0x42, 0x4D])
        let bmpName = try bmp.json()["filename"] as? String
        #expect(bmpName?.hasSuffix(".bmp") == true)

        // /api/setup as the firmware calls it (with a trailing slash), then its log, kept for `kfeed status`.
        let setup = try await RawHTTP.request(
            "GET",
            "/api/setup/",
            port: server.port,
            headers: [("ID", Self.mac), ("FW-Version", "1.5.2")]
        )
        let handed = try setup.json()["api_key"] as? String
        #expect(setup.status == 200 && handed?.isEmpty == false)
        let log = """
            {"log":{"logs_array":[{"creation_timestamp":1764000000,"device_status_stamp":{"wifi_rssi_level":-61,\
            "battery_voltage":4.1,"current_fw_version":"1.5.2"},"log_id":7,"log_message":"returned code is not OK: 404",\
            "log_codeline":651,"log_sourcefile":"src/bl.cpp","additional_info":{"filename_current":"a","filename_new":"b"}}]}}
            """
        let posted = try await RawHTTP.request(
            "POST",
            "/api/log",
            port: server.port,
            headers: [("ID", Self.mac), ("Access-Token", "x"), ("Content-Type", "application/json")],
            body: Array(log.utf8)
        )
        #expect(posted.status == 204)
        #expect((await server.stop()).status == 0)

        let status = try await KFeedProcess.run([
            "status", "--cache", cache.url.path, "--now", "2026-11-22T10:31:00Z",
        ])
        #expect(status.status == 0, "\(status.stderr)")
        let line = try #require(
            status.stdout.split(separator: "\n").first { $0.hasPrefix(Self.mac) },
            "\(status.stdout)"
        )
        #expect(line.contains("firmware 1.5.2") && line.contains("battery 4.1 V") && line.contains("RSSI -61"))
        #expect(line.contains("800x480") && line.contains("shown trmnl"), "\(line)")
        #expect(status.stdout.contains("returned code is not OK: 404 (src/bl.cpp:651)"), "\(status.stdout)")
        #expect(status.stdout.contains("AA:BB:CC:00:11:24") && status.stdout.contains("model x"))
        let json = try await KFeedProcess.run(["status", "--json", "--cache", cache.url.path])
        let devices = try #require(
            (try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["devices"] as? [Any]
        )
        #expect(devices.count == 4)  // the OG twice, the 2-bit OG, the X, the other board
    }

    @Test func aTRMNLXRenderOfAPictureThatIsHardToCompressStaysWithinItsLimit() async throws {
        // The current entry's picture replaced by noise as large as the panel (the server renders from the cached
        // image when it covers the panel): 16 greys of noise would be ~1.3 MB; the cap's fallbacks bring it under.
        let cache = try await KFeedProcess.sampleCache()
        defer { cache.remove() }
        let timeline = cache.url.appendingPathComponent("timeline.json")
        var manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: timeline)) as? [String: Any]
        )
        var entries = try #require(manifest["entries"] as? [[String: Any]])
        let image = try #require(entries[1]["image"] as? String)
        let noise = try TestJPEG.jpeg(TestJPEG.noise(width: 1_872, height: 1_404), width: 1_872, height: 1_404)
        try noise.write(to: cache.url.appendingPathComponent(image))
        manifest["size"] = ["width": 1_872, "height": 1_404]
        entries[1]["renders"] = nil
        manifest["entries"] = entries
        try JSONSerialization.data(withJSONObject: manifest).write(to: timeline)
        let server = try await Self.serve(cache)
        let x = try await Self.display(server, [("id", Self.mac), ("model", "x")])
        #expect(Self.shape(x.png) == [1872, 1404, 4, 0])
        #expect(x.bytes.count < 750_000 && x.bytes.count > 300_000, "\(x.bytes.count) bytes")
        let og = try await Self.display(server, [("ID", Self.mac), ("FW-Version", "1.6.1")])
        #expect(Self.shape(og.png) == [800, 480, 2, 0] && og.bytes.count < 90_000)
        #expect((await server.stop()).status == 0)
    }

    // MARK: - PhotoPainter

    @Test func aPhotoPainterGetsASpectraSixPictureAtItsSizeAndOrientationWithETagAnd304() async throws {
        let cache = try await KFeedProcess.sampleCache()
        defer { cache.remove() }
        let server = try await Self.serve(cache)
        let frame = { (orientation: String) in
            [
                ("X-Display-Width", "800"), ("X-Display-Height", "480"), ("X-Display-Orientation", orientation),
                ("X-Firmware-Version", "2.7.0"), ("X-Processing-Settings", "{\"exposure\":1.0}"),
                ("User-Agent", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36"),
            ]
        }
        for (orientation, size): (String, [Int]) in [("landscape", [800, 480]), ("portrait", [480, 800])] {
            let answer = try await RawHTTP.request(
                "GET",
                "/current.png",
                port: server.port,
                headers: frame(orientation)
            )
            #expect(answer.status == 200 && answer.headers["content-type"] == "image/png", "\(answer.text)")
            let png = try DecodedPNG(Data(answer.body))
            // Six inks, as indices of a palette PNG.
            #expect(Self.shape(png) == size + [4, 3])
            #expect(png.palette.count == 6 && png.distinctColours.count <= 6 && png.distinctColours.count >= 4)
            #expect(answer.headers["vary"] == "X-Display-Width, X-Display-Height, X-Display-Orientation")
            #expect(answer.headers["cache-control"] == "public, stale-while-revalidate=10")
            // The frame's next fetch with the ETag it kept: 304, no body, no redraw.
            let etag = try #require(answer.headers["etag"])
            let again = try await RawHTTP.request(
                "GET",
                "/current.png",
                port: server.port,
                headers: frame(orientation) + [("If-None-Match", etag)]
            )
            #expect(again.status == 304 && again.body.isEmpty && again.headers["etag"] == etag)
        }
        // Without the frame's headers: a 400 saying what to use instead.
        let plain = try await RawHTTP.request("GET", "/current.png", port: server.port)
        #expect(plain.status == 400 && plain.text.contains("X-Display-Width"))
        #expect((await server.stop()).status == 0)
    }

    // MARK: - CORS

    @Test func corsPreflightsAreAnsweredForAnyOriginWhileTheKeyIsStillRequired() async throws {
        let cache = try await KFeedProcess.sampleCache()
        defer { cache.remove() }
        let keyFile = cache.url.appendingPathComponent("key")
        try Data("\(Self.key)\n".utf8).write(to: keyFile)
        let server = try await Self.serve(cache, ["--key-file", keyFile.path])
        let origin = ("Origin", "http://127.0.0.1:9")
        for path in ["/api/setup", "/api/display", "/api/log", "/current.json", "/feed.json", "/feed.xml"] {
            let preflight = try await RawHTTP.request(
                "OPTIONS",
                path,
                port: server.port,
                headers: [
                    origin, ("Access-Control-Request-Method", "GET"),
                    ("Access-Control-Request-Headers", "id,access-token,model"),
                ]
            )
            #expect(preflight.status == 204, "\(path): \(preflight.status)")
            #expect(preflight.headers["access-control-allow-origin"] == "*")
            #expect(preflight.headers["access-control-allow-headers"] == "id,access-token,model")
            #expect(preflight.headers["access-control-allow-methods"]?.contains("GET") == true)
            #expect(preflight.headers["access-control-max-age"] == "7200")
            #expect(preflight.headers["access-control-allow-credentials"] == nil)
        }
        // Without the headers asked for: the firmware's, the key's included.
        let bare = try await RawHTTP.request("OPTIONS", "/api/display", port: server.port, headers: [origin])
        #expect(bare.headers["access-control-allow-headers"]?.contains("Access-Token") == true)
        // The real requests still need the key: a 401 the page can read, then the answer with it.
        let refused = try await RawHTTP.request("GET", "/api/display", port: server.port, headers: [origin])
        #expect(refused.status == 401 && refused.headers["access-control-allow-origin"] == "*")
        let shown = try await RawHTTP.request(
            "GET",
            "/api/display",
            port: server.port,
            headers: [origin, ("Access-Token", Self.key)]
        )
        #expect(shown.status == 200 && shown.headers["access-control-allow-origin"] == "*")
        let current = try await RawHTTP.request("GET", "/current.json?key=\(Self.key)", port: server.port)
        #expect(current.status == 200 && current.headers["access-control-allow-origin"] == "*")
        // Not the pages: no CORS there.
        let widget = try await RawHTTP.request("OPTIONS", "/widget", port: server.port, headers: [origin])
        #expect(widget.status != 204 && widget.headers["access-control-allow-origin"] == nil)
        #expect((await server.stop()).status == 0)
    }

    @Test(
        .enabled(
            if: Chromium.executable != nil,
            "needs headless Chromium: no chromium or chromium-browser on PATH; run apt-get install -y chromium"
        )
    )
    func aBrowserDeviceSimulatorOnAnotherOriginSetsUpAndShowsThePicture() async throws {
        let cache = try await KFeedProcess.sampleCache()
        defer { cache.remove() }
        let keyFile = cache.url.appendingPathComponent("key")
        try Data("\(Self.key)\n".utf8).write(to: keyFile)
        let server = try await Self.serve(cache, ["--key-file", keyFile.path, "--trmnl-device", Self.mac, "-v"])
        // The simulator's page, from another origin (its own loopback port): setup with the device's ID, display
        // with the key setup handed over, then the picture, as a simulator shows it.
        let page = """
            <!DOCTYPE html><html><head><meta charset="utf-8"><title>simulator</title></head><body>
            <img id="screen" alt="">
            <script>
            const base = '\(server.base)', id = '\(Self.mac)';
            const report = (value) => { document.title = 'done'; window.report = JSON.stringify(value); };
            (async () => {
              try {
                const setup = await (await fetch(base + '/api/setup', { headers: { 'ID': id } })).json();
                const display = await (await fetch(base + '/api/display', { headers: {
                  'ID': id, 'Access-Token': setup.api_key, 'Model': 'og', 'Width': '800', 'Height': '480',
                  'FW-Version': '1.6.0', 'Refresh-Rate': '900', 'Battery-Voltage': '4.0', 'RSSI': '-50' } })).json();
                const screen = document.getElementById('screen');
                screen.onload = () => report({ key: setup.api_key, filename: display.filename,
                  width: screen.naturalWidth, height: screen.naturalHeight, refresh: display.refresh_rate });
                screen.onerror = () => report({ error: 'the image did not load: ' + display.image_url });
                screen.src = display.image_url;
              } catch (error) { report({ error: String(error) }); }
            })();
            </script></body></html>
            """
        let response = LoopbackServer.Response(
            headers: [HTTPHeader("Content-Type", "text/html; charset=utf-8")],
            body: Data(page.utf8)
        )
        struct Report: Decodable {
            var error: String?
            var key: String?
            var filename: String?
            var width: Int?
            var height: Int?
            var refresh: Int?
        }
        let report = try await LoopbackServer.with(responding: response) { simulator in
            let chromium = try await ChromiumSession.start()
            try await chromium.navigate(to: simulator.appendingPathComponent("simulator.html").absoluteString)
            var text = ""
            for _ in 0..<300 {
                text = try await chromium.evaluate("window.report || ''")
                if !text.isEmpty { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            let messages = chromium.messages
            await chromium.stop()
            #expect(!text.isEmpty, "the simulator reported nothing: \(messages)")
            return try JSONDecoder().decode(Report.self, from: Data(text.utf8))
        }
        #expect(report.error == nil, "\(report.error ?? "")")
        #expect(report.key == Self.key)
        #expect(report.width == 800 && report.height == 480)
        #expect(report.filename?.hasPrefix("kfeed-") == true && (report.refresh ?? 0) > 0)
        // The server saw the preflights and the real requests, each of those with the key (a 200, never a 401).
        #expect((await server.stop()).status == 0)
        let lines = server.stderr
        #expect(lines.contains("OPTIONS /api/setup 204") && lines.contains("OPTIONS /api/display 204"), "\(lines)")
        #expect(lines.contains("GET /api/setup 200") && lines.contains("GET /api/display 200"), "\(lines)")
        #expect(!lines.contains(" 401 "), "\(lines)")
    }
}

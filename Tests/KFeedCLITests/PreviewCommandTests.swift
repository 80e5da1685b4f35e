import Foundation
import KFeed
import KFeedBase
import KFeedImages
import KFeedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `kfeed preview` on a warm cache, then the page in a real browser (headless Chromium) loaded from `file://`.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct PreviewCommandTests {

    /// Runs `kfeed preview` and returns the page's path as printed.
    private static func preview(
        _ cache: TemporaryDirectory,
        now: String = "2026-11-22T12:30:00Z",
        environment: [String: String] = [:]
    ) async throws -> String {
        let result = try await KFeedProcess.run(
            ["preview", "--cache", cache.url.path, "--now", now],
            environment: environment
        )
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        return result.stdout.trimmingCharacters(in: .newlines)
    }

    // MARK: - The command

    @Test func previewWritesTheFileAtomicallyWithMode0644AndPrintsItsPath() async throws {
        let cache = try await KFeedProcess.sampleCache()
        defer { cache.remove() }
        let path = try await Self.preview(cache, environment: ["TZ": "Asia/Seoul"])
        #expect(path == cache.url.appendingPathComponent("preview.html").path)
        var info = stat()
        #expect(lstat(path, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFREG)
        #expect(info.st_mode & 0o777 == 0o644)
        let names = try FileManager.default.contentsOfDirectory(atPath: cache.url.path)
        #expect(!names.contains { $0.hasPrefix(".tmp-") })
        let html = try String(contentsOfFile: path, encoding: .utf8)
        #expect(html.components(separatedBy: "<li class=\"card").count - 1 == 6)
        #expect(html.components(separatedBy: "<li class=\"card is-current").count - 1 == 1)
        #expect(html.components(separatedBy: "<li class=\"card is-past").count - 1 == 3)
        #expect(html.contains("<span class=\"reason\">not a JPEG</span>"))
        // 12:00Z shown in the zone of the machine running kfeed (TZ), with its offset and the UTC instant.
        #expect(html.contains(#"datetime="2026-11-22T12:00:00Z" title="2026-11-22 21:00 +09:00"><b>21:00</b>"#))
        // A second run replaces the file in place.
        #expect(try await Self.preview(cache, now: "2026-11-22T13:30:00Z") == path)
        let again = try String(contentsOfFile: path, encoding: .utf8)
        #expect(again.components(separatedBy: "<li class=\"card is-past").count - 1 == 4)
    }

    @Test func previewWithoutATimelineExits69() async throws {
        let empty = try TemporaryDirectory()
        defer { empty.remove() }
        let result = try await KFeedProcess.run(["preview", "--cache", empty.url.path])
        #expect(result.status == 69)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("no timeline in \(empty.url.path) yet: run kfeed refresh"))
        #expect(!FileManager.default.fileExists(atPath: empty.url.appendingPathComponent("preview.html").path))
    }

    // MARK: - In a browser

    // These run only where Chromium is installed (Debian: `apt-get install -y chromium`); the test installs
    // nothing itself. Without it they are reported as skipped, with this reason.
    @Test(
        .enabled(
            if: Chromium.executable != nil,
            "needs headless Chromium: no chromium or chromium-browser on PATH; run apt-get install -y chromium"
        )
    )
    func chromiumShowsEveryCardWithEveryImageDecodedAndRunsNoScript() async throws {
        let cache = try await KFeedProcess.sampleCache()
        defer { cache.remove() }
        let path = try await Self.preview(cache)
        let manifest = try #require(try CacheStore(directory: cache.url).manifest())

        // 1. The DOM Chromium built from file://…/preview.html: every card, no script, and every <img src> is a
        //    relative path to a JPEG inside the cache.
        let dom = try await Chromium.run(["--dump-dom", URL(fileURLWithPath: path).absoluteString])
        #expect(dom.components(separatedBy: "<li class=\"card").count - 1 == manifest.entries.count)
        #expect(!dom.lowercased().contains("<script"))
        let sources = dom.matches(of: /<img [^>]*src="([^"]*)"/).map { String($0.output.1) }
        #expect(sources.count == 2 * manifest.entries.count)
        for source in sources {
            let file = cache.url.appendingPathComponent(source).standardizedFileURL
            #expect(file.path.hasPrefix(cache.url.standardizedFileURL.path + "/"), "\(source)")
            let bytes = try Data(contentsOf: file).prefix(3)
            #expect(Array(bytes) == [0xFF, 0xD8, 0xFF], "\(source) is not a JPEG")
        }

        // 2. What the page shows, read by a test-only harness page (below) that frames the unmodified preview:
        //    each image decoded to its real size with varied pixels, each widget the size of a small widget.
        let report = try await Chromium.report(on: "preview.html", in: cache.url)
        #expect(report.error == nil)
        #expect(report.cards == manifest.entries.count)
        #expect(report.images.count == sources.count)
        for image in report.images {
            #expect(image.complete && image.naturalWidth > 0, "\(image.src) did not load")
            let expected = image.className == "avatar" ? ImageSize.avatar : manifest.size
            #expect(image.naturalWidth == expected.width && image.naturalHeight == expected.height, "\(image.src)")
            #expect(image.distinctColors > 8, "\(image.src) decoded to a flat image")
        }
        #expect(report.widgets.count == manifest.entries.count)
        #expect(report.widgets.allSatisfy { $0 == [170, 170] }, "\(report.widgets)")
        #expect(report.scripts == 0 && report.handlers == 0)
        // The page's Content-Security-Policy is in force: a script and an event handler injected into it do not run…
        #expect(!report.injectedScriptRan && !report.injectedHandlerRan)
        // …whereas in a copy without the policy meta they do (so the probe can see a script run).
        let control = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(
            of: #"<meta http-equiv="Content-Security-Policy""#,
            with: #"<meta name="removed-policy""#
        )
        try Data(control.utf8).write(to: cache.url.appendingPathComponent("control.html"))
        let controlReport = try await Chromium.report(on: "control.html", in: cache.url)
        #expect(controlReport.injectedScriptRan && controlReport.injectedHandlerRan)

        // 3. A rendering: a PNG of the window's size with pictures in it (a blank page of this size is ~5 KB).
        let screenshot = cache.url.appendingPathComponent("screenshot.png")
        _ = try await Chromium.run([
            "--screenshot=\(screenshot.path)", "--window-size=1200,900", URL(fileURLWithPath: path).absoluteString,
        ])
        let png = try Data(contentsOf: screenshot)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(Chromium.pngSize(png) == [1200, 900])
        #expect(png.count > 50_000, "a \(png.count)-byte screenshot looks blank")
    }

    @Test(
        .enabled(
            if: Chromium.executable != nil,
            "needs headless Chromium: no chromium or chromium-browser on PATH; run apt-get install -y chromium"
        )
    )
    func maliciousPostsShowAsTextAndRunNothingInChromium() async throws {
        let cache = try await KFeedProcess.sampleCache()
        defer { cache.remove() }
        let script = "<script>alert(1)</script>"
        let image = #""><img src=x onerror=alert(1)>"#
        let bold = "<b onmouseover=alert(1)>Mallory</b>"
        // Edit the committed manifest (plain JSON) the way a hostile API answer would fill it.
        let manifestURL = cache.url.appendingPathComponent("timeline.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: manifestURL)) as? [String: Any])
        var entries = try #require(json["entries"] as? [[String: Any]])
        entries[0]["text"] = script
        entries[1]["text"] = image
        var author = try #require(entries[2]["author"] as? [String: Any])
        author["name"] = bold
        entries[2]["author"] = author
        var media = try #require(entries[3]["media"] as? [String: Any])
        media["alt_text"] = image
        entries[3]["media"] = media
        entries[5]["url"] = "javascript:alert(1)"
        entries[4]["image"] = "../timeline.json"
        json["entries"] = entries
        try JSONSerialization.data(withJSONObject: json).write(to: manifestURL)

        let path = try await Self.preview(cache)
        let dom = try await Chromium.run(["--dump-dom", URL(fileURLWithPath: path).absoluteString])
        #expect(!dom.contains("<img src=\"x\""))
        #expect(!dom.lowercased().contains("<script"))
        #expect(!dom.contains("<b "))
        #expect(!dom.contains("javascript:"))
        #expect(!dom.contains("src=\"../"))
        #expect(dom.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(dom.contains("\"&gt;&lt;img src=x onerror=alert(1)&gt;"))

        let report = try await Chromium.report(on: "preview.html", in: cache.url)
        #expect(report.error == nil)
        #expect(report.cards == 6)
        #expect(report.texts.prefix(2) == [script, image])
        #expect(report.names[2] == bold)
        #expect(report.scripts == 0 && report.handlers == 0 && report.bolds == 0)
        #expect(report.images.allSatisfy { $0.src != "x" && $0.naturalWidth > 0 })
        #expect(report.images.contains { $0.alt == image })
        // Six authors' profiles; five posts, each by its "View post on X" and its time (the sixth's URL is refused).
        #expect(report.links == 6 + 5 * 2)
    }
}

/// Headless Chromium, found on PATH, run with a profile of its own per call.
enum Chromium {
    /// `chromium` or `chromium-browser` on PATH; nil when neither is installed.
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            for name in ["chromium", "chromium-browser"] {
                let candidate = "\(directory)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }()

    /// What the harness page read from the preview in its frame.
    struct Report: Decodable {
        struct Image: Decodable {
            var src: String
            var alt: String
            var className: String
            var complete: Bool
            var naturalWidth: Int
            var naturalHeight: Int
            var distinctColors: Int
        }

        var error: String?
        var cards = 0
        var images: [Image] = []
        var widgets: [[Double]] = []
        var texts: [String] = []
        var names: [String] = []
        var scripts = 0
        var handlers = 0
        var bolds = 0
        var links = 0
        var injectedScriptRan = false
        var injectedHandlerRan = false
    }

    /// Loads `page` (a file in `directory`) in an iframe of a test-only harness page written beside it, and returns
    /// what the harness's script read from the framed document once it and all its images had loaded.
    ///
    /// The framed page is unmodified, so its Content-Security-Policy applies to it; the harness has no policy.
    /// `--allow-file-access-from-files` makes the two file:// documents same-origin so the harness can read the
    /// frame's DOM and draw its images on a canvas; `--virtual-time-budget` lets loading finish before the dump.
    static func report(on page: String, in directory: URL) async throws -> Report {
        let harness = directory.appendingPathComponent("harness-\(UUID().uuidString).html")
        try Data(harnessHTML(page: page).utf8).write(to: harness)
        defer { try? FileManager.default.removeItem(at: harness) }
        let dom = try await run([
            "--allow-file-access-from-files", "--virtual-time-budget=10000", "--dump-dom", harness.absoluteString,
        ])
        let json = try #require(dom.firstMatch(of: /<pre id="report">([^<]*)<\/pre>/)?.output.1, "\(dom)")
        let text = String(json).replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
        return try JSONDecoder().decode(Report.self, from: Data(text.utf8))
    }

    private static func harnessHTML(page: String) -> String {
        """
        <!DOCTYPE html>
        <html><head><meta charset="utf-8"></head><body>
        <pre id="report">pending</pre>
        <iframe id="page" src="\(page)" width="1200" height="900"></iframe>
        <script>
        const frame = document.getElementById('page');
        frame.addEventListener('load', () => {
          const report = {};
          try {
            const d = frame.contentDocument;
            report.cards = d.querySelectorAll('li.card').length;
            report.images = Array.from(d.images).map(image => {
              let distinct = 0;
              if (image.naturalWidth > 0) {
                const canvas = document.createElement('canvas');
                canvas.width = image.naturalWidth;
                canvas.height = image.naturalHeight;
                const context = canvas.getContext('2d');
                context.drawImage(image, 0, 0);
                const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
                const seen = new Set();
                for (let i = 0; i < pixels.length && seen.size < 64; i += 4 * 97) {
                  seen.add(pixels[i] << 16 | pixels[i + 1] << 8 | pixels[i + 2]);
                }
                distinct = seen.size;
              }
              return { src: image.getAttribute('src'), alt: image.getAttribute('alt'), className: image.className,
                       complete: image.complete, naturalWidth: image.naturalWidth,
                       naturalHeight: image.naturalHeight, distinctColors: distinct };
            });
            report.widgets = Array.from(d.querySelectorAll('.widget')).map(widget => {
              const box = widget.getBoundingClientRect();
              return [box.width, box.height];
            });
            report.texts = Array.from(d.querySelectorAll('.text')).map(element => element.textContent);
            report.names = Array.from(d.querySelectorAll('.name')).map(element => element.textContent);
            report.scripts = d.querySelectorAll('script').length;
            report.bolds = d.querySelectorAll('main b:not(time b)').length;
            report.links = d.querySelectorAll('a[href^="https://x.com/"]').length;
            report.handlers = Array.from(d.querySelectorAll('*'))
              .filter(element => Array.from(element.attributes).some(attribute => attribute.name.startsWith('on')))
              .length;
            const probe = d.createElement('script');
            probe.textContent = "document.body.dataset.scriptRan = 'yes'";
            d.body.appendChild(probe);
            d.body.setAttribute('onclick', "document.body.dataset.handlerRan = 'yes'");
            d.body.click();
            report.injectedScriptRan = d.body.dataset.scriptRan === 'yes';
            report.injectedHandlerRan = d.body.dataset.handlerRan === 'yes';
          } catch (error) {
            report.error = String(error);
          }
          document.getElementById('report').textContent = JSON.stringify(report);
        });
        </script>
        </body></html>
        """
    }

    /// Runs headless Chromium with `arguments` (at `deviceScale` device pixels per CSS pixel) off the cooperative pool
    /// and returns its standard output.
    /// - Throws: when it cannot start, exits non-zero, or takes over 90 seconds.
    static func run(_ arguments: [String], deviceScale: Int = 1) async throws -> String {
        let executable = try #require(executable)
        let profile = try TemporaryDirectory()
        defer { profile.remove() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments =
            [
                "--headless", "--disable-gpu", "--no-sandbox", "--hide-scrollbars", "--no-first-run",
                "--user-data-dir=\(profile.url.path)", "--force-device-scale-factor=\(deviceScale)",
            ] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = profile.url.path
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let (status, output) = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
                DispatchQueue.global().asyncAfter(deadline: .now() + 90, execute: watchdog)
                let data = out.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                watchdog.cancel()
                continuation.resume(returning: (process.terminationStatus, String(decoding: data, as: UTF8.self)))
            }
        }
        try #require(status == 0, "chromium \(arguments.joined(separator: " ")) exited \(status)")
        return output
    }

    /// A PNG's width and height from its IHDR chunk.
    static func pngSize(_ png: Data) -> [Int] {
        guard png.count >= 24 else { return [] }
        let bytes = Array(png[16..<24])
        let width = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
        let height = bytes[4..<8].reduce(0) { $0 << 8 | Int($1) }
        return [width, height]
    }
}

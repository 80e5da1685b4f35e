public import Foundation
import Glibc
import KFeed
import KFeedBase
import KFeedConfig
import KFeedHTTP
import KFeedImages

/// One entry point per parser of untrusted bytes, for libFuzzer (`kfeed-fuzz`, built by `scripts/fuzz.sh`) and for
/// the replay of the committed seeds and regressions in `swift test` (`FuzzTargetsTests`).
///
/// Every call into the library that a fuzzer makes is in this file. An entry point must return normally for every
/// input: a trap (overflow, index out of range, force unwrap), a sanitizer report or a hang is a bug of the library.
/// Entry points reject only what the library's own callers reject before calling the code under test (the
/// thumbnailer's limits before the first-pass decoder, for example), and bound the work of one input so that the
/// fuzzer stays fast.
public enum FuzzTargets {
    /// The fuzz targets, by the name `scripts/fuzz.sh` and `KFEED_FUZZ_TARGET` use.
    public enum Target: String, CaseIterable, Sendable {
        /// `ProgressiveFirstPassDecoder` at 1/8, 1/4 and 1/2 on any JPEG it supports.
        case progressive
        /// `JPEGStructure.parse` and the thumbnailer's plan (`memoryCost`).
        case jpegStructure = "jpeg-structure"
        /// `EXIFOrientation.parse(app1:)`.
        case exif
        /// A refresh's handling of search pages: `SearchResults.append(responseBody:)`, `feedItems`, selection,
        /// manifest, its JSON and back.
        case searchPage = "search-page"
        /// `XAPIProblem.decode` and `XClient.classify` / `retryAfter` of error responses.
        case problem
        /// `DotEnv(parsing:)` and the settings lookup over it.
        case dotenv
        /// `JPEGThumbnailer.thumbnail` end to end: plan, libjpeg row-by-row or first-pass decode, resample, encode.
        case thumbnail
        /// The cache's own files as read back: `timeline.json` (`Manifest.decode`, its JSON again, the preview page)
        /// and `state.json` (`RefreshState`).
        case cacheFiles = "cache-files"
        /// The feeds file (`kfeed.toml`): `FeedsFile.parse`, TOML and every check of its values.
        case feedsFile = "feeds-file"
        /// A post lookup's answer (`PostLookup.decode`), merged and recorded in the post checks as a refresh does.
        case lookup = "tweets-lookup"
        /// X's usage report (`UsageReport.decode`), set beside a ledger as `kfeed status` does.
        case usage = "usage-tweets"
        /// A TRMNL device's `/api/log` body: `TRMNLLog.messages`.
        case trmnlLog = "trmnl-log"

        /// The entry point of this target.
        public var run: @Sendable (Data) -> Void {
            switch self {
            case .progressive: FuzzTargets.progressive
            case .jpegStructure: FuzzTargets.jpegStructure
            case .exif: FuzzTargets.exif
            case .searchPage: FuzzTargets.searchPage
            case .problem: FuzzTargets.problem
            case .dotenv: FuzzTargets.dotenv
            case .thumbnail: FuzzTargets.thumbnail
            case .cacheFiles: FuzzTargets.cacheFiles
            case .feedsFile: FuzzTargets.feedsFile
            case .lookup: FuzzTargets.lookup
            case .usage: FuzzTargets.usage
            case .trmnlLog: FuzzTargets.trmnlLog
            }
        }
    }

    /// The largest source image, in pixels, the image targets decode: keeps one input's work small. Sizes do not
    /// change the code paths; the decoders' arithmetic on larger frames is bounded by the 16-bit frame size.
    static let maxFuzzPixels = 1 << 18
    /// The most working memory the image targets let one decode allocate.
    static let maxFuzzMemory = 64 << 20

    // MARK: - Images

    /// The first-pass decoder, at every scale it decodes, on any frame it supports and the thumbnailer would
    /// accept (positive size within the limits).
    public static func progressive(_ data: Data) {
        data.withUnsafeBytes { jpeg in
            guard let structure = try? JPEGStructure.parse(jpeg, maxScans: JPEGThumbnailer.Limits().maxScans),
                structure.width > 0, structure.height > 0, structure.width * structure.height <= maxFuzzPixels,
                ProgressiveFirstPassDecoder.supports(structure)
            else { return }
            for eighths in [1, 2, 4] {
                let width = (structure.width * eighths + 7) / 8
                let height = (structure.height * eighths + 7) / 8
                guard ProgressiveFirstPassDecoder.workingMemory(structure, eighths: eighths) <= maxFuzzMemory else {
                    continue
                }
                let output = UnsafeMutableRawBufferPointer.allocate(byteCount: width * height * 4, alignment: 16)
                defer { output.deallocate() }
                _ = try? ProgressiveFirstPassDecoder.decode(jpeg, structure: structure, eighths: eighths, into: output)
            }
        }
    }

    /// The marker walk, alone and as the thumbnailer's plan (which adds TurboJPEG's header and the memory
    /// estimate).
    public static func jpegStructure(_ data: Data) {
        data.withUnsafeBytes { jpeg in
            _ = try? JPEGStructure.parse(jpeg, maxScans: 1)
            _ = try? JPEGStructure.parse(jpeg, maxScans: 100)
        }
        let thumbnailer = JPEGThumbnailer(limits: .init(maxPixels: maxFuzzPixels))
        for size in [ImageSize(width: 1, height: 1), .small, ImageSize(width: 4096, height: 16)] {
            _ = try? thumbnailer.memoryCost(of: data, size: size)
        }
    }

    /// The EXIF reader, on the bytes as an APP1 payload and behind an `Exif\0\0` header.
    public static func exif(_ data: Data) {
        data.withUnsafeBytes { payload in
            _ = EXIFOrientation.parse(app1: payload)
        }
        let prefixed = Data("Exif\0\0".utf8) + data
        prefixed.withUnsafeBytes { payload in
            _ = EXIFOrientation.parse(app1: payload)
        }
    }

    /// The whole thumbnailer at a target derived from the frame size: 1/8, 1/4 or 1/2 of it (so the progressive
    /// path is taken), or a tiny square.
    public static func thumbnail(_ data: Data) {
        let structure = data.withUnsafeBytes { jpeg in try? JPEGStructure.parse(jpeg, maxScans: 100) }
        guard let structure, structure.width * structure.height <= maxFuzzPixels else { return }
        let thumbnailer = JPEGThumbnailer(limits: .init(maxPixels: maxFuzzPixels, maxDecodeMemory: maxFuzzMemory))
        let size: ImageSize =
            switch data.count % 4 {
            case 0: ImageSize(width: 3, height: 2)
            case let divisor:
                ImageSize(
                    width: max(structure.width >> divisor, 1),
                    height: max(structure.height >> divisor, 1)
                )
            }
        _ = try? thumbnailer.thumbnail(of: data, size: size)
    }

    // MARK: - X API responses

    /// A refresh's work on search pages: the input is one or more response bodies separated by NUL bytes (raw
    /// NUL cannot occur in JSON), merged in order, joined, selected by two builders, made into a manifest, written
    /// as JSON and read back.
    public static func searchPage(_ data: Data) {
        var results = SearchResults()
        for body in data.split(separator: 0, omittingEmptySubsequences: false) {
            try? results.append(responseBody: Data(body))
        }
        let items = results.feedItems
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let query = (try? RecentSearchQuery(raw: "kpop has:images")) ?? RecentSearchQuery(contexts: [])
        let builders = [
            TimelineBuilder(),
            TimelineBuilder(
                entryCount: 3,
                interval: Interval(seconds: 900),
                policy: .never,
                allowsSensitive: true,
                usesVideoPreviews: true,
                maxEntriesPerAuthor: 1
            ),
        ]
        for builder in builders {
            _ = builder.selection(from: items, isExhausted: false)
            let selection = builder.selection(from: items, isExhausted: true)
            let manifest = builder.manifest(for: selection, query: query, size: .small, now: now)
            if let json = try? manifest.jsonData() { _ = try? Manifest.decode(json) }
        }
        for item in items { _ = item.url }
        _ = results.partialErrors.map(\.detail)
    }

    /// A post lookup's answer for three ids (the kpop fixture's), then for the ids the body itself names: decoded,
    /// merged and recorded in post checks, which are written as JSON and read back.
    public static func lookup(_ data: Data) {
        let now = Date(timeIntervalSince1970: 1_795_338_000)
        let asked = ["1859170000000100101", "1859170000000100102", "1859170000000100103"]
        var checks = PostChecks()
        guard var answer = try? PostLookup.decode(data, asked: asked) else { return }
        if let again = try? PostLookup.decode(data, asked: answer.postsRead + asked) { answer.merge(again) }
        checks.record(answer, at: now)
        if let json = try? InstantFormat.jsonEncoder().encode(checks) {
            _ = try? InstantFormat.jsonDecoder().decode(PostChecks.self, from: json)
        }
    }

    /// X's usage report, set beside a ledger of the same month as `kfeed status` does.
    public static func usage(_ data: Data) {
        let now = Date(timeIntervalSince1970: 1_795_338_000)
        guard let report = try? UsageReport.decode(data) else { return }
        var ledger = Ledger()
        ledger.record(["1", "2"], users: ["3"], at: now)
        var status = FeedsStatus(
            of: FeedsRefresh(root: URL(fileURLWithPath: "/nonexistent-kfeed-fuzz"), feeds: [], budget: Budget()),
            at: now
        )
        status.reconcile(with: report, ledger: ledger)
        _ = try? status.jsonData()
    }

    /// An error response: the body is the input up to the first NUL byte. Without a NUL, the body is classified
    /// under each status kfeed distinguishes, with no headers. After a NUL, the next byte picks the status and the
    /// rest holds header lines (`name: value`, LF separated).
    public static func problem(_ data: Data) {
        let statuses = [400, 401, 402, 403, 404, 429, 500, 503, 200, 301]
        let parts = data.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
        let body = Data(parts[0])
        _ = XAPIProblem.decode(body).map { ($0.summary, $0.kind) }
        let url = URL(fileURLWithPath: "/2/tweets/search/recent")
        var responses: [HTTPResponse] = []
        if parts.count == 2, let selector = parts[1].first {
            let lines = String(decoding: parts[1].dropFirst(), as: UTF8.self).split(separator: "\n")
            let headers = lines.compactMap { (line: Substring) -> HTTPHeader? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                return HTTPHeader(String(line[..<colon]), value)
            }
            let status = statuses[Int(selector) % statuses.count]
            responses = [HTTPResponse(status: status, headers: headers, body: body, url: url)]
        } else {
            responses = statuses.map { HTTPResponse(status: $0, body: body, url: url) }
        }
        for response in responses {
            let error = XClient.classify(response)
            _ = error.description
            _ = XClient.retryAfter(response)
            _ = RateLimit(headers: response)
        }
    }

    /// A cache file, read as `timeline.json`, `state.json`, `history.json` and `history-cells.bin`, each written
    /// again; a timeline also rendered as the preview page; a history's pictures (hashes and detail signatures)
    /// compared with each other as the repost check does.
    public static func cacheFiles(_ data: Data) {
        let now = Date(timeIntervalSince1970: 1_795_338_000)
        if let manifest = try? Manifest.decode(data) {
            _ = try? manifest.jsonData()
            _ = manifest.currentEntryIndex(at: now)
            _ = PreviewPage(manifest: manifest, now: now, timeZone: TimeZone(identifier: "Asia/Seoul") ?? .gmt).html
        }
        if let state = try? InstantFormat.jsonDecoder().decode(RefreshState.self, from: data) {
            _ = try? InstantFormat.jsonEncoder().encode(state)
        }
        if let history = try? InstantFormat.jsonDecoder().decode(History.self, from: data) {
            _ = try? InstantFormat.jsonEncoder().encode(history)
            _ = history.lastShown
            let pictures = history.current(replacing: nil, at: now, window: 7 * 86_400).pictures.values.prefix(16)
            for first in pictures {
                for second in pictures { _ = first.identity.isSamePicture(as: second.identity) }
            }
        }
        let cells = HistoryCells.decode(data)
        _ = HistoryCells.encode(cells.map { ($0.key, $0.value) })
    }

    // MARK: - Configuration

    /// A `.env` file: as `DotEnv.load` reads it (strict UTF-8) and decoded leniently, then the settings lookup.
    public static func dotenv(_ data: Data) {
        var files = [DotEnv(parsing: String(decoding: data, as: UTF8.self))]
        if let text = String(data: data, encoding: .utf8) { files.append(DotEnv(parsing: text)) }
        for file in files {
            let environment = SettingsEnvironment(process: ["X_BEARER_TOKEN": ""], dotEnv: file)
            for name in file.values.keys.prefix(8) { _ = environment[name] }
            _ = environment["X_BEARER_TOKEN"]
        }
    }

    /// A `/api/log` body as a device (or anyone who can reach the server) posts it, at most 64 KiB as the server
    /// reads it: messages or none, never a trap.
    public static func trmnlLog(_ data: Data) {
        _ = TRMNLLog.messages(in: Array(data.prefix(64 << 10)), limit: 20, length: 240)
    }

    /// The feeds file as a user writes it: any text is a feeds file or one `KFeedError` line, never a trap. Each
    /// feed's settings are used as a refresh would (its query's text, its builder, its directory name).
    public static func feedsFile(_ data: Data) {
        guard data.count <= FeedsFile.maxBytes, let text = String(data: data, encoding: .utf8) else { return }
        let url = URL(fileURLWithPath: "/fuzz/kfeed.toml")
        if isFuzzing, !parsesInAChild(text, url: url) { return }
        do {
            let file = try FeedsFile.parse(text, url: url, now: Date(timeIntervalSince1970: 1_795_338_000))
            for feed in file.feeds {
                _ =
                    feed.settings.search.query.text.count + feed.settings.entries + feed.settings.size.width
                    + feed.settings.profiles.count
                _ = try file.feed(named: feed.name)
            }
            _ = file.budget.postsLeft(in: Ledger(), at: Date(timeIntervalSince1970: 1_795_338_000))
        } catch {
            _ = "\(error)".count
        }
    }

    /// The stack of the thread that reads a feeds file under libFuzzer: 512 KiB, where toml++ (its C++ built as
    /// `scripts/fuzz.sh` builds it: -O0, no sanitizer) overflows on a key of about 1,100 parts or inline tables
    /// nested about 140 deep; the limits of `TOMLNesting` take under half of it.
    static let childStackBytes = 512 << 10

    /// A feeds file's text and name, handed to the thread that reads it.
    private final class FeedsFileInput {
        let text: String
        let url: URL

        init(text: String, url: URL) {
            self.text = text
            self.url = url
        }
    }

    /// Whether libFuzzer drives the targets (`kfeed-fuzz`, which `KFEED_FUZZ_TARGET` selects), not the tests.
    private static let isFuzzing = ProcessInfo.processInfo.environment["KFEED_FUZZ_TARGET"] != nil

    /// Under libFuzzer, reads the feeds file in a child process first. toml++ 3.4.0 aborts on a few malformed
    /// documents (an assertion), which kfeed turns into exit 78 (`TOMLAbortGuard`): known, and not a crash of
    /// kfeed's, but the fuzzer would stop on it every time. Returns false for that case (the input goes no further);
    /// anything else a child dies of (a sanitizer report, a stack overflow) traps here, where libFuzzer records it.
    ///
    /// The child reads on a thread of ``childStackBytes``: toml++ recurses once per level of a document (a key's or a
    /// header's parts, nested arrays and inline tables), so on the main thread's 8 MiB only inputs far longer than
    /// the fuzzer's (`scripts/fuzz.sh` caps them at 4 KiB) would overflow it; on the small stack a few thousand
    /// levels do, and a document past `TOMLNesting`'s limits is found again as a crash if the check before toml++
    /// ever lets one through.
    private static func parsesInAChild(_ text: String, url: URL) -> Bool {
        let child = fork()
        if child == 0 {
            let attributes = UnsafeMutablePointer<pthread_attr_t>.allocate(capacity: 1)
            pthread_attr_init(attributes)
            pthread_attr_setstacksize(attributes, childStackBytes)
            let input = Unmanaged.passRetained(FeedsFileInput(text: text, url: url)).toOpaque()
            var thread: pthread_t = 0
            let started = pthread_create(
                &thread,
                attributes,
                { context in
                    guard let context else { return nil }
                    let input = Unmanaged<FeedsFileInput>.fromOpaque(context).takeRetainedValue()
                    _ = try? FeedsFile.parse(
                        input.text,
                        url: input.url,
                        now: Date(timeIntervalSince1970: 1_795_338_000)
                    )
                    return nil
                },
                input
            )
            if started == 0 { pthread_join(thread, nil) }
            _exit(0)
        }
        var status: Int32 = 0
        guard child > 0, waitpid(child, &status, 0) == child else { return false }
        let exitCode = (status >> 8) & 0xFF
        if status & 0x7F == 0 && exitCode == 78 { return false }
        guard status == 0 else { fatalError("reading the feeds file in a child ended with status \(status)") }
        return true
    }
}

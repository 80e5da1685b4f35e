import CDispatch
import Foundation
import KFeed
import KFeedBase
import KFeedHTTP
import KFeedImages
import KFeedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `kfeed refresh` against the X API of 2026 and a hostile cache directory: out of credits, a wrong clock, the
/// `posts` vocabulary, dropped fields, files kfeed did not write, and modes under any umask.
@Suite(.timeLimit(.minutes(2)))
struct RefreshCommandAPITests {
    private static let token = ["X_BEARER_TOKEN": LiveSearchTests.token]
    private static let t0 = "2026-11-22T09:00:00Z"
    private static let t0Date = Date(timeIntervalSince1970: 1_795_338_000)

    private static func state(_ cache: URL) throws -> RefreshState {
        try InstantFormat.jsonDecoder().decode(
            RefreshState.self,
            from: Data(contentsOf: cache.appendingPathComponent("state.json"))
        )
    }

    private static func fileType(_ url: URL) -> mode_t {
        var info = stat()
        return lstat(url.path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }

    /// Width and height of a whole JPEG, nil when it is not one.
    private static func jpegSize(_ url: URL) -> ImageSize? {
        guard let data = try? Data(contentsOf: url), data.count > 4, data.suffix(2) == Data([0xFF, 0xD9]) else {
            return nil
        }
        let bytes = [UInt8](data)
        var index = 2
        while index + 9 < bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if (0xC0...0xC2).contains(marker) {
                let height = Int(bytes[index + 5]) << 8 | Int(bytes[index + 6])
                let width = Int(bytes[index + 7]) << 8 | Int(bytes[index + 8])
                return ImageSize(width: width, height: height)
            }
            index += 2 + length
        }
        return nil
    }

    // MARK: - Out of credits

    @Test func outOfCreditsExits77KeepsTheTimelineAndAsksAgainOnlyInSixHours() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = directory.url.appendingPathComponent("cache")
        let good = try await LiveSearchTests.run(
            ["--cache", cache.path, "--now", Self.t0],
            scenario: "kpop",
            environment: Self.token
        )
        #expect(good.result.status == 0)
        let manifest = try Data(contentsOf: cache.appendingPathComponent("timeline.json"))

        let later = "2026-11-23T09:00:00Z"
        let run = try await LiveSearchTests.run(
            ["--cache", cache.path, "--now", later, "--refresh"],
            scenario: "402-credits-depleted",
            environment: Self.token
        )
        #expect(run.result.status == 77)
        let lines = run.result.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.contains("out of credits") == true)
        #expect(lines.first?.contains("developer console") == true)
        #expect(run.requests.count == 1)  // nothing retried within the run
        // A day later, with no lookup in between and none possible, the posts read then may no longer be shown (X's
        // terms: deleted within 24 hours; docs/timeline.md): the timeline keeps its settings and loses its entries.
        let kept = try #require(try CacheStore(directory: cache).manifest())
        let old = try Manifest.decode(manifest)
        #expect(kept.entries.isEmpty && !old.entries.isEmpty)
        #expect(kept.query == old.query && kept.emptyReason != nil)
        let state = try Self.state(cache)
        #expect(state.retryAfter == Self.t0Date.addingTimeInterval(86_400 + 6 * 3_600))
        #expect(state.lastError?.kind == "creditsDepleted")

        // Cron every 15 minutes asks nothing until then: an API that does not exist is never dialled.
        for now in ["2026-11-23T09:15:00Z", "2026-11-23T14:59:00Z"] {
            let cron = try await KFeedProcess.run(
                ["refresh", "--cache", cache.path, "--now", now, "--api-base", "http://127.0.0.1:9"],
                environment: Self.token
            )
            #expect(cron.status == 0)
            #expect(cron.stderr.isEmpty)
        }
    }

    // MARK: - Clock skew

    @Test(arguments: [
        (2 * 365 * 86_400, 6 * 3_600),  // a reset two years ahead waits the back-off cap, not two years
        (-3_600, 15 * 60),  // a reset already past waits the normal minimum
        (1_200, 1_200),  // a plausible reset is honoured
        (300, 15 * 60),  // a reset sooner than the shortest wait waits that: no run asks again within 15 minutes
    ])
    func rateLimitResetFarFromTheClockIsClamped(resetOffset: Int, wait: Int) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = directory.url.appendingPathComponent("cache")
        let reset = Int(Self.t0Date.timeIntervalSince1970) + resetOffset
        let body = try Fixture.data("recent-search.429-rate-limit.json")
        let run = try await LiveSearchTests.run(
            { _ in
                LoopbackServer.Response(
                    status: 429,
                    headers: [
                        HTTPHeader("content-type", "application/problem+json"),
                        HTTPHeader("x-rate-limit-limit", "450"), HTTPHeader("x-rate-limit-remaining", "0"),
                        HTTPHeader("x-rate-limit-reset", String(reset)),
                    ],
                    body: body
                )
            },
            ["--cache", cache.path, "--now", Self.t0],
            environment: Self.token
        )
        #expect(run.result.status == 75)
        #expect(try Self.state(cache).retryAfter == Self.t0Date.addingTimeInterval(Double(wait)))
    }

    // MARK: - Vocabulary drift

    @Test func pageInThePostsVocabularyMakesTheSameTimelineAndRecordsTheAPIVersion() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var entries: [[String]] = []
        for scenario in ["kpop", "posts-vocabulary"] {
            let cache = directory.url.appendingPathComponent(scenario)
            let run = try await LiveSearchTests.run(
                ["--cache", cache.path, "--now", Self.t0, "--json"],
                scenario: scenario,
                environment: Self.token
            )
            #expect(run.result.status == 0)
            let manifest = try Manifest.decode(Data(run.result.stdout.utf8))
            entries.append(manifest.entries.map(\.tweetID))
            #expect(try Self.state(cache).apiVersion == (scenario == "kpop" ? nil : "2.167"))
        }
        #expect(entries[0].count >= 4)
        #expect(entries[0] == entries[1])
    }

    @Test func pageWhosePostsLackTheFieldsKfeedAskedForExits65NamingThem() async throws {
        let run = try await LiveSearchTests.run(["-q"], scenario: "fields-dropped", environment: Self.token)
        #expect(run.result.status == 65)
        let lines = run.result.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.contains("attachments") == true)
        #expect(lines.first?.contains("author_id") == true)
        #expect(!run.result.stderr.contains("no usable post"))
    }

    // MARK: - Files kfeed did not write

    @Test func plantedSymlinksTruncatedAndForeignFilesAreMadeAgainNeverTrusted() async throws {
        let cacheDirectory = try await KFeedProcess.sampleCache(entries: 6)
        defer { cacheDirectory.remove() }
        let cache = cacheDirectory.url
        let manifest = try #require(try CacheStore(directory: cache).manifest())
        let images = manifest.entries.filter { !$0.placeholder }.compactMap(\.image)
        let avatars = Array(Set(manifest.entries.compactMap(\.author.avatar).filter { $0.hasPrefix("avatars/") }))
        let placeholder = try #require(manifest.entries.first { $0.placeholder }?.image)
        #expect(images.count >= 3 && avatars.count >= 2)

        // Outside the cache: a perfectly plausible JPEG of the right size, and a secret.
        let outside = try TemporaryDirectory()
        defer { outside.remove() }
        let decoy = outside.url.appendingPathComponent("decoy.jpg")
        try Data(contentsOf: cache.appendingPathComponent(images[2])).write(to: decoy)
        let secret = outside.url.appendingPathComponent("secret")
        try Data("secret".utf8).write(to: secret)
        func plantLink(_ relative: String, to target: URL) throws {
            try FileManager.default.removeItem(at: cache.appendingPathComponent(relative))
            try FileManager.default.createSymbolicLink(
                at: cache.appendingPathComponent(relative),
                withDestinationURL: target
            )
        }
        try plantLink(images[0], to: decoy)
        try plantLink(avatars[0], to: secret)
        try plantLink(placeholder, to: decoy)
        let truncated = try Data(contentsOf: cache.appendingPathComponent(images[1]))
        try truncated.prefix(truncated.count / 2).write(to: cache.appendingPathComponent(images[1]))
        try JPEGThumbnailer.placeholder(size: ImageSize(width: 120, height: 90))
            .write(to: cache.appendingPathComponent(avatars[1]))  // a whole JPEG, but not one kfeed made there

        let result = try await KFeedProcess.run([
            "refresh", "--force", "--replay", Fixture.replay("sample").path, "--cache", cache.path,
            "--now", Self.t0, "--entries", "6",
        ])
        #expect(result.status == 0)
        let after = try #require(try CacheStore(directory: cache).manifest())
        #expect(after.entries.map(\.image) == manifest.entries.map(\.image))
        for (relative, size) in [
            (images[0], manifest.size), (images[1], manifest.size), (placeholder, manifest.size),
            (avatars[0], ImageSize.avatar), (avatars[1], ImageSize.avatar),
        ] {
            let url = cache.appendingPathComponent(relative)
            #expect(Self.fileType(url) == S_IFREG, "\(relative) is still not a regular file")
            #expect(Self.jpegSize(url) == size, "\(relative) was reused")
        }
        #expect(try Data(contentsOf: secret) == Data("secret".utf8))
        #expect(try Data(contentsOf: decoy) == Data(contentsOf: cache.appendingPathComponent(images[2])))
    }

    // MARK: - Modes

    @Test(arguments: ["umask 000", "umask 077", "umask 022"])
    func everyFileKfeedCreatesHasAnExplicitModeWhateverTheUmask(umask: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = directory.url.appendingPathComponent("cache")
        let result = try await KFeedProcess.run(
            ["refresh", "--replay", Fixture.replay("sample").path, "--cache", cache.path, "--now", Self.t0],
            shell: umask
        )
        #expect(result.status == 0)
        let preview = try await KFeedProcess.run(["preview", "--cache", cache.path, "--now", Self.t0], shell: umask)
        #expect(preview.status == 0)
        var seen: Set<String> = []
        let enumerator = FileManager.default.enumerator(atPath: cache.path)
        while let name = enumerator?.nextObject() as? String {
            let url = cache.appendingPathComponent(name)
            let mode = try #require(
                try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
            )
            let expected = Self.fileType(url) == S_IFDIR ? 0o755 : 0o644
            #expect(mode == expected, "\(name) under \(umask): \(String(mode, radix: 8))")
            seen.insert(name)
        }
        for name in [".lock", "timeline.json", "state.json", "kfeed.log", "preview.html", "images", "avatars"] {
            #expect(seen.contains(name), "\(name) missing")
        }
    }
}

import Clocks
import Foundation
import KFeedBase
import KFeedTestSupport
import Testing

@testable import KFeed
@testable import KFeedHTTP
@testable import KFeedImages
@testable import KFeedX

#if canImport(Glibc)
    import Glibc
#endif

/// The cron path: due-ness, back-off, the commit protocol, reuse, placeholders, and a cache that cannot be written.
struct RefresherTests {
    private static let t0 = Date(timeIntervalSince1970: 1_795_338_000)  // 2026-11-22T09:00:00Z
    /// A small valid JPEG to serve as every photo and avatar (fast to decode in debug builds).
    private static let tinyJPEG = JPEGThumbnailer.placeholder(size: ImageSize(width: 120, height: 90))

    /// A transport answering the search from `fixture` (or with `searchStatus`) and every image with `image`.
    private static func transport(
        fixture: String = "recent-search.kpop.json",
        searchStatus: Int = 200,
        headers: [HTTPHeader] = [],
        image: (status: Int, body: Data) = (200, tinyJPEG)
    ) throws -> StubTransport {
        let body = try Fixture.data(fixture)
        return StubTransport { request in
            if request.url.path == RecentSearchRequest.path {
                return HTTPResponse(status: searchStatus, headers: headers, body: body, url: request.url)
            }
            return HTTPResponse(status: image.status, body: image.body, url: request.url)
        }
    }

    private static func refresher(
        _ directory: URL,
        transport: StubTransport,
        size: ImageSize = .small,
        entries: Int = 24
    ) -> Refresher {
        Refresher.testing(
            in: directory,
            transport: transport,
            // Every photo here is the same tiny JPEG: no history, or they would all be one picture.
            settings: .init(
                query: .default,
                builder: TimelineBuilder(entryCount: entries),
                size: size,
                noRepeatWindow: 0
            )
        )
    }

    /// Runs a quick system tool (mount, umount) and returns its exit status.
    private static func system(_ tool: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    private static func searches(_ transport: StubTransport) -> Int {
        transport.requests.filter { $0.url.path == RecentSearchRequest.path }.count
    }

    private static func contents(_ directory: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        while let name = enumerator?.nextObject() as? String {
            let url = directory.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                result[name] = try Data(contentsOf: url)
            }
        }
        return result
    }

    @Test func theDeadlineCoversTheWholeRefreshNotEachPhase() async throws {
        try await TemporaryDirectory.withAsync { directory in
            // Every answer takes 300 ms on a clock the test moves: the search and the images each fit in 500 ms,
            // both together do not. No wall-clock wait: the clock moves 100 ms at a time, as soon as the refresh
            // has had a moment to reach its next wait.
            let clock = TestClock()
            let tiny = Self.tinyJPEG
            let search = try Fixture.data("recent-search.kpop.json")
            let transport = StubTransport { request in
                try await clock.sleep(for: .milliseconds(300))
                let body = request.url.path == RecentSearchRequest.path ? search : tiny
                return HTTPResponse(status: 200, body: body, url: request.url)
            }
            let refresher = Refresher.testing(
                in: directory,
                transport: transport,
                settings: .init(
                    query: .default,
                    builder: TimelineBuilder(entryCount: 1),
                    size: .small,
                    noRepeatWindow: 0
                ),
                deadline: .milliseconds(500),
                clock: clock
            )
            let refresh = Task { try await refresher.refresh(now: Date(timeIntervalSince1970: 1_795_338_000)) }
            let ticker = Task {
                for _ in 0..<50 where !Task.isCancelled {
                    try await Task.sleep(for: .milliseconds(20))
                    await clock.advance(by: .milliseconds(100))
                }
            }
            defer { ticker.cancel() }
            let error = await #expect(throws: KFeedError.self) { try await refresh.value }
            #expect(error?.code == .transport)
            #expect(error?.message.contains("did not finish within 0.5 seconds") == true)
            #expect(try refresher.store.manifest() == nil)
            // The temp files made ahead for the images went with the refresh that gave up among its downloads.
            for name in ["images", "avatars"] {
                let names = try FileManager.default.contentsOfDirectory(
                    atPath: directory.appendingPathComponent(name).path
                )
                #expect(!names.contains { $0.hasPrefix(".tmp-") }, "\(name): \(names)")
            }
        }
    }

    @Test func firstRefreshCommitsManifestImagesAvatarsAndState() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let transport = try Self.transport()
        let refresher = Self.refresher(directory.url, transport: transport)
        guard case .refreshed(let manifest, let summary) = try await refresher.refresh(now: Self.t0) else {
            Issue.record("expected a refresh")
            return
        }
        #expect(manifest.entries.count == 4)
        #expect(summary.placeholders == 0)
        let reader = CacheStore(directory: directory.url)
        #expect(try reader.manifest() == manifest)
        for entry in manifest.entries {
            let image = try #require(entry.image)
            let avatar = try #require(entry.author.avatar)
            #expect(image == "images/\(entry.media.key)-340x340.jpg")
            #expect(avatar == "avatars/\(entry.author.id)-96x96.jpg")
            for path in [image, avatar] {
                let data = try Data(contentsOf: directory.url.appendingPathComponent(path))
                #expect(data.starts(with: [0xFF, 0xD8, 0xFF]))
            }
        }
        let state = try #require(refresher.store.state())
        #expect(state.reloadAfter == manifest.reloadAfter)
        #expect(state.retryAfter == nil && state.consecutiveFailures == 0)
        #expect(state.rateLimit == nil)
        let log = try String(contentsOf: directory.url.appendingPathComponent("kfeed.log"), encoding: .utf8)
        #expect(log.hasPrefix("2026-11-22T09:00:00Z refreshed: 4 entries"))
    }

    @Test func notDueMakesNoRequestAndWritesNothing() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let transport = try Self.transport()
        let refresher = Self.refresher(directory.url, transport: transport)
        _ = try await refresher.refresh(now: Self.t0)
        let before = try Self.contents(directory.url)
        let requests = transport.requests.count
        // Four entries an hour apart: the last one's date (t0 + 3 h) is the reload date.
        for offset: TimeInterval in [60, 3_600, 3 * 3_600 - 1] {
            guard case .notDue(let until) = try await refresher.refresh(now: Self.t0.addingTimeInterval(offset)) else {
                Issue.record("expected not due at +\(offset) s")
                continue
            }
            #expect(until == Self.t0.addingTimeInterval(3 * 3_600))
        }
        #expect(transport.requests.count == requests)
        #expect(try Self.contents(directory.url) == before)
        guard case .refreshed = try await refresher.refresh(now: Self.t0.addingTimeInterval(3 * 3_600)) else {
            Issue.record("expected a refresh once the last entry's date has passed")
            return
        }
    }

    @Test func imagesAlreadyInTheCacheAreReusedNotFetched() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let transport = try Self.transport()
        let refresher = Self.refresher(directory.url, transport: transport)
        _ = try await refresher.refresh(now: Self.t0)
        let imageRequests = transport.requests.count - Self.searches(transport)
        guard case .refreshed(_, let summary) = try await refresher.refresh(now: Self.t0, force: true) else {
            Issue.record("expected a forced refresh")
            return
        }
        #expect(summary.fetched == 0)
        #expect(summary.reused == 8)
        #expect(transport.requests.count - Self.searches(transport) == imageRequests)
    }

    @Test(arguments: [(404, Data(), "download failed (HTTP 404)"), (200, Data("<html>".utf8), "not a JPEG")])
    func imagesThatCannotBeHadBecomePlaceholdersWithTheirReason(status: Int, body: Data, reason: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let transport = try Self.transport(image: (status, body))
        guard
            case .refreshed(let manifest, let summary) = try await Self.refresher(directory.url, transport: transport)
                .refresh(now: Self.t0)
        else {
            Issue.record("one bad image must never fail a refresh")
            return
        }
        #expect(summary.placeholders == manifest.entries.count)
        for entry in manifest.entries {
            #expect(entry.placeholder)
            #expect(entry.placeholderReason == reason)
            #expect(entry.image == "placeholder-340x340.jpg")
            #expect(entry.author.avatar == "placeholder-96x96.jpg")
        }
        let placeholder = try Data(contentsOf: directory.url.appendingPathComponent("placeholder-340x340.jpg"))
        #expect(placeholder.starts(with: [0xFF, 0xD8, 0xFF]))
    }

    @Test func failuresKeepTheLastGoodGenerationAndBackOff() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try await Self.refresher(directory.url, transport: try Self.transport()).refresh(now: Self.t0)
        let good = try Self.contents(directory.url)["timeline.json"]
        let failing = try Self.transport(fixture: "recent-search.503.json", searchStatus: 503)
        // The back-off alone: the deleted-post checks have their own schedule (RefresherChecksTests).
        let refresher = Refresher.testing(
            in: directory.url,
            transport: failing,
            settings: .init(query: .default, builder: TimelineBuilder(), size: .small, noRepeatWindow: 0),
            checksPosts: false
        )
        var now = Self.t0.addingTimeInterval(4 * 3_600)
        for expected in [15.0, 30, 60, 120, 240, 360, 360] {
            let error = await #expect(throws: KFeedError.self) { try await refresher.refresh(now: now) }
            #expect(error?.code == .serverError)
            let state = try #require(refresher.store.state())
            #expect(state.retryAfter == now.addingTimeInterval(expected * 60))
            #expect(state.lastError?.kind == "serverError")
            #expect(try Self.contents(directory.url)["timeline.json"] == good)
            // Before the retry instant nothing is due, and nothing is asked.
            let asked = failing.requests.count
            guard case .notDue = try await refresher.refresh(now: now.addingTimeInterval(expected * 60 - 1)) else {
                Issue.record("expected the back-off to hold")
                return
            }
            #expect(failing.requests.count == asked)
            now = now.addingTimeInterval(expected * 60)
        }
        #expect(refresher.store.state()?.consecutiveFailures == 7)
        // --force ignores the back-off, and a success clears it.
        _ = try await Self.refresher(directory.url, transport: try Self.transport()).refresh(now: now, force: true)
        #expect(refresher.store.state()?.consecutiveFailures == 0)
        #expect(refresher.store.state()?.retryAfter == nil)
    }

    @Test func rateLimitWaitsForTheResetAndUsageCapForTheNextDay() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let reset = Self.t0.addingTimeInterval(21 * 60)
        let limited = try Self.transport(
            fixture: "recent-search.429-rate-limit.json",
            searchStatus: 429,
            headers: [HTTPHeader("x-rate-limit-reset", String(Int(reset.timeIntervalSince1970)))]
        )
        // A rate limit is retried at its reset, not on the back-off schedule.
        _ = await #expect(throws: KFeedError.self) {
            try await Self.refresher(directory.url, transport: limited).refresh(now: Self.t0)
        }
        #expect(Self.refresher(directory.url, transport: limited).store.state()?.retryAfter == reset)
        let later = Date(timeIntervalSince1970: 1_795_338_000 + 3_600)
        let farReset = later.addingTimeInterval(40 * 60)
        let limitedLonger = try Self.transport(
            fixture: "recent-search.429-rate-limit.json",
            searchStatus: 429,
            headers: [HTTPHeader("x-rate-limit-reset", String(Int(farReset.timeIntervalSince1970)))]
        )
        _ = await #expect(throws: KFeedError.self) {
            try await Self.refresher(directory.url, transport: limitedLonger).refresh(now: later, force: true)
        }
        #expect(Self.refresher(directory.url, transport: limited).store.state()?.retryAfter == farReset)
        let capped = try Self.transport(fixture: "recent-search.429-usage-cap.json", searchStatus: 429)
        let error = await #expect(throws: KFeedError.self) {
            try await Self.refresher(directory.url, transport: capped).refresh(now: later, force: true)
        }
        #expect(error?.code == .usageCapped)
        #expect(
            Self.refresher(directory.url, transport: capped).store.state()?.retryAfter
                == Date(timeIntervalSince1970: 1_795_392_000)
        )
    }

    @Test func noUsablePostWritesAnEmptyTimelineOnceAndKeepsAGoodOne() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let empty = try Self.transport(fixture: "recent-search.empty.json")
        guard
            case .noUsablePost(let retry) = try await Self.refresher(directory.url, transport: empty).refresh(
                now: Self.t0
            )
        else {
            Issue.record("expected no usable post")
            return
        }
        #expect(retry == Self.t0.addingTimeInterval(15 * 60))
        let written = try #require(try CacheStore(directory: directory.url).manifest())
        #expect(written.entries.isEmpty)
        #expect(written.emptyReason != nil)

        _ = try await Self.refresher(directory.url, transport: try Self.transport()).refresh(now: Self.t0, force: true)
        let good = try Self.contents(directory.url)["timeline.json"]
        _ = try await Self.refresher(directory.url, transport: empty).refresh(now: Self.t0, force: true)
        #expect(try Self.contents(directory.url)["timeline.json"] == good)
    }

    @Test func sweepKeepsThePreviousGenerationAndRemovesOlderOnes() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let transport = try Self.transport()
        _ = try await Self.refresher(directory.url, transport: transport, size: .small).refresh(now: Self.t0)
        _ = try await Self.refresher(directory.url, transport: transport, size: .medium).refresh(now: Self.t0)
        var names = try Self.contents(directory.url).keys.filter { $0.hasPrefix("images/") }
        #expect(names.filter { $0.hasSuffix("-340x340.jpg") }.count == 4)  // a reader may still hold generation 1
        #expect(names.filter { $0.hasSuffix("-720x340.jpg") }.count == 4)
        _ = try await Self.refresher(directory.url, transport: transport, size: .large).refresh(now: Self.t0)
        names = try Self.contents(directory.url).keys.filter { $0.hasPrefix("images/") }
        #expect(names.filter { $0.hasSuffix("-340x340.jpg") }.isEmpty)
        #expect(names.filter { $0.hasSuffix("-720x760.jpg") }.count == 4)
        // Leftovers of a killed run are swept too.
        try Data("partial".utf8).write(to: directory.url.appendingPathComponent("images/.tmp-leftover"))
        _ = try await Self.refresher(directory.url, transport: transport, size: .large).refresh(
            now: Self.t0,
            force: true
        )
        #expect(
            !FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("images/.tmp-leftover").path)
        )
    }

    @Test func anImageThatCannotBeWrittenFailsTheRefreshAndKeepsTheLastTimeline() async throws {
        // Images are written as they are made, beside the downloads still running: one that cannot be written
        // (a directory squats on its name) fails the whole refresh, and the committed timeline stays as it was.
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try await Self.refresher(directory.url, transport: try Self.transport()).refresh(now: Self.t0)
        let good = try Self.contents(directory.url)["timeline.json"]
        let manifest = try #require(try CacheStore(directory: directory.url).manifest())
        let key = try #require(manifest.entries.last?.media.key)
        let name = try #require(CacheStore.imagePath(mediaKey: key, size: .medium))
        try FileManager.default.createDirectory(
            at: directory.url.appendingPathComponent(name).appendingPathComponent("squatter"),
            withIntermediateDirectories: true
        )
        let error = await #expect(throws: KFeedError.self) {
            try await Self.refresher(directory.url, transport: try Self.transport(), size: .medium).refresh(
                now: Self.t0,
                force: true
            )
        }
        #expect(error?.code == .io)
        #expect(try Self.contents(directory.url)["timeline.json"] == good)
        #expect(try CacheStore(directory: directory.url).manifest()?.size == .small)
    }

    @Test func aCacheThatCannotBeCreatedFailsBeforeAnyRequest() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("not-a-directory")
        try Data("x".utf8).write(to: file)
        for target in [file, file.appendingPathComponent("cache")] {
            let transport = try Self.transport()
            let error = await #expect(throws: KFeedError.self) {
                try await Self.refresher(target, transport: transport).refresh(now: Self.t0)
            }
            #expect(error?.code == .cacheUnwritable)
            #expect(error?.code.exitCode == 73)
            #expect(transport.requests.isEmpty)
        }
    }

    @Test func symlinksPlantedInTheCacheAreNeverWrittenThrough() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let victim = directory.url.appendingPathComponent("victim")
        try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
        let cache = directory.url.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: cache.appendingPathComponent("images"),
            withDestinationURL: victim
        )
        let error = await #expect(throws: KFeedError.self) {
            try await Self.refresher(cache, transport: try Self.transport()).refresh(now: Self.t0)
        }
        #expect(error?.code == .cacheUnwritable)
        #expect(try FileManager.default.contentsOfDirectory(atPath: victim.path).isEmpty)

        // A symlink in place of an image is replaced, and its target left alone.
        try FileManager.default.removeItem(at: cache.appendingPathComponent("images"))
        let target = victim.appendingPathComponent("passwd")
        try Data("secret".utf8).write(to: target)
        try FileManager.default.createDirectory(
            at: cache.appendingPathComponent("images"),
            withIntermediateDirectories: true
        )
        let planted = cache.appendingPathComponent("images/3_1859170000000100101-340x340.jpg")
        try FileManager.default.createSymbolicLink(at: planted, withDestinationURL: target)
        _ = try await Self.refresher(cache, transport: try Self.transport()).refresh(now: Self.t0)
        #expect(try Data(contentsOf: target) == Data("secret".utf8))
        let attributes = try FileManager.default.attributesOfItem(atPath: planted.path)
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
    }

    @Test func aSecondRefreshWhileTheLockIsHeldExits75() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = CacheStore(directory: directory.url)
        try cache.prepare()
        let held = try cache.lock()
        let transport = try Self.transport()
        let error = await #expect(throws: KFeedError.self) {
            try await Self.refresher(directory.url, transport: transport).refresh(now: Self.t0)
        }
        #expect(error?.code == .lockHeld)
        #expect(error?.code.exitCode == 75)
        #expect(transport.requests.isEmpty)
        withExtendedLifetime(held) {}
    }

    @Test func filesAndDirectoriesAreNeverGroupOrWorldWritable() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = directory.url.appendingPathComponent("cache")
        _ = try await Self.refresher(cache, transport: try Self.transport()).refresh(now: Self.t0)
        let enumerator = FileManager.default.enumerator(atPath: cache.path)
        var checked = 0
        while let name = enumerator?.nextObject() as? String {
            let mode = try #require(
                try FileManager.default.attributesOfItem(atPath: cache.appendingPathComponent(name).path)[
                    .posixPermissions
                ]
                    as? Int
            )
            #expect(mode & 0o022 == 0, "\(name) has mode \(String(mode, radix: 8))")
            checked += 1
        }
        #expect(checked > 10)
    }

    @Test func aFullDiskExits74AndLeavesTheOldGenerationIntact() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let mountPoint = directory.url.appendingPathComponent("small-disk")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        guard geteuid() == 0,
            Self.system("/bin/mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", mountPoint.path]) == 0
        else {
            // Mounting a small filesystem needs root; elsewhere the I/O mapping is still covered by CacheDirectory.
            return
        }
        defer { _ = Self.system("/bin/umount", [mountPoint.path]) }
        let transport = try Self.transport()
        _ = try await Self.refresher(mountPoint, transport: transport, size: .small).refresh(now: Self.t0)
        let before = try Self.contents(mountPoint)
        // Fill the disk, then ask for a generation that needs new files.
        let filler = mountPoint.appendingPathComponent("filler")
        #expect(FileManager.default.createFile(atPath: filler.path, contents: nil))
        let handle = try FileHandle(forWritingTo: filler)
        while (try? handle.write(contentsOf: Data(count: 4_096))) != nil {}
        try? handle.close()
        let error = await #expect(throws: KFeedError.self) {
            try await Self.refresher(mountPoint, transport: transport, size: .large).refresh(now: Self.t0)
        }
        #expect(error?.code == .io)
        #expect(error?.code.exitCode == 74)
        var after = try Self.contents(mountPoint)
        after["filler"] = nil
        after["kfeed.log"] = nil
        var expected = before
        expected["kfeed.log"] = nil
        expected["state.json"] = after["state.json"]
        #expect(after == expected)
    }
}

import Foundation
import KFeed
import KFeedBase
import KFeedImages
import KFeedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `kfeed refresh` as cron runs it: quiet, due-ness, exit codes, the lock, modes, and kills at random points.
@Suite(.timeLimit(.minutes(5)))
struct RefreshCommandTests {
    /// A replay directory answering the kpop fixture, every image with a small valid JPEG.
    private static func replay(in directory: URL, imageStatus: Int = 200) throws -> URL {
        let replay = directory.appendingPathComponent("replay")
        try FileManager.default.createDirectory(at: replay, withIntermediateDirectories: true)
        try ReplayDirectory.make(
            at: replay,
            searchFixture: "recent-search.kpop.json",
            image: JPEGThumbnailer.placeholder(size: ImageSize(width: 120, height: 90)),
            imageStatus: imageStatus
        )
        return replay
    }

    private static func modificationDates(_ directory: URL) throws -> [String: Date] {
        var result: [String: Date] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            let attributes = try FileManager.default.attributesOfItem(
                atPath: directory.appendingPathComponent(name).path
            )
            result[name] = attributes[.modificationDate] as? Date
        }
        return result
    }

    @Test func refreshIsQuietOnSuccessAndANoOpUntilDue() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let replay = try Self.replay(in: directory.url)
        let cache = directory.url.appendingPathComponent("cache").path
        let first = try await KFeedProcess.run([
            "refresh", "--replay", replay.path, "--cache", cache, "--now", "2026-11-22T09:00:00Z",
        ])
        #expect(first.status == 0)
        #expect(first.stdout.isEmpty && first.stderr.isEmpty)
        let before = try Self.modificationDates(URL(fileURLWithPath: cache))
        // A */15 crontab between reloads: exit 0, nothing written. The replay directory is gone, so any request
        // would fail: none is made.
        try FileManager.default.removeItem(at: replay)
        for now in ["2026-11-22T09:15:00Z", "2026-11-22T11:59:59Z"] {
            let idle = try await KFeedProcess.run(["refresh", "--replay", replay.path, "--cache", cache, "--now", now])
            #expect(idle.status == 0)
            #expect(idle.stderr.isEmpty)
        }
        #expect(try Self.modificationDates(URL(fileURLWithPath: cache)) == before)
        let due = try await KFeedProcess.run([
            "refresh", "--replay", replay.path, "--cache", cache, "--now", "2026-11-22T12:00:00Z",
        ])
        #expect(due.status == 66)  // due now: it asks, and the missing replay answers nothing
    }

    @Test func profilesRenderEveryEntryAndCurrentNamesTheRender() async throws {
        try await TemporaryDirectory.withAsync { directory in
            let replay = try Self.replay(in: directory)
            let cache = directory.appendingPathComponent("cache").path
            let now = "2026-11-22T09:00:00Z"
            let refresh = try await KFeedProcess.run(
                ["refresh", "--replay", replay.path, "--cache", cache, "--now", now, "--profile", "trmnl-bmp"],
                environment: ["KFEED_PROFILES": "grey4"]  // the flag wins over the environment
            )
            #expect(refresh.status == 0)
            #expect(refresh.stderr.isEmpty)
            let current = try await KFeedProcess.run([
                "current", "--cache", cache, "--now", "2026-11-22T09:30:00Z", "--field", "render.trmnl-bmp",
            ])
            #expect(current.status == 0)
            let path = current.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(path.hasPrefix(cache + "/renders/") && path.hasSuffix(".bmp"))
            #expect(FileManager.default.contents(atPath: path)?.count == 48_062)
            let missing = try await KFeedProcess.run([
                "current", "--cache", cache, "--now", "2026-11-22T09:30:00Z", "--field", "render.grey4",
            ])
            #expect(missing.status == 69)
            #expect(missing.stderr.contains("run kfeed refresh --profile grey4"))
        }
    }

    @Test(
        arguments: [
            (["--profile", "10x10:mono"], [String: String](), Int32(64)),
            (["--profile", "800x480:rgb:bmp"], [String: String](), Int32(64)),
            ([String](), ["KFEED_PROFILES": "trmnl,e-ink"], Int32(78)),
        ] as [([String], [String: String], Int32)]
    )
    func aBadProfileIsRefusedBeforeAnyRequest(
        arguments: [String],
        environment: [String: String],
        status: Int32
    )
        async throws
    {
        try await TemporaryDirectory.withAsync { directory in
            let cache = directory.appendingPathComponent("cache").path
            let result = try await KFeedProcess.run(
                ["refresh", "--replay", directory.appendingPathComponent("none").path, "--cache", cache] + arguments,
                environment: environment
            )
            #expect(result.status == status)
            #expect(result.stderr.split(separator: "\n").count == 1)
            #expect(!FileManager.default.fileExists(atPath: cache))
        }
    }

    @Test func aTimeZoneChangeBetweenRunsChangesNoInstantAndNothingIsDueEarly() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let replay = try Self.replay(in: directory.url)
        let cache = directory.url.appendingPathComponent("cache")
        // Made in Seoul at 09:00Z; the four entries end at 12:00Z whatever zone reads them.
        let first = try await KFeedProcess.run(
            ["refresh", "--replay", replay.path, "--cache", cache.path, "--now", "2026-11-22T18:00:00+09:00"],
            environment: ["TZ": "Asia/Seoul"]
        )
        #expect(first.status == 0)
        let manifest = try String(contentsOf: cache.appendingPathComponent("timeline.json"), encoding: .utf8)
        #expect(manifest.contains("\"reload_after\" : \"2026-11-22T12:00:00Z\""))
        // The machine moves to New York, which also leaves summer time on another date: 06:59 local is 11:59Z.
        for zone in ["America/New_York", "Europe/Berlin", "UTC"] {
            let idle = try await KFeedProcess.run(
                ["refresh", "--replay", replay.path, "--cache", cache.path, "--now", "2026-11-22T06:59:59-05:00"],
                environment: ["TZ": zone]
            )
            #expect(idle.status == 0)
            #expect(try String(contentsOf: cache.appendingPathComponent("timeline.json"), encoding: .utf8) == manifest)
        }
        let due = try await KFeedProcess.run(
            ["refresh", "--replay", replay.path, "--cache", cache.path, "--now", "2026-11-22T07:00:00-05:00", "-v"],
            environment: ["TZ": "America/New_York"]
        )
        #expect(due.status == 0)
        #expect(due.stderr.contains("refreshed"))
    }

    @Test func failureIsOneLineAndTheCodeAndIsRecordedInState() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = directory.url.appendingPathComponent("cache")
        let result = try await KFeedProcess.run([
            "refresh", "--replay", Fixture.replay("401").path, "--cache", cache.path, "--now", "2026-11-22T09:00:00Z",
        ])
        #expect(result.status == 77)
        #expect(result.stderr.split(separator: "\n").count == 1)
        let state = try String(contentsOf: cache.appendingPathComponent("state.json"), encoding: .utf8)
        #expect(state.contains("\"retry_after\" : \"2026-11-22T09:15:00Z\""))
        #expect(state.contains("\"class\" : \"unauthorized\""))
        let log = try String(contentsOf: cache.appendingPathComponent("kfeed.log"), encoding: .utf8)
        #expect(log.hasPrefix("2026-11-22T09:00:00Z refresh failed (unauthorized)"))
        // Within the back-off nothing is tried, even though the replay would now answer.
        let waiting = try await KFeedProcess.run([
            "refresh", "--replay", Fixture.replay("401").path, "--cache", cache.path, "--now", "2026-11-22T09:10:00Z",
        ])
        #expect(waiting.status == 0)
    }

    @Test func aSecondRunWhileTheLockIsHeldExits75AtOnce() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let replay = try Self.replay(in: directory.url)
        let cache = directory.url.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let descriptor = open(cache.appendingPathComponent(".lock").path, O_RDWR | O_CREAT, 0o644)
        #expect(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        let held = try await KFeedProcess.run(["refresh", "--force", "--replay", replay.path, "--cache", cache.path])
        #expect(held.status == 75)
        #expect(held.stderr.contains("another kfeed refresh holds the lock"))
        close(descriptor)
        let free = try await KFeedProcess.run(["refresh", "--force", "--replay", replay.path, "--cache", cache.path])
        #expect(free.status == 0)
    }

    @Test func modesIgnoreAPermissiveUmask() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let replay = try Self.replay(in: directory.url)
        let cache = directory.url.appendingPathComponent("cache")
        let result = try await KFeedProcess.run(
            ["refresh", "--force", "--replay", replay.path, "--cache", cache.path],
            shell: "umask 000"
        )
        #expect(result.status == 0)
        let enumerator = FileManager.default.enumerator(atPath: cache.path)
        var names: [String] = []
        while let name = enumerator?.nextObject() as? String {
            let attributes = try FileManager.default.attributesOfItem(atPath: cache.appendingPathComponent(name).path)
            let mode = try #require(attributes[.posixPermissions] as? Int)
            #expect(mode & 0o022 == 0, "\(name): \(String(mode, radix: 8))")
            names.append(name)
        }
        #expect(names.contains("timeline.json") && names.contains("kfeed.log") && names.contains("images"))
    }

    @Test func cacheThatCannotBeWrittenExits73() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("file")
        try Data().write(to: file)
        let result = try await KFeedProcess.run([
            "refresh", "--replay", Fixture.replay("sample").path, "--cache", file.appendingPathComponent("cache").path,
        ])
        #expect(result.status == 73)
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    /// Kills `kfeed refresh` at random points, over and over, while a reader keeps parsing the manifest and opening
    /// every file it names: the reader must always see one whole generation.
    @Test func killedAtRandomPointsAReaderAlwaysSeesAWholeGeneration() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let replay = try Self.replay(in: directory.url)
        let cache = directory.url.appendingPathComponent("cache")
        let sizes = ["small", "medium", "large", "200x300"]
        func arguments(_ run: Int) -> [String] {
            ["refresh", "--force", "--replay", replay.path, "--cache", cache.path, "--size", sizes[run % sizes.count]]
        }
        let first = try await KFeedProcess.run(arguments(0))
        #expect(first.status == 0)
        // Kill points spread over about one run's length, however fast this machine runs it today: a run like those
        // below (another size over a filled cache), timed.
        let clock = ContinuousClock()
        let started = clock.now
        #expect(try await KFeedProcess.run(arguments(1)).status == 0)
        let (seconds, attoseconds) = (clock.now - started).components
        // The window follows the machine's load as it goes: narrower after a run that finished first, wider after one
        // killed, so that about half the runs die somewhere inside.
        var window = Double(max(20, Int(seconds) * 1_000 + Int(attoseconds / 1_000_000_000_000_000)))

        let reader = GenerationReader(directory: cache)
        reader.start()
        var generator = SystemRandomNumberGenerator()
        var killed = 0
        for run in 1...120 {
            let process = Process()
            process.executableURL = KFeedProcess.executable
            process.arguments = arguments(run)
            process.environment = ["PATH": "/usr/bin:/bin", "HOME": directory.url.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...Int(window), using: &generator)))
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                killed += 1
                window = min(window * 1.15, 2_000)
            } else {
                window = max(window * 0.75, 5)
            }
            await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    process.waitUntilExit()
                    continuation.resume()
                }
            }
        }
        let report = reader.stop()
        #expect(report.failures.isEmpty, "\(report.failures.prefix(3))")
        #expect(report.reads > 100)
        #expect(killed >= 30, "only \(killed) of 120 runs were killed mid-way")

        // The next run sweeps what killed runs left behind.
        let last = try await KFeedProcess.run(arguments(0))
        #expect(last.status == 0)
        for subdirectory in ["", "images", "avatars"] {
            let names = try FileManager.default.contentsOfDirectory(
                atPath: cache.appendingPathComponent(subdirectory).path
            )
            #expect(!names.contains { $0.hasPrefix(".tmp-") })
        }
    }
}

/// Reads the cache in a loop on its own thread, as a widget would: parse `timeline.json`, open every file it names.
final class GenerationReader: @unchecked Sendable {
    // `@unchecked Sendable`: `isStopping`, `reads` and `failures` are only touched under `lock`.
    private let directory: URL
    private let lock = NSLock()
    private var isStopping = false
    private var reads = 0
    private var failures: [String] = []
    private let done = DispatchSemaphore(value: 0)

    init(directory: URL) {
        self.directory = directory
    }

    func start() {
        Thread.detachNewThread { [self] in
            while !lock.withLock({ isStopping }) {
                let problem = readOnce()
                lock.withLock {
                    reads += 1
                    if let problem { failures.append(problem) }
                }
            }
            done.signal()
        }
    }

    func stop() -> (reads: Int, failures: [String]) {
        lock.withLock { isStopping = true }
        done.wait()
        return lock.withLock { (reads, failures) }
    }

    private func readOnce() -> String? {
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent("timeline.json").path)
        else { return "timeline.json missing" }
        guard let manifest = try? Manifest.decode(data) else { return "timeline.json does not parse" }
        guard !manifest.entries.isEmpty else { return "empty timeline" }
        let sizes = Set(manifest.entries.compactMap(\.image).filter { $0.hasPrefix("images/") }.map { $0.suffix(11) })
        if sizes.count > 1 { return "mixed generations: \(sizes)" }
        for path in manifest.entries.flatMap({ [$0.image, $0.author.avatar] }).compactMap({ $0 }) {
            guard let bytes = FileManager.default.contents(atPath: directory.appendingPathComponent(path).path),
                bytes.starts(with: [0xFF, 0xD8, 0xFF]), bytes.suffix(2) == Data([0xFF, 0xD9])
            else { return "\(path) missing or not a whole JPEG" }
        }
        return nil
    }
}

import Foundation
import KFeedBase
import KFeedImages
import KFeedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `kfeed serve` process started from the built binary, with the port read from its one start-up line.
///
/// `@unchecked Sendable`: `process` is only started in `start` and signalled or waited on afterwards, which
/// `Process` allows from any thread.
final class RunningServer: @unchecked Sendable {
    let process: Process
    /// The port it listens on.
    let port: Int
    /// The start-up line.
    let line: String
    private let home: TemporaryDirectory
    private let errorFile: URL

    /// `http://127.0.0.1:PORT`.
    var base: String { "http://127.0.0.1:\(port)" }

    /// What the server printed on stderr so far.
    var stderr: String {
        (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
    }

    private init(process: Process, port: Int, line: String, home: TemporaryDirectory, errorFile: URL) {
        self.process = process
        self.port = port
        self.line = line
        self.home = home
        self.errorFile = errorFile
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        home.remove()
    }

    /// Starts `kfeed serve arguments…` (add `--listen 127.0.0.1:0`) and waits (≤ 30 s) for its start-up line.
    /// Without a `--replay` of its own, the server gets the sample's: the pictures of renders made on demand then
    /// come from recorded files, and no test server ever reaches for pbs.twimg.com.
    static func start(_ arguments: [String], environment: [String: String] = [:]) async throws -> RunningServer {
        let home = try TemporaryDirectory()
        let process = Process()
        process.executableURL = KFeedProcess.executable
        let replay = arguments.contains("--replay") ? [] : ["--replay", Fixture.replay("sample").path]
        process.arguments = ["serve"] + arguments + replay
        var env = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "TZ": "UTC",
            "HOME": home.url.path, "XDG_CACHE_HOME": home.url.path,
        ]
        env.merge(environment) { $1 }
        process.environment = env
        process.currentDirectoryURL = home.url
        let out = Pipe()
        let errorFile = home.url.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: errorFile)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let line = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var bytes: [UInt8] = []
                let handle = out.fileHandleForReading
                while true {
                    let chunk = handle.readData(ofLength: 1)
                    if chunk.isEmpty || chunk.first == UInt8(ascii: "\n") { break }
                    bytes += chunk
                }
                continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
            }
        }
        let port = line.firstMatch(of: /127\.0\.0\.1:(\d+)\//).flatMap { Int($0.output.1) }
        guard let port else {
            process.waitUntilExit()
            let error = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
            throw ServerFailure(description: "no start-up line (\(process.terminationStatus)): '\(line)' \(error)")
        }
        return RunningServer(process: process, port: port, line: line, home: home, errorFile: errorFile)
    }

    /// Sends `signal` and waits for the exit (≤ 20 s): the status and the seconds it took.
    func stop(_ signal: Int32 = SIGTERM) async -> (status: Int32, seconds: Double) {
        let stopped = await stop(signal) {}
        return (stopped.status, stopped.seconds)
    }

    /// Sends `signal`, runs `meanwhile` on a thread of its own, and waits for the exit (≤ 20 s, then kills it): the
    /// status, the seconds from the signal to the exit and what `meanwhile` returned. The exit is timed by a thread
    /// started with the signal, the moment it is seen: not when the awaiting task runs again (in the full parallel
    /// suite beside two busy loops, that came up to 6.7 s after servers had exited in 0.07 s).
    func stop<Value: Sendable>(
        _ signal: Int32,
        meanwhile: @escaping @Sendable () -> Value
    ) async -> (status: Int32, seconds: Double, meanwhile: Value) {
        let process = self.process
        let exit = ExitWatch()
        let start = ContinuousClock.now
        kill(process.processIdentifier, signal)
        Thread.detachNewThread {
            while process.isRunning && ContinuousClock.now < start + .seconds(20) { usleep(10_000) }
            let elapsed = (ContinuousClock.now - start).components
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            exit.seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
            exit.seen.signal()
        }
        let value = await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: meanwhile()) }
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                exit.seen.wait()
                continuation.resume()
            }
        }
        return (process.terminationStatus, exit.seconds, value)
    }

    /// When the watching thread saw the exit. `@unchecked Sendable`: `seconds` is written before `seen` is signalled
    /// and read only after it was waited for.
    private final class ExitWatch: @unchecked Sendable {
        let seen = DispatchSemaphore(value: 0)
        var seconds = 0.0
    }

    struct ServerFailure: Error, CustomStringConvertible {
        var description: String
    }
}

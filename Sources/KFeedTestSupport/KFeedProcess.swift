package import Foundation
import KFeed
import KFeedBase

/// Runs the built `kfeed` binary, as a user would, and captures what it printed.
package struct KFeedProcess: Sendable {
    /// What a run printed and how it ended.
    package struct Result: Sendable {
        /// The exit status.
        package var status: Int32
        /// Standard output.
        package var stdout: String
        /// Standard error.
        package var stderr: String
    }

    /// The `kfeed` executable beside the test bundle (same build directory), or `$KFEED_BINARY`.
    package static var executable: URL {
        if let path = ProcessInfo.processInfo.environment["KFEED_BINARY"] { return URL(fileURLWithPath: path) }
        var directory = Bundle.main.bundleURL
        while !directory.path.isEmpty && directory.path != "/" {
            let candidate = directory.appendingPathComponent("kfeed")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
            "kfeed"
        )
    }

    /// Runs `kfeed arguments…` off the cooperative pool, with exactly `environment` plus `PATH`, `TZ=UTC` and
    /// an `XDG_CACHE_HOME`/`HOME` of its own that is removed afterwards, so no run touches the real cache.
    /// - Parameters:
    ///   - arguments: the command line after `kfeed`.
    ///   - environment: variables to set (they win over the defaults above).
    ///   - directory: the working directory (default: the temporary directory).
    ///   - stdin: bytes for standard input.
    ///   - shell: a `/bin/sh -c` prefix run before `exec kfeed …` (e.g. `umask 000`).
    /// - Returns: the exit status and what was printed.
    /// - Throws: when the process cannot be started.
    package static func run(
        _ arguments: [String],
        environment: [String: String] = [:],
        directory: URL? = nil,
        stdin: Data? = nil,
        shell: String? = nil
    ) async throws -> Result {
        let process = Process()
        if let shell {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "\(shell) && exec \"$0\" \"$@\"", executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        let cacheHome = try TemporaryDirectory()
        defer { cacheHome.remove() }
        var env = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "TZ": "UTC",
            "HOME": cacheHome.url.path, "XDG_CACHE_HOME": cacheHome.url.path,
        ]
        env.merge(environment) { $1 }
        process.environment = env
        process.currentDirectoryURL = directory ?? FileManager.default.temporaryDirectory
        return try await outcome(of: process, stdin: stdin)
    }

    /// Starts `process` (its executable, arguments and environment set) and waits for it off the cooperative pool:
    /// a thread of its own writes `stdin` and reads standard output and error to their ends, so that a long-running
    /// tool never holds one of the pool's threads, which the other tests running at the same time share.
    /// - Returns: the exit status and what was printed.
    /// - Throws: when the process cannot be started.
    package static func outcome(of process: Process, stdin: Data? = nil) async throws -> Result {
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                if let stdin { input.fileHandleForWriting.write(stdin) }
                try? input.fileHandleForWriting.close()
                // Read both pipes to the end on their own threads so neither can fill up and block the child.
                let group = DispatchGroup()
                nonisolated(unsafe) var errData = Data()
                group.enter()
                Thread.detachNewThread {
                    errData = err.fileHandleForReading.readDataToEndOfFile()
                    group.leave()
                }
                let outData = out.fileHandleForReading.readDataToEndOfFile()
                group.wait()
                process.waitUntilExit()
                continuation.resume(
                    returning: Result(
                        status: process.terminationStatus,
                        stdout: String(decoding: outData, as: UTF8.self),
                        stderr: String(decoding: errData, as: UTF8.self)
                    )
                )
            }
        }
    }
}

extension KFeedProcess {
    /// A cache refreshed by the built `kfeed` from the bundled sample replay at 2026-11-22T09:00:00Z: `entries`
    /// entries an hour apart (with 6, entry 4 — 13:00Z — is the sample's "not a JPEG" placeholder).
    /// - Parameters:
    ///   - entries: the timeline length.
    ///   - profiles: display profiles rendered for every entry (`--profile`).
    /// - Returns: the cache directory; the caller removes it.
    /// - Throws: when the process cannot be started, or the refresh fails.
    package static func sampleCache(entries: Int = 6, profiles: [String] = []) async throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        let result = try await run(
            [
                "refresh", "--replay", Fixture.replay("sample").path, "--cache", directory.url.path,
                "--now", "2026-11-22T09:00:00Z", "--entries", String(entries),
            ] + profiles.flatMap { ["--profile", $0] }
        )
        guard result.status == 0 else {
            directory.remove()
            throw KFeedError(.io, "the sample refresh failed (\(result.status)): \(result.stderr)")
        }
        return directory
    }
}

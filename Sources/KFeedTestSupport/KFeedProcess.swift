public import Foundation

/// Runs the built `kfeed` binary, as a user would, and captures what it printed.
public struct KFeedProcess: Sendable {
    /// What a run printed and how it ended.
    public struct Result: Sendable {
        /// The exit status.
        public var status: Int32
        /// Standard output.
        public var stdout: String
        /// Standard error.
        public var stderr: String
    }

    /// The `kfeed` executable beside the test bundle (same build directory), or `$KFEED_BINARY`.
    public static var executable: URL {
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

    /// Runs `kfeed arguments…` in `directory` with exactly `environment` (plus `PATH`), off the cooperative pool.
    public static func run(
        _ arguments: [String],
        environment: [String: String] = [:],
        directory: URL? = nil,
        stdin: Data? = nil
    ) async throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var env = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "TZ": "UTC"]
        env.merge(environment) { $1 }
        process.environment = env
        process.currentDirectoryURL = directory ?? FileManager.default.temporaryDirectory
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

/// A fresh, UUID-named directory under the system's temporary directory, removed by `remove()`.
public struct TemporaryDirectory: Sendable {
    /// The directory.
    public let url: URL

    /// Creates the directory.
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("kfeed-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Removes the directory and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

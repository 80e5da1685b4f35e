import Foundation
import KFeedBase
import KFeedImages
import KFeedTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// nginx (Debian's `nginx-light`) as the caching reverse proxy `docs/serve.md` shows, in front of a `kfeed serve` on
/// loopback: the configuration block from the docs (its cache path, `listen` and upstream port replaced), inside a
/// main configuration of its own in a temporary directory (pid file, error and access logs, cache and temp paths),
/// run in the foreground (`daemon off`) as a child process that `stop()` ends. As root, its workers run as `nobody`.
///
/// `@unchecked Sendable`: `process` is only started in `start` and signalled or waited on afterwards, which
/// `Process` allows from any thread.
final class RunningNginx: @unchecked Sendable {
    /// One line of the access log: a request nginx answered.
    struct Logged: Sendable {
        /// When nginx finished it (seconds since 1970).
        var time: Double
        /// `$upstream_cache_status`: `HIT`, `MISS`, `EXPIRED`, `UPDATING`, … or `-` (not cacheable).
        var cacheStatus: String
        /// Whether the request reached kfeed (`$upstream_addr` is set).
        var reachedServer: Bool
        var status: Int
        /// The path and query as the client sent them.
        var uri: String
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// `nginx` on PATH or in `/usr/sbin`; nil when it is not installed.
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") + ["/usr/sbin", "/usr/local/sbin"] {
            let candidate = "\(directory)/nginx"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()

    /// The configuration block of `docs/serve.md`'s "Behind a cache or a CDN" (its first `nginx` code block).
    static func documentedConfiguration() throws -> String {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/serve.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        guard let block = text.firstMatch(of: /```nginx\n([\s\S]*?)```/)?.output.1 else {
            throw Failure(description: "docs/serve.md has no ```nginx block")
        }
        return String(block)
    }

    let process: Process
    /// The port it listens on.
    let port: Int
    private let directory: TemporaryDirectory

    /// `http://127.0.0.1:PORT`.
    var base: String { "http://127.0.0.1:\(port)" }

    private init(process: Process, port: Int, directory: TemporaryDirectory) {
        self.process = process
        self.port = port
        self.directory = directory
    }

    deinit {
        // SIGTERM, not SIGKILL: nginx's master then ends its workers too (killed, it would leave them running).
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        directory.remove()
    }

    /// Starts nginx in front of `127.0.0.1:upstreamPort` and waits (≤ 10 s) until it accepts connections; tries
    /// another port when the one picked was taken meanwhile (three times).
    static func start(upstreamPort: Int) async throws -> RunningNginx {
        guard let executable else { throw Failure(description: "nginx is not installed") }
        let block = try documentedConfiguration()
        var lastError = ""
        for _ in 0..<3 {
            let directory = try TemporaryDirectory()
            let port = try freePort()
            let root = directory.url.path
            let site =
                block
                .replacingOccurrences(of: "/var/cache/nginx/kfeed", with: "\(root)/cache")
                .replacingOccurrences(of: "listen 80;", with: "listen 127.0.0.1:\(port);")
                .replacingOccurrences(of: "127.0.0.1:8787", with: "127.0.0.1:\(upstreamPort)")
            let configuration = """
                \(geteuid() == 0 ? "user nobody nogroup;" : "")
                worker_processes 1;
                daemon off;
                pid \(root)/nginx.pid;
                error_log \(root)/error.log;
                events { worker_connections 512; }
                http {
                  log_format kfeed '$msec $upstream_cache_status "$upstream_addr" $status "$request_uri"';
                  access_log \(root)/access.log kfeed;
                  client_body_temp_path \(root)/body;
                  proxy_temp_path \(root)/proxy;
                  fastcgi_temp_path \(root)/fastcgi;
                  uwsgi_temp_path \(root)/uwsgi;
                  scgi_temp_path \(root)/scgi;
                \(site)
                }

                """
            let file = directory.url.appendingPathComponent("nginx.conf")
            try Data(configuration.utf8).write(to: file)
            // nobody's workers write the cache and temp paths nginx creates here, so they need to reach them.
            chmod(root, 0o755)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = ["-c", file.path, "-p", root, "-e", "\(root)/error.log"]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let running = RunningNginx(process: process, port: port, directory: directory)
            for _ in 0..<200 where process.isRunning {
                if let socket = RawHTTP.connect(port: port, timeoutSeconds: 1) {
                    close(socket)
                    return running
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            lastError = running.errorLog
            await running.stop()
            if !lastError.contains("Address already in use") { break }
        }
        throw Failure(description: "nginx did not start: \(lastError)")
    }

    /// A port nothing listens on now (bound to 127.0.0.1:0 and released).
    private static func freePort() throws -> Int {
        let (descriptor, port) = try LoopbackPort.bound()
        close(descriptor)
        return port
    }

    /// nginx's error log so far.
    var errorLog: String {
        (try? String(contentsOf: directory.url.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
    }

    /// The access log so far, one entry per request answered.
    func accessLog() -> [Logged] {
        let url = directory.url.appendingPathComponent("access.log")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let match = line.firstMatch(of: /^([0-9.]+) (\S+) "([^"]*)" (\d+) "([^"]*)"$/),
                let time = Double(match.output.1), let status = Int(match.output.4)
            else { return nil }
            return Logged(
                time: time,
                cacheStatus: String(match.output.2),
                reachedServer: match.output.3 != "-",
                status: status,
                uri: String(match.output.5)
            )
        }
    }

    /// Ends nginx (SIGTERM, then SIGKILL after 5 s) and waits for it.
    func stop() async {
        let process = self.process
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                let deadline = Date().addingTimeInterval(5)
                while process.isRunning && Date() < deadline { usleep(20_000) }
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                process.waitUntilExit()
                continuation.resume()
            }
        }
    }
}

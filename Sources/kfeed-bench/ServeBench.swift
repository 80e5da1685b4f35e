import Foundation
import KFeed
import KFeedTestSupport

/// `kfeed-bench serve [--photos DIR] [--latency-ms N]`: a loopback X API for whole-refresh benchmarks. Serves the
/// bundled sample's two search pages with every image URL pointing back at itself, each photo from `DIR` (the
/// benchmark corpus; the bundled sample images without it), avatars from the sample, and `latency-ms` before every
/// response. Prints `port N` on stdout, then serves until standard input closes.
enum ServeBench {
    static func run(_ arguments: [String]) async throws {
        var photos = Fixture.directory.appendingPathComponent("images")
        var latency = 100
        var remaining = arguments[...]
        while let flag = remaining.popFirst() {
            guard let value = remaining.popFirst() else { throw KFeedError(.usage, "\(flag) needs a value") }
            switch flag {
            case "--photos": photos = URL(fileURLWithPath: value)
            case "--latency-ms": latency = Int(value) ?? latency
            default: throw KFeedError(.usage, "unknown option \(flag); use --photos DIR, --latency-ms N")
            }
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: photos.path)
            .filter { $0.hasSuffix(".jpg") && !$0.hasPrefix("avatar") && !$0.hasPrefix("broken") }.sorted()
            .map { try Data(contentsOf: photos.appendingPathComponent($0)) }
        let avatar = try Fixture.data("images/avatar-1.jpg")
        let pages = try (1...2).map { try Fixture.data("recent-search.sample-page\($0).json") }
        let delay = Duration.milliseconds(latency)
        let counter = Counter()

        let handler: @Sendable (LoopbackServer.Request) -> LoopbackServer.Response = { request in
            // One line per request (one write: lines never interleave), for bench/cli.sh's sequential client.
            FileHandle.standardOutput.write(Data("request \(request.target)\n".utf8))
            let host = request[header: "Host"] ?? "127.0.0.1"
            let jpeg = [HTTPHeader("Content-Type", "image/jpeg")]
            if request.path == RecentSearchRequest.path {
                let page = request.queryValue("next_token") == nil ? pages[0] : pages[1]
                let body = String(decoding: page, as: UTF8.self)
                    .replacingOccurrences(of: "https://pbs.twimg.com", with: "http://\(host)")
                return LoopbackServer.Response(
                    headers: [HTTPHeader("Content-Type", "application/json")],
                    body: Data(body.utf8),
                    delay: delay
                )
            }
            if request.path.hasPrefix("/profile_images/") {
                return LoopbackServer.Response(headers: jpeg, body: avatar, delay: delay)
            }
            // Each photo URL gets the next corpus photo, so 24 chosen posts show 24 different photographs.
            let photo = files.isEmpty ? Data() : files[counter.next(for: request.path) % files.count]
            return LoopbackServer.Response(headers: jpeg, body: photo, delay: delay)
        }
        try await LoopbackServer.withServer(handler) { server in
            print("port \(server.port)")
            fflush(nil)
            // Serve until the benchmark script closes our standard input.
            await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    _ = FileHandle.standardInput.readDataToEndOfFile()
                    continuation.resume()
                }
            }
        }
    }
}

/// Numbers each distinct path in order of first request.
private final class Counter: @unchecked Sendable {
    // `@unchecked Sendable`: `indices` is only touched under `lock`.
    private let lock = NSLock()
    private var indices: [String: Int] = [:]

    func next(for path: String) -> Int {
        lock.withLock {
            if let index = indices[path] { return index }
            indices[path] = indices.count
            return indices.count - 1
        }
    }
}

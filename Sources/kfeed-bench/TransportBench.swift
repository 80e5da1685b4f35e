import Foundation
import KFeed
import KFeedBase
import KFeedHTTP
import KFeedTestSupport

/// `kfeed-bench transport [--count N] [--bytes N] [--latency-ms N] [--target-ms N]`: fetches `count` bodies of
/// `bytes` bytes from an in-process loopback server that adds `latency-ms` before every response, first all at once
/// through one `CurlTransport`, then one at a time through the same transport, and prints both wall times.
enum TransportBench {
    struct Options {
        var count = 48
        var bytes = 200_000
        var latencyMilliseconds = 100
        var targetMilliseconds = 600

        init(_ arguments: [String]) throws {
            var remaining = arguments[...]
            while let flag = remaining.popFirst() {
                guard let text = remaining.popFirst(), let value = Int(text), value > 0 else {
                    throw KFeedError(.usage, "\(flag) needs a positive whole number")
                }
                switch flag {
                case "--count": count = value
                case "--bytes": bytes = value
                case "--latency-ms": latencyMilliseconds = value
                case "--target-ms": targetMilliseconds = value
                default:
                    throw KFeedError(.usage, "unknown option \(flag); use --count, --bytes, --latency-ms, --target-ms")
                }
            }
        }
    }

    static func run(_ arguments: [String]) async throws {
        let options = try Options(arguments)
        let body = Data(repeating: 0x6B, count: options.bytes)
        let response = LoopbackServer.Response(
            headers: [HTTPHeader("Content-Type", "image/jpeg")],
            body: body,
            delay: .milliseconds(options.latencyMilliseconds)
        )
        try await LoopbackServer.withServer(responding: response) { server in
            let transport = try CurlTransport()
            let requests = try (0..<options.count).map { index in
                guard let url = URL(string: "\(server.baseURL.absoluteString)/media/\(index).jpg") else {
                    throw KFeedError(.usage, "cannot form a URL for \(server.baseURL)")
                }
                return HTTPRequest(url: url, maxBodyBytes: options.bytes, maxRedirects: 5)
            }

            let clock = ContinuousClock()
            let concurrent = try await clock.measure {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for request in requests {
                        group.addTask { try await transport.send(request).body.count }
                    }
                    for try await count in group where count != options.bytes {
                        throw KFeedError(.transport, "a response had \(count) bytes, expected \(options.bytes)")
                    }
                }
            }
            let concurrentPeak = server.peakConcurrentRequests
            let concurrentConnections = server.connectionCount

            let sequential = try await clock.measure {
                for request in requests {
                    let count = try await transport.send(request).body.count
                    guard count == options.bytes else {
                        throw KFeedError(.transport, "a response had \(count) bytes, expected \(options.bytes)")
                    }
                }
            }
            let sequentialConnections = server.connectionCount - concurrentConnections

            let concurrentSeconds = seconds(concurrent)
            let sequentialSeconds = seconds(sequential)
            let target = Double(options.targetMilliseconds) / 1_000
            let lines = [
                "kfeed-bench transport: \(options.count) × \(options.bytes) B, "
                    + "\(options.latencyMilliseconds) ms added latency per response, loopback HTTP/1.1",
                "  concurrent wall time:   \(format(concurrentSeconds)) s   (target < \(format(target)) s: "
                    + (concurrentSeconds < target ? "met" : "MISSED") + ")",
                "  sequential wall time:   \(format(sequentialSeconds)) s",
                "  concurrent/sequential:  \(format(concurrentSeconds / sequentialSeconds)) "
                    + "(\(String(format: "%.1f", sequentialSeconds / concurrentSeconds))× faster)",
                "  throughput (concurrent): "
                    + String(format: "%.1f", Double(options.count * options.bytes) / concurrentSeconds / 1e6) + " MB/s",
                "  server peak in flight:  \(concurrentPeak) of \(options.count)",
                "  connections opened:     \(concurrentConnections) concurrent, \(sequentialConnections) sequential",
                "  peak RSS (VmHWM):       \(peakMemory())",
                "bench-result concurrent_s=\(format(concurrentSeconds)) sequential_s=\(format(sequentialSeconds))"
                    + " met=\(concurrentSeconds < target)",
            ]
            print(lines.joined(separator: "\n"))
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    private static func format(_ value: Double) -> String { String(format: "%.3f", value) }

    /// The process's peak resident set size, from `/proc/self/status`.
    private static func peakMemory() -> String {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return "unavailable" }
        let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
        return String(format: "%.1f MB", Double(kilobytes) / 1_024)
    }
}

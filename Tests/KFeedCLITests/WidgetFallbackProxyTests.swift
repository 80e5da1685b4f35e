import Foundation
import KFeed
import KFeedBase
import KFeedHTTP
import KFeedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The widget's no-script fallback (`<meta http-equiv="refresh">`) behind nginx's cache (`RunningNginx`, the
/// configuration `docs/serve.md` shows): a copy the cache stored before the entry's end and hands out after it still
/// tells its client to come back at most 60 s after the end. It runs on the real clock (nginx's cache does), so
/// `scripts/test.sh` runs it on its own, after the parallel suites.
@Suite(
    .timeLimit(.minutes(3)),
    .enabled(
        if: RunningNginx.executable != nil,
        "needs nginx: apt-get install -y nginx-light (scripts/test.sh installs it through scripts/deps.sh)"
    )
)
struct WidgetFallbackProxyTests {
    @Test func aCopyServedAfterTheEntrysEndStillSaysComeBackWithinAMinuteOfIt() async throws {
        // The server and nginx first (slow on a busy machine), then a timeline of 1-minute entries written on the real
        // clock, the first begun 10 s ago: it ends within the test.
        let cache = try TemporaryDirectory()
        defer { cache.remove() }
        let server = try await RunningServer.start(["--cache", cache.url.path, "--listen", "127.0.0.1:0", "-v"])
        let nginx = try await RunningNginx.start(upstreamPort: server.port)
        let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down) - 10)
        let refresh = try await KFeedProcess.run([
            "refresh", "--force", "--replay", Fixture.replay("sample").path, "--cache", cache.url.path, "--now",
            InstantFormat.string(from: start), "--entries", "3", "--interval", "1m",
        ])
        #expect(refresh.status == 0, "\(refresh.stderr)")
        let end = start.addingTimeInterval(60)
        let transport = try CurlTransport()
        let widget = try #require(URL(string: "\(nginx.base)/widget"))

        // Stored by nginx before the end: fresh until the end (Expires), stale for 10 s more while it is fetched anew.
        var stored = try await transport.send(HTTPRequest(url: widget))
        for _ in 0..<20 where stored.status != 200 || !Self.html(stored).contains("data-until") {
            try await Task.sleep(for: .milliseconds(250))  // until the server has read the timeline
            stored = try await transport.send(HTTPRequest(url: widget))
        }
        #expect(Date() < end.addingTimeInterval(-5), "setting up took until \(Date()); the entry ends at \(end)")
        #expect(Self.html(stored).contains("data-until=\"\(InstantFormat.string(from: end))\""))
        #expect(stored[header: "expires"].flatMap(InstantFormat.date(fromHTTPDate:)) == end)

        // After the end, kfeed stalls (stopped): the request that fetches the page anew waits, and meanwhile nginx hands
        // the stored copy to the next client, as its `stale-while-revalidate` allows.
        let wait = end.addingTimeInterval(1).timeIntervalSinceNow
        if wait > 0 { try await Task.sleep(for: .seconds(wait)) }
        kill(server.process.processIdentifier, SIGSTOP)
        let updating = Task { try await CurlTransport().send(HTTPRequest(url: widget)) }
        // Until nginx's request for the fresh copy waits, unread, at the stopped kfeed (a fixed sleep may end before
        // nginx has sent it, on a busy machine).
        var waiting = false
        for _ in 0..<300 where !waiting {
            try await Task.sleep(for: .milliseconds(20))
            waiting = try Self.requestWaits(atPort: server.port)
        }
        #expect(waiting, "nginx's request for a fresh copy did not reach kfeed within 6 s")
        let late = try await transport.send(HTTPRequest(url: widget))
        kill(server.process.processIdentifier, SIGCONT)
        let fresh = try await updating.value

        // The late copy: the ended entry's page, served after the end (nginx's `Date`), whose fallback reload comes at
        // most 60 s after the end.
        let served = try #require(late[header: "date"].flatMap(InstantFormat.date(fromHTTPDate:)))
        let html = Self.html(late)
        #expect(late[header: "x-cache-status"] == "UPDATING" || late[header: "x-cache-status"] == "STALE")
        #expect(html.contains("data-until=\"\(InstantFormat.string(from: end))\""), "not the stored copy")
        #expect(served > end, "the copy was served at \(served), not after the end \(end)")
        let reload = try #require(
            html.firstMatch(of: /<meta http-equiv="refresh" content="(\d+)">/).flatMap { Int($0.output.1) }
        )
        let comeBack = served.addingTimeInterval(Double(reload))
        #expect(
            comeBack <= end.addingTimeInterval(60),
            "served \(served.timeIntervalSince(end)) s after the end, it says come back in \(reload) s"
        )
        // The client that waited got the next entry's page.
        #expect(fresh.status == 200 && !Self.html(fresh).contains("data-until=\"\(InstantFormat.string(from: end))\""))
        await nginx.stop()
        #expect((await server.stop()).status == 0)
    }

    /// Whether a connection to local `port` holds bytes its server has not read (`/proc/net/tcp`: an established
    /// socket whose receive queue is not empty).
    private static func requestWaits(atPort port: Int) throws -> Bool {
        // Read to the end: the kernel writes the table a page at a time, and a busy suite has hundreds of sockets.
        let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/net/tcp"))
        defer { try? file.close() }
        let table = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
        return table.split(separator: "\n").dropFirst().contains { line in
            // sl, local address (hex IP:port), remote address, state (01: established), tx_queue:rx_queue, …
            let fields = line.split(separator: " ")
            guard fields.count > 4, fields[3] == "01", let local = fields[1].split(separator: ":").last,
                Int(local, radix: 16) == port, let unread = fields[4].split(separator: ":").last
            else { return false }
            return (Int(unread, radix: 16) ?? 0) > 0
        }
    }

    private static func html(_ response: KFeedHTTP.HTTPResponse) -> String {
        String(decoding: response.body, as: UTF8.self)
    }
}

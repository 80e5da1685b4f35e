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

@Suite(.timeLimit(.minutes(1)))
struct LoopbackServerTests {
    @Test func bindsLoopbackOnAnAssignedPort() async throws {
        try await LoopbackServer.withServer(responding: .text("ok")) { server in
            #expect(server.port > 0)
            #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)")
        }
    }

    @Test func recordsTheQueryRawAndDecoded() async throws {
        try await LoopbackServer.withServer(responding: .text("ok")) { server in
            let reply = try await Self.exchange(
                server.port,
                "GET /2/tweets/search/recent?query=cats%20has%3Aimages&max_results=10&plus=a+b&flag HTTP/1.1\r\n"
                    + "Host: 127.0.0.1\r\nX-Mixed-Case: Value\r\nConnection: close\r\n\r\n"
            )
            #expect(reply.hasPrefix("HTTP/1.1 200 OK\r\n"))
            let request = try #require(server.requests.first)
            #expect(request.method == "GET")
            #expect(request.path == "/2/tweets/search/recent")
            #expect(request.rawQuery == "query=cats%20has%3Aimages&max_results=10&plus=a+b&flag")
            #expect(request.queryValue("query") == "cats has:images")
            #expect(request.queryValue("max_results") == "10")
            #expect(request.queryValue("plus") == "a+b")
            #expect(request.queryItems.last == URLQueryItem(name: "flag", value: nil))
            #expect(request[header: "x-mixed-case"] == "Value")
            #expect(request[header: "X-MIXED-CASE"] == "Value")
        }
    }

    @Test func servesSeveralRequestsOnOneConnection() async throws {
        let echoPath: @Sendable (LoopbackServer.Request) -> LoopbackServer.Response = { .text($0.path) }
        try await LoopbackServer.withServer(echoPath) { server in
            let reply = try await Self.exchange(
                server.port,
                "GET /first HTTP/1.1\r\nHost: a\r\n\r\nGET /second HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"
            )
            #expect(reply.contains("Content-Length: 6\r\n\r\n/first"))
            #expect(reply.hasSuffix("/second"))
            #expect(server.connectionCount == 1)
            #expect(server.requests.map(\.path) == ["/first", "/second"])
        }
    }

    @Test func closesTheConnectionWhenTheResponseSaysSo() async throws {
        let transport = try CurlTransport()
        var closing = LoopbackServer.Response.text("bye")
        closing.closesConnection = true
        try await LoopbackServer.withServer(responding: closing) { server in
            for _ in 0..<2 { _ = try await transport.send(HTTPRequest(url: server.baseURL)) }
            #expect(server.connectionCount == 2)
        }
    }

    @Test func sendsAChunkedBody() async throws {
        let body = Data("0123456789abcdefghij".utf8)
        let chunked = LoopbackServer.Response(body: body, delivery: .chunked(chunkSize: 7))
        try await LoopbackServer.withServer(responding: chunked) { server in
            let reply = try await Self.exchange(server.port, "GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
            #expect(reply.contains("Transfer-Encoding: chunked\r\n"))
            #expect(!reply.contains("Content-Length"))
            #expect(reply.hasSuffix("\r\n\r\n7\r\n0123456\r\n7\r\n789abcd\r\n6\r\nefghij\r\n0\r\n\r\n"))

            let response = try await CurlTransport().send(HTTPRequest(url: server.baseURL))
            #expect(response.body == body)
        }
    }

    @Test func declaresMoreThanItSendsWhenTruncating() async throws {
        let short = LoopbackServer.Response(body: Data("abc".utf8), delivery: .truncated(declaredLength: 100))
        try await LoopbackServer.withServer(responding: short) { server in
            let reply = try await Self.exchange(server.port, "GET / HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(reply.contains("Content-Length: 100\r\n"))
            #expect(reply.hasSuffix("\r\n\r\nabc"))  // then the server closed, or `exchange` would not return
        }
    }

    @Test func addsLatencyBeforeAnswering() async throws {
        try await LoopbackServer.withServer(responding: .text("late").delayed(by: .milliseconds(200))) { server in
            let start = ContinuousClock.now
            let response = try await CurlTransport().send(HTTPRequest(url: server.baseURL))
            #expect(start.duration(to: .now) >= .milliseconds(200))
            #expect(response.body == Data("late".utf8))
        }
    }

    @Test func dripsTheBodySlowly() async throws {
        let body = Data(repeating: 0x61, count: 500)
        let drip = LoopbackServer.Response(body: body, delivery: .drip(bytes: 100, every: .milliseconds(50)))
        try await LoopbackServer.withServer(responding: drip) { server in
            let start = ContinuousClock.now
            let response = try await CurlTransport().send(HTTPRequest(url: server.baseURL))
            #expect(start.duration(to: .now) >= .milliseconds(200))
            #expect(response.body == body)
        }
    }

    @Test func countsOnlyOverlappingRequestsAsConcurrent() async throws {
        let transport = try CurlTransport()
        try await LoopbackServer.withServer(responding: .text("ok").delayed(by: .milliseconds(20))) { server in
            for _ in 0..<3 { _ = try await transport.send(HTTPRequest(url: server.baseURL)) }
            #expect(server.peakConcurrentRequests == 1)
            try await CurlTransportTests.waitUntil { server.requestsInFlight == 0 }
            #expect(server.requests.count == 3)
        }
    }

    @Test func stopEndsHangingConnectionsAndClosesTheListener() async throws {
        let transport = try CurlTransport()
        let start = ContinuousClock.now
        let (baseURL, task) = try await LoopbackServer.withServer(responding: .hang) { server in
            let request = HTTPRequest(url: server.baseURL, totalTimeout: .seconds(30))
            let task = Task { try await transport.send(request) }
            try await CurlTransportTests.waitUntil { server.requestsInFlight == 1 }
            return (server.baseURL, task)
        }
        #expect(start.duration(to: .now) < .seconds(30))  // bounded, not a speed check
        let hangError = await #expect(throws: KFeedError.self) { try await task.value }
        #expect(hangError?.code == .transport)
        #expect(start.duration(to: .now) < .seconds(30))  // bounded, not a speed check

        let refused = await #expect(throws: KFeedError.self) {
            try await transport.send(HTTPRequest(url: baseURL, connectTimeout: .seconds(2)))
        }
        #expect(refused?.message.contains("check that the server is up") == true)
    }

    @Test func stopsWhenTheBodyThrows() async throws {
        struct Expected: Error {}
        var port: UInt16 = 0
        await #expect(throws: Expected.self) {
            try await LoopbackServer.withServer(responding: .text("ok")) { server in
                port = server.port
                throw Expected()
            }
        }
        let baseURL = try #require(URL(string: "http://127.0.0.1:\(port)"))
        // The port is free again: refused, or (tests run in parallel) already another test's server, never ours.
        let answer = try? await CurlTransport().send(HTTPRequest(url: baseURL))
        #expect(answer.map { String(decoding: $0.body, as: UTF8.self) } != "ok")
    }

    // MARK: - Helpers

    /// Sends `request` on a fresh connection from a dedicated thread and returns everything read until the server
    /// closes the connection (at most 5 s).
    static func exchange(_ port: UInt16, _ request: String) async throws -> String {
        let bytes = try await withCheckedThrowingContinuation {
            (continuation: CheckedContinuation<[UInt8], any Error>) in
            let thread = Thread { continuation.resume(with: Result { try rawExchange(port, Array(request.utf8)) }) }
            thread.start()
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    struct SocketError: Error, CustomStringConvertible {
        var operation: String
        var code: Int32
        var description: String { "\(operation): errno \(code)" }
    }

    private static func rawExchange(_ port: UInt16, _ request: [UInt8]) throws -> [UInt8] {
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard client >= 0 else { throw SocketError(operation: "socket", code: errno) }
        defer { close(client) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        _ = setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw SocketError(operation: "connect", code: errno) }
        guard send(client, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else {
            throw SocketError(operation: "send", code: errno)
        }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = recv(client, &chunk, chunk.count, 0)
            if count < 0 { throw SocketError(operation: "recv", code: errno) }
            if count == 0 { return received }
            received += chunk[..<count]
        }
    }
}

import Foundation
import KFeed
import KFeedBase
import KFeedHTTP
import KFeedImages
import KFeedTestSupport
import KFeedX
import Testing

@Suite(.timeLimit(.minutes(1)))
struct CurlTransportTests {
    /// 100,000 × "k", gzip-compressed to 133 bytes: a small gzip bomb.
    static let gzippedBody = Data(
        base64Encoded:
            "H4sIAAAAAAACA+3BIQEAAADDoMDr71/jAigAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
            + "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAADg1QCGZZ4doIYBAA=="
    )

    // MARK: - Concurrency and connections

    @Test func keepsManyTransfersInFlightAtOnce() async throws {
        let transport = try CurlTransport()
        try await LoopbackServer.withServer(responding: .text("ok").delayed(by: .milliseconds(300))) { server in
            let url = try Self.url(server.baseURL, "/slow")
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<16 {
                    group.addTask { try await transport.send(HTTPRequest(url: url)).status }
                }
                for try await status in group { #expect(status == 200) }
            }
            #expect(server.requests.count == 16)
            #expect(server.peakConcurrentRequests >= 8)
        }
    }

    @Test func sequentialRequestsReuseOneConnection() async throws {
        let transport = try CurlTransport()
        try await LoopbackServer.withServer(responding: .text("ok")) { server in
            for index in 0..<3 {
                let response = try await transport.send(HTTPRequest(url: try Self.url(server.baseURL, "/r/\(index)")))
                #expect(response.status == 200)
            }
            #expect(server.connectionCount == 1)
            #expect(server.requests.map(\.connection) == [1, 1, 1])
        }
    }

    // MARK: - Redirects

    @Test func refusesARedirectToAFileURL() async throws {
        let transport = try CurlTransport()
        try await LoopbackServer.with(responding: .redirect(to: "file:///etc/passwd")) { baseURL in
            let request = HTTPRequest(url: try Self.url(baseURL, "/image.jpg"), maxRedirects: 5)
            let error = await #expect(throws: KFeedError.self) { try await transport.send(request) }
            #expect(error?.code == .transport)
            #expect(error?.message.contains("only http and https") == true)
            #expect(error?.message.contains("root:") == false)
        }
    }

    @Test func followsARedirectToAnotherPortForImages() async throws {
        let transport = try CurlTransport()
        try await LoopbackServer.withServer(responding: .text("image bytes")) { images in
            let target = try Self.url(images.baseURL, "/media/cat.jpg")
            try await LoopbackServer.with(responding: .redirect(to: target)) { baseURL in
                let request = HTTPRequest(url: try Self.url(baseURL, "/cat.jpg"), maxRedirects: 5)
                let response = try await transport.send(request)
                #expect(response.status == 200)
                #expect(response.body == Data("image bytes".utf8))
                #expect(response.url == target)
            }
            #expect(images.requests.map(\.path) == ["/media/cat.jpg"])
        }
    }

    @Test func returnsARedirectAsIsWhenNotFollowing() async throws {
        let transport = try CurlTransport()
        try await LoopbackServer.withServer(responding: .text("image bytes")) { images in
            let target = try Self.url(images.baseURL, "/media/cat.jpg")
            try await LoopbackServer.with(responding: .redirect(to: target, status: 301)) { baseURL in
                let source = try Self.url(baseURL, "/cat.jpg")
                let response = try await transport.send(HTTPRequest(url: source, maxRedirects: 0))
                #expect(response.status == 301)
                #expect(response[header: "location"] == target.absoluteString)
                #expect(response.url == source)
            }
            #expect(images.requests.isEmpty)
        }
    }

    @Test(arguments: [(hops: 5, succeeds: true), (hops: 6, succeeds: false)])
    func followsAtMostMaxRedirects(hops: Int, succeeds: Bool) async throws {
        let transport = try CurlTransport()
        let handler: @Sendable (LoopbackServer.Request) -> LoopbackServer.Response = { request in
            let hop = Int(request.path.dropFirst("/hop/".count)) ?? 0
            return hop < hops ? .redirect(to: "/hop/\(hop + 1)") : .text("arrived")
        }
        try await LoopbackServer.with(handler) { baseURL in
            let request = HTTPRequest(url: try Self.url(baseURL, "/hop/0"), maxRedirects: 5)
            if succeeds {
                let response = try await transport.send(request)
                #expect(response.body == Data("arrived".utf8))
                #expect(response.url.path == "/hop/\(hops)")
            } else {
                let error = await #expect(throws: KFeedError.self) { try await transport.send(request) }
                #expect(error?.code == .transport)
                #expect(error?.message.contains("redirected more than 5 times") == true)
            }
        }
    }

    @Test func keepsOnlyTheFinalResponsesHeadersAfterARedirect() async throws {
        let transport = try CurlTransport()
        let handler: @Sendable (LoopbackServer.Request) -> LoopbackServer.Response = { request in
            guard request.path == "/final" else {
                var redirect = LoopbackServer.Response.redirect(to: "/final")
                redirect.headers.append(HTTPHeader("X-Hop", "first"))
                return redirect
            }
            return LoopbackServer.Response(headers: [HTTPHeader("X-Final", "yes")], body: Data("done".utf8))
        }
        try await LoopbackServer.with(handler) { baseURL in
            let response = try await transport.send(HTTPRequest(url: try Self.url(baseURL, "/start"), maxRedirects: 2))
            #expect(response[header: "x-final"] == "yes")
            #expect(response[header: "x-hop"] == nil)
            #expect(response[header: "location"] == nil)
            #expect(response.url == (try Self.url(baseURL, "/final")))
        }
    }

    @Test func doesNotForwardAuthorizationToAnotherHost() async throws {
        let transport = try CurlTransport()
        try await LoopbackServer.withServer(responding: .text("image bytes")) { images in
            let target = try Self.url(images.baseURL, "/media/cat.jpg")
            try await LoopbackServer.withServer(responding: .redirect(to: target)) { api in
                let request = HTTPRequest(
                    url: try Self.url(api.baseURL, "/2/media"),
                    headers: [HTTPHeader("Authorization", "Bearer secret-token")],
                    maxRedirects: 5
                )
                #expect(try await transport.send(request).status == 200)
                #expect(api.requests.first?[header: "authorization"] == "Bearer secret-token")
            }
            let imageRequest = try #require(images.requests.first)
            #expect(imageRequest[header: "authorization"] == nil)
        }
    }

    // MARK: - Time limits

    @Test func hangingServerCostsBoundedTime() async throws {
        let transport = try CurlTransport()
        try await LoopbackServer.with(responding: .hang) { baseURL in
            let request = HTTPRequest(
                url: try Self.url(baseURL, "/hang"),
                headers: [HTTPHeader("Authorization", "Bearer secret-token")],
                connectTimeout: .milliseconds(500),
                totalTimeout: .milliseconds(500)
            )
            let start = ContinuousClock.now
            let error = await #expect(throws: KFeedError.self) { try await transport.send(request) }
            #expect(start.duration(to: .now) < .seconds(30))  // bounded, not a speed check
            #expect(error?.code == .transport)
            #expect(error?.message.contains("timed out") == true)
            #expect(error.map { "\($0)" }?.contains("secret-token") == false)
        }
    }

    @Test func slowDripTripsTheLowSpeedLimit() async throws {
        let transport = try CurlTransport()
        let body = Data(repeating: 0x6B, count: 4_000)
        let drip = LoopbackServer.Response(body: body, delivery: .drip(bytes: 10, every: .milliseconds(100)))
        try await LoopbackServer.with(responding: drip) { baseURL in
            let request = HTTPRequest(
                url: try Self.url(baseURL, "/drip"),
                totalTimeout: .seconds(30),
                lowSpeedBytesPerSecond: 1_000,
                lowSpeedTime: .seconds(1)
            )
            let start = ContinuousClock.now
            let error = await #expect(throws: KFeedError.self) { try await transport.send(request) }
            #expect(start.duration(to: .now) < .seconds(30))  // bounded, not a speed check
            #expect(error?.code == .transport)
            #expect(error?.message.contains("too slow") == true)
        }
    }

    // MARK: - Byte cap

    @Test(arguments: [LoopbackServer.Response.Delivery.whole, .chunked(chunkSize: 1_000)])
    func abortsABodyOverTheCap(delivery: LoopbackServer.Response.Delivery) async throws {
        let transport = try CurlTransport()
        let big = LoopbackServer.Response(body: Data(repeating: 0x6B, count: 10_000), delivery: delivery)
        try await LoopbackServer.with(responding: big) { baseURL in
            let request = HTTPRequest(url: try Self.url(baseURL, "/big"), maxBodyBytes: 4_096)
            let error = await #expect(throws: KFeedError.self) { try await transport.send(request) }
            #expect(error?.code == .transport)
            #expect(error?.message.contains("exceeded 4096 bytes") == true)
        }
    }

    @Test(arguments: [LoopbackServer.Response.Delivery.whole, .chunked(chunkSize: 1_000)])
    func acceptsABodyExactlyAtTheCap(delivery: LoopbackServer.Response.Delivery) async throws {
        let transport = try CurlTransport()
        let body = Data((0..<4_096).map { UInt8(truncatingIfNeeded: $0) })
        let exact = LoopbackServer.Response(body: body, delivery: delivery)
        try await LoopbackServer.with(responding: exact) { baseURL in
            let request = HTTPRequest(url: try Self.url(baseURL, "/exact"), maxBodyBytes: 4_096)
            #expect(try await transport.send(request).body == body)
        }
    }

    @Test func capsTheDecodedSizeOfACompressedBody() async throws {
        let transport = try CurlTransport()
        let gzipped = try #require(Self.gzippedBody)
        let response = LoopbackServer.Response(headers: [HTTPHeader("Content-Encoding", "gzip")], body: gzipped)
        try await LoopbackServer.withServer(responding: response) { server in
            let url = try Self.url(server.baseURL, "/bomb")
            let decoded = try await transport.send(HTTPRequest(url: url, maxBodyBytes: 100_000))
            #expect(decoded.body == Data(repeating: 0x6B, count: 100_000))
            let error = await #expect(throws: KFeedError.self) {
                try await transport.send(HTTPRequest(url: url, maxBodyBytes: 10_000))
            }
            #expect(error?.message.contains("exceeded 10000 bytes") == true)
            #expect(server.requests.first?[header: "accept-encoding"]?.contains("gzip") == true)
        }
    }

    /// A gzip member whose deflate stream decodes to 1 + `runs` × (`literals` + 258) zero bytes (fixed Huffman codes:
    /// a literal 0, then per run `literals` literal zeros, 8 bits each, and a match of length 258 at distance 1, 13
    /// bits), without a valid trailer (a transfer must stop long before) unless `trailer`. With no literals it
    /// inflates about 160-fold; with 2, about 72-fold (under the transport's ratio, so only the byte cap stops it).
    private static func gzipBomb(runs: Int, literals: Int = 0, trailer: Bool = false) -> Data {
        var bytes: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 255]
        var accumulator: UInt32 = 0
        var count = 0
        func put(_ value: UInt32, _ bits: Int) {  // LSB first
            accumulator |= value << count
            count += bits
            while count >= 8 {
                bytes.append(UInt8(truncatingIfNeeded: accumulator))
                accumulator >>= 8
                count -= 8
            }
        }
        func code(_ value: UInt32, _ bits: Int) {  // Huffman codes go most significant bit first
            var reversed: UInt32 = 0
            for bit in 0..<bits where value & (1 << bit) != 0 { reversed |= 1 << (bits - 1 - bit) }
            put(reversed, bits)
        }
        put(1, 1)  // BFINAL
        put(1, 2)  // fixed Huffman
        code(0x30, 8)  // literal 0
        for _ in 0..<runs {
            for _ in 0..<literals { code(0x30, 8) }  // literal 0
            code(0b1100_0101, 8)  // length 258 (code 285)
            code(0, 5)  // distance 1
        }
        code(0, 7)  // end of block
        put(0, 7)
        guard trailer else { return Data(bytes + [UInt8](repeating: 0, count: 8)) }
        let decoded = 1 + runs * (literals + 258)
        var table = [UInt32](repeating: 0, count: 256)
        for byte in 0..<256 {
            var value = UInt32(byte)
            for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
            table[byte] = value
        }
        var crc: UInt32 = 0xFFFF_FFFF
        for _ in 0..<decoded { crc = table[Int(crc & 0xFF)] ^ (crc >> 8) }  // CRC-32 of the zero bytes
        crc ^= 0xFFFF_FFFF
        for value in [crc, UInt32(truncatingIfNeeded: decoded)] {
            bytes += (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        }
        return Data(bytes)
    }

    @Test func stopsACompressionBombByItsRatioLongBeforeTheByteCap() async throws {
        let transport = try CurlTransport()
        let bomb = Self.gzipBomb(runs: 400_000)  // 103 MB decoded from 650 KB
        #expect(bomb.count < 700_000)
        let response = LoopbackServer.Response(
            headers: [HTTPHeader("Content-Encoding", "gzip")],
            body: bomb,
            delivery: .chunked(chunkSize: 16_384)
        )
        try await LoopbackServer.with(responding: response) { baseURL in
            let url = try Self.url(baseURL, "/bomb.jpg")
            let error = await #expect(throws: KFeedError.self) {
                try await transport.send(HTTPRequest(url: url, maxBodyBytes: ImageFetcher.maxImageBytes))
            }
            #expect(
                error?.message.contains("exceeded 100 times its compressed size") == true,
                "\(String(describing: error))"
            )
        }
    }

    /// How a compressed body may reach the client: in one write, in 4 KiB chunks, or in 4 KiB writes 1 ms apart.
    static let compressedDeliveries: [LoopbackServer.Response.Delivery] = [
        .whole, .chunked(chunkSize: 4_096), .drip(bytes: 4_096, every: .milliseconds(1)),
    ]

    @Test(arguments: compressedDeliveries)
    func capsTheDecodedBytesOfAPageWhateverTheChunking(delivery: LoopbackServer.Response.Delivery) async throws {
        let transport = try CurlTransport()
        let runs = 6 << 20 / 260  // 6 MiB decoded from 88 KB: past the page cap, under the ratio
        let response = LoopbackServer.Response(
            headers: [HTTPHeader("Content-Encoding", "gzip")],
            body: Self.gzipBomb(runs: runs, literals: 2),
            delivery: delivery
        )
        try await LoopbackServer.with(responding: response) { baseURL in
            let url = try Self.url(baseURL, "/2/tweets/search/recent")
            let error = await #expect(throws: KFeedError.self) {
                try await transport.send(HTTPRequest(url: url, maxBodyBytes: XClient.maxPageBytes))
            }
            #expect(error?.code == .transport)
            #expect(
                error?.message.contains("exceeded \(XClient.maxPageBytes) bytes") == true,
                "\(String(describing: error))"
            )
        }
    }

    @Test(arguments: compressedDeliveries)
    func acceptsACompressedBodyUnderTheCapWhateverTheChunking(
        delivery: LoopbackServer.Response.Delivery
    ) async throws {
        let transport = try CurlTransport()
        let runs = 3 << 20 / 260  // 3 MiB decoded, 72-fold: neither the cap nor the ratio refuses it
        let response = LoopbackServer.Response(
            headers: [HTTPHeader("Content-Encoding", "gzip")],
            body: Self.gzipBomb(runs: runs, literals: 2, trailer: true),
            delivery: delivery
        )
        try await LoopbackServer.with(responding: response) { baseURL in
            let url = try Self.url(baseURL, "/2/tweets/search/recent")
            let page = try await transport.send(HTTPRequest(url: url, maxBodyBytes: XClient.maxPageBytes))
            #expect(page.body == Data(count: 1 + runs * 260))
        }
    }

    @Test(arguments: compressedDeliveries)
    func stopsACompressionBombWhateverTheChunking(delivery: LoopbackServer.Response.Delivery) async throws {
        let transport = try CurlTransport()
        let response = LoopbackServer.Response(
            headers: [HTTPHeader("Content-Encoding", "gzip")],
            body: Self.gzipBomb(runs: 400_000),  // 103 MB decoded from 650 KB
            delivery: delivery
        )
        try await LoopbackServer.with(responding: response) { baseURL in
            let url = try Self.url(baseURL, "/bomb.jpg")
            let error = await #expect(throws: KFeedError.self) {
                try await transport.send(HTTPRequest(url: url, maxBodyBytes: ImageFetcher.maxImageBytes))
            }
            #expect(
                error?.message.contains("exceeded 100 times its compressed size") == true,
                "\(String(describing: error))"
            )
        }
    }

    @Test func reportsATruncatedBody() async throws {
        let transport = try CurlTransport()
        let short = LoopbackServer.Response(
            body: Data(repeating: 0x6B, count: 100),
            delivery: .truncated(declaredLength: 1_000)
        )
        try await LoopbackServer.with(responding: short) { baseURL in
            let error = await #expect(throws: KFeedError.self) {
                try await transport.send(HTTPRequest(url: try Self.url(baseURL, "/short")))
            }
            #expect(error?.code == .transport)
            #expect(error?.message.contains("connection broke") == true)
        }
    }

    // MARK: - Request headers

    @Test func sendsCustomHeaders() async throws {
        let transport = try CurlTransport()
        try await LoopbackServer.withServer(responding: .text("ok")) { server in
            let request = HTTPRequest(
                url: try Self.url(server.baseURL, "/2/tweets/search/recent?query=cats%20has%3Aimages"),
                headers: [HTTPHeader("X-Kfeed-Test", "a b: c"), HTTPHeader("Accept", "application/json")]
            )
            _ = try await transport.send(request)
            let received = try #require(server.requests.first)
            #expect(received[header: "x-kfeed-test"] == "a b: c")
            #expect(received[header: "accept"] == "application/json")
            #expect(received.rawQuery == "query=cats%20has%3Aimages")
            #expect(received.queryValue("query") == "cats has:images")
        }
    }

    @Test func userAgentNamesKFeed() async throws {
        let transport = try CurlTransport()
        try await LoopbackServer.withServer(responding: .text("ok")) { server in
            _ = try await transport.send(HTTPRequest(url: server.baseURL))
            #expect(server.requests.first?[header: "user-agent"] == "kfeed/\(KFeedVersion.version)")
        }
    }

    @Test func rejectsAHeaderValueWithALineBreak() async throws {
        let transport = try CurlTransport()
        let request = HTTPRequest(
            url: try #require(URL(string: "http://127.0.0.1:9/")),
            headers: [HTTPHeader("Authorization", "Bearer secret\r\nX-Injected: 1")]
        )
        let error = await #expect(throws: KFeedError.self) { try await transport.send(request) }
        #expect(error?.code == .transport)
        #expect(error?.message.contains("malformed header \"Authorization\"") == true)
        #expect(error?.message.contains("secret") == false)
    }

    // MARK: - Failures and cancellation

    @Test func reportsARefusedConnection() async throws {
        let transport = try CurlTransport()
        // A port bound and not listening (a stopped server's port could be another test's server by now).
        try await LoopbackPort.refusing { port in
            let url = try #require(URL(string: "http://127.0.0.1:\(port)/gone"))
            let error = await #expect(throws: KFeedError.self) { try await transport.send(HTTPRequest(url: url)) }
            #expect(error?.code == .transport)
            #expect(error?.message.contains("127.0.0.1:\(port)") == true)
        }
    }

    @Test func cancellationAbortsTheTransfer() async throws {
        let transport = try CurlTransport()
        try await LoopbackServer.withServer(responding: .hang) { server in
            let request = HTTPRequest(url: try Self.url(server.baseURL, "/hang"), totalTimeout: .seconds(30))
            let task = Task { try await transport.send(request) }
            try await Self.waitUntil { server.requestsInFlight == 1 }
            let start = ContinuousClock.now
            task.cancel()
            let error = await #expect(throws: (any Error).self) { try await task.value }
            #expect(start.duration(to: .now) < .seconds(30))  // bounded, not a speed check
            #expect(error is CancellationError || (error as? KFeedError)?.code == .transport)
            try await Self.waitUntil { server.requestsInFlight == 0 }  // the client really closed the connection
        }
    }

    @Test func cancelledTaskDoesNotStartATransfer() async throws {
        let transport = try CurlTransport()
        try await LoopbackServer.withServer(responding: .text("ok")) { server in
            let url = try Self.url(server.baseURL, "/never")
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await transport.send(HTTPRequest(url: url))
            }
            await #expect(throws: CancellationError.self) { try await task.value }
            #expect(server.requests.isEmpty)
        }
    }

    // MARK: - Helpers

    static func url(_ base: URL, _ pathAndQuery: String) throws -> URL {
        try #require(URL(string: base.absoluteString + pathAndQuery))
    }

    /// Polls `condition` every 10 ms for up to 20 s; a failure is reported at the caller's line, with the time waited.
    static func waitUntil(
        sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: @Sendable () -> Bool
    ) async throws {
        let start = ContinuousClock.now
        while !condition() && start.duration(to: .now) < .seconds(20) {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(condition(), "still false after \(start.duration(to: .now))", sourceLocation: sourceLocation)
    }
}

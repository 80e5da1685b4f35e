import Clocks
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KFeed
import KFeedHTTP
import KFeedServe
import KFeedTestSupport
import Logging
import NIOCore
import Synchronization

/// The wall clock of a server under test: an instant the test sets, moved only by the test.
final class ManualNow: Sendable {
    private let value: Mutex<Date>

    /// A clock at `instant` (`2026-11-22T10:30:00Z`).
    init(_ instant: String) {
        value = Mutex(InstantFormat.date(from: instant) ?? .distantPast)
    }

    /// The instant.
    var date: Date { value.withLock { $0 } }

    /// Moves the clock on by `seconds`.
    func advance(by seconds: Double) {
        value.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}

/// One answer of the server under test: what the binary's tests read from libcurl (status, headers by lower-case
/// name, body).
struct Answer: Sendable {
    var status: Int
    var headers: [String: String]
    var body: Data

    /// A header's value (`name` in lower case).
    subscript(header name: String) -> String? { headers[name] }
}

/// `kfeed serve`'s application in process (`KFeedServer.application`), tested through HummingbirdTesting's router
/// framework: no socket, no binary, no waiting. Its wall clock is a ``ManualNow`` and its durations a `TestClock`, so
/// a test moves time by hand.
struct InProcessServer: Sendable {
    /// The server's address in the URLs it hands out: the router framework's requests name `localhost`.
    static let base = "http://localhost"

    let client: any TestClientProtocol

    /// The configuration of a server of one feed, `cache`, with the sample's recorded pictures for renders on demand.
    static func configuration(
        cache: URL,
        now: ManualNow,
        key: String? = nil,
        trmnlDevices: [String: String] = [:]
    ) -> ServeConfiguration {
        ServeConfiguration(
            feeds: [ServeConfiguration.Feed(name: "default", cacheDirectory: cache)],
            listen: .default,
            key: key,
            trmnlDevices: trmnlDevices,
            now: { now.date },
            clock: TestClock(),
            timeZone: TimeZone(identifier: "UTC") ?? .current,
            logger: Logger(label: "kfeed-serve-test") { _ in SwiftLogNoOpLogHandler() },
            renderSources: { try ReplayTransport(directory: Fixture.replay("sample")) }
        )
    }

    /// The configuration of a server of several feeds (a feeds file's: each under `/f/NAME/`, the first also at the
    /// paths outside `/f/`), `caches` by name in order.
    static func configuration(feeds caches: [(String, URL)], now: ManualNow) -> ServeConfiguration {
        var configuration = configuration(cache: caches[0].1, now: now)
        configuration.feeds = caches.map { ServeConfiguration.Feed(name: $0.0, cacheDirectory: $0.1) }
        configuration.servesFeedPaths = true
        return configuration
    }

    /// Runs `body` with a client of the server `configuration` makes.
    static func test(
        _ configuration: ServeConfiguration,
        _ body: @Sendable (InProcessServer) async throws -> Void
    ) async throws {
        try await KFeedServer.application(configuration).test(.router) { client in
            try await body(InProcessServer(client: client))
        }
    }

    /// `method` on `url` (under ``base``, or a path) with `headers`.
    func get(
        _ url: String,
        headers: [HTTPHeader] = [],
        method: HTTPTypes.HTTPRequest.Method = .get,
        body: [UInt8]? = nil
    ) async throws -> Answer {
        let uri = url.hasPrefix(Self.base) ? String(url.dropFirst(Self.base.count)) : url
        var fields = HTTPFields()
        for header in headers {
            if let name = HTTPField.Name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
        }
        if let body { fields[.contentLength] = String(body.count) }
        let response = try await client.executeRequest(
            uri: uri,
            method: method,
            headers: fields,
            body: body.map { ByteBuffer(bytes: $0) }
        )
        var names: [String: String] = [:]
        for field in response.headers { names[field.name.canonicalName] = field.value }
        return Answer(status: response.status.code, headers: names, body: Data(response.body.readableBytesView))
    }
}

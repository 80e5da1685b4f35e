import Foundation
import KFeed
import KFeedBase
import KFeedHTTP
import KFeedImages
import KFeedTestSupport
import Testing

/// The real `XClient` over the real `CurlTransport` against a loopback server that answers with the recorded
/// fixtures and the status and headers of their replay routes.
@Suite(.timeLimit(.minutes(1)))
struct XClientLoopbackTests {
    static let token = "AAAAtesttoken1234567890"
    static let searchPath = "/2/tweets/search/recent"

    // MARK: - Errors

    @Test(arguments: [
        ("400", KFeedError.Code.configuration, "Reference to invalid operator 'has:images'"),
        ("401", .unauthorized, "(401)"),
        ("403-client-not-enrolled", .unauthorized, "client-not-enrolled"),
        ("429-rate-limit", .rateLimited, "(429)"),
        ("429-usage-cap", .usageCapped, "usage cap"),
    ])
    func refusalsAreClassifiedAndNotRetried(scenario: String, code: KFeedError.Code, said: String) async throws {
        try await Self.withClient(RecordedRoutes(scenario: scenario)) { client, server, waits in
            let error = await Self.failure(of: client)
            #expect(error?.code == code)
            #expect(error?.message.contains(said) == true)
            #expect(server.requests.count == 1)
            #expect(await waits.all.isEmpty)
        }
    }

    @Test func badRequestCarriesOnlyAnExcerptOfXsMessage() async throws {
        try await Self.withClient(RecordedRoutes(scenario: "400")) { client, _, _ in
            let error = await Self.failure(of: client)
            #expect(error?.message.contains("There were errors processing your request") == true)
            #expect(error?.message.contains("developer.twitter.com") == false)
        }
    }

    @Test func rateLimitCarriesTheResetInstant() async throws {
        try await Self.withClient(RecordedRoutes(scenario: "429-rate-limit")) { client, _, _ in
            let error = await Self.failure(of: client)
            #expect(error?.retryNotBefore == Date(timeIntervalSince1970: 1_795_340_700))
            #expect(error?.message.contains("2026-11-22T09:45:00Z") == true)
        }
    }

    /// The recorded 503 with its `Retry-After` replaced (nil: removed), and the waits between the three tries.
    @Test(arguments: [
        ("1", [Duration.seconds(1), .seconds(1)]),
        ("5", [.seconds(5), .seconds(5)]),
        (nil, [.milliseconds(10), .milliseconds(20)]),
    ])
    func serverErrorsAreRetriedThreeTimesHonouringRetryAfter(retryAfter: String?, expected: [Duration]) async throws {
        var recorded = try RecordedRoutes.response("503")
        #expect(recorded[header: "retry-after"] == "1")
        recorded.headers.removeAll { $0.name.lowercased() == "retry-after" }
        if let retryAfter { recorded.headers.append(HTTPHeader("Retry-After", retryAfter)) }
        let response = recorded
        try await Self.withClient(responding: response) { client, server, waits in
            let error = await Self.failure(of: client)
            #expect(error?.code == .serverError)
            #expect(server.requests.count == 3)
            #expect(await waits.all == expected)
        }
    }

    @Test func serverErrorsThenSuccessSucceedOnTheThirdTry() async throws {
        let unavailable = try RecordedRoutes.response("503")
        let kpop = try RecordedRoutes.response("kpop")
        try await Self.withClient(responding: unavailable, unavailable, kpop) { client, server, waits in
            let outcome = try await client.searchFor24Posts()
            #expect(outcome.results.posts.count == 8)
            #expect(server.requests.count == 3)
            #expect(await waits.all.count == 2)
        }
    }

    @Test(arguments: UnusableBody.allCases)
    func unusableBodiesAreAPIResponseErrors(body: UnusableBody) async throws {
        let response = LoopbackServer.Response(
            headers: [HTTPHeader("Content-Type", "application/json; charset=utf-8")],
            body: try body.data()
        )
        try await Self.withClient(responding: response) { client, server, _ in
            let error = await Self.failure(of: client)
            #expect(error?.code == .apiResponse)
            #expect(server.requests.count == 1)
        }
    }

    @Test func truncatedTransferIsATransportErrorAfterRetries() async throws {
        let recorded = try RecordedRoutes.response("kpop")
        let response = recorded.delivered(.truncated(declaredLength: recorded.body.count + 500))
        try await Self.withClient(responding: response) { client, server, waits in
            let error = await Self.failure(of: client)
            #expect(error?.code == .transport)
            #expect(server.requests.count == 3)
            #expect(await waits.all.count == 2)
        }
    }

    // MARK: - Pagination

    @Test func followsNextTokenWithASmallerPageAndTheSameSinceID() async throws {
        let sinceID = "1859169999999999999"
        try await Self.withClient(RecordedRoutes(scenario: "short-pages")) { client, server, _ in
            // The caller still wants 20 posts after the first page: the second is sized for them, smaller.
            let outcome = try await client.search(.default, wanting: 24, sinceID: sinceID) { _ in 20 }
            #expect(outcome.results.posts.count == 7)
            let requests = server.requests
            try #require(requests.count == 2)
            #expect(requests[0].queryValue("next_token") == nil)
            #expect(requests[1].queryValue("next_token") == "7140dibdnow9c7btw4b0ufpbbeo2uuqm8r7q4cwquj9ab")
            let sizes = try requests.map { try #require($0.queryValue("max_results").flatMap { Int($0) }) }
            #expect(sizes[1] < sizes[0])
            #expect(requests.map { $0.queryValue("since_id") } == [sinceID, sinceID])
            #expect(requests[1].queryValue("query") == requests[0].queryValue("query"))
        }
    }

    @Test func samplePagesAreReadWhileWantedAndStopAtTheLast() async throws {
        try await Self.withClient(RecordedRoutes(scenario: "sample")) { client, server, _ in
            var asked = 0
            let outcome = try await client.search(.default, wanting: 24) { _ in
                asked += 1
                return 7
            }
            #expect(asked == 2)
            #expect(outcome.results.pageCount == 2)
            #expect(outcome.results.posts.count == 42)
            #expect(outcome.results.nextToken == nil)
            #expect(server.requests.map { $0.queryValue("max_results") } == ["30", "10"])
            #expect(outcome.rateLimit?.remaining == 448)
        }
    }

    @Test func pageBudgetOfOneReadsOnePage() async throws {
        try await Self.withClient(RecordedRoutes(scenario: "sample"), pageBudget: 1) { client, server, _ in
            let outcome = try await client.searchFor24Posts()
            #expect(outcome.results.pageCount == 1)
            #expect(server.requests.count == 1)
        }
    }

    // MARK: - The request

    @Test func requestCarriesTheTokenTheFieldsAndTheUserAgent() async throws {
        try await Self.withClient(RecordedRoutes(scenario: "kpop")) { client, server, _ in
            _ = try await client.searchFor24Posts()
            let request = try #require(server.requests.first)
            #expect(request.method == "GET")
            #expect(request.path == Self.searchPath)
            #expect(request[header: "Authorization"] == "Bearer \(Self.token)")
            #expect(request[header: "User-Agent"]?.hasPrefix("kfeed/") == true)
            let fields = ["expansions", "tweet.fields", "media.fields", "user.fields"]
            #expect(
                Dictionary(uniqueKeysWithValues: fields.map { ($0, request.queryValue($0)) }) == [
                    "expansions": "attachments.media_keys,author_id",
                    "tweet.fields": "attachments,author_id,created_at,possibly_sensitive,lang",
                    "media.fields": "url,preview_image_url,type,width,height,alt_text",
                    "user.fields": "name,username,profile_image_url",
                ]
            )
            #expect(request.queryValue("query") == "context:55.888105153038958593 has:images -is:retweet")
        }
    }

    @Test(arguments: [
        "a+b has:images",
        "c&d=e -is:retweet",
        "#케이팝 \"a quoted phrase\"",
        "(방탄소년단 OR 🎤👩‍🎤🇰🇷) has:images",
        "(\"x+y\" OR #z&w=1 OR 방탄) -is:retweet 👩‍🎤",
    ])
    func rawQueryArrivesExactlyAsWritten(text: String) async throws {
        let query = try RecentSearchQuery(raw: text)
        try await Self.withClient(RecordedRoutes(scenario: "kpop")) { client, server, _ in
            _ = try await client.searchFor24Posts(query)
            let request = try #require(server.requests.first)
            #expect(request.queryValue("query") == text)
            // Sent strictly encoded: a literal `+` would read as a space, `#` would end the URL, `&` the value.
            let raw = try #require(request.rawQuery)
            #expect(!raw.contains { "+#\" ()".contains($0) || !$0.isASCII })
        }
    }

    // MARK: - Bounded time

    @Test func hangingServerIsATransportErrorWithinTheTimeout() async throws {
        try await Self.withClient(responding: .hang, maxTries: 1, requestTimeout: .seconds(1)) { client, server, _ in
            let start = ContinuousClock.now
            let error = await Self.failure(of: client)
            #expect(error?.code == .transport)
            #expect(ContinuousClock.now - start < .seconds(30))  // bounded, not a speed check
            #expect(server.requests.count == 1)
        }
    }

    @Test func slowDripPastTheTimeoutIsATransportError() async throws {
        let response = try RecordedRoutes.response("kpop").delivered(.drip(bytes: 16, every: .milliseconds(200)))
        try await Self.withClient(responding: response, maxTries: 1, requestTimeout: .seconds(1)) { client, _, _ in
            let start = ContinuousClock.now
            let error = await Self.failure(of: client)
            #expect(error?.code == .transport)
            #expect(ContinuousClock.now - start < .seconds(30))  // bounded, not a speed check
        }
    }

    @Test func slowDripWithinTheTimeoutIsReadWhole() async throws {
        let response = try RecordedRoutes.response("kpop").delivered(.drip(bytes: 1_024, every: .milliseconds(50)))
        try await Self.withClient(responding: response) { client, _, _ in
            let outcome = try await client.searchFor24Posts()
            #expect(outcome.results.posts.count == 8)
        }
    }
}

// MARK: - Helpers

extension XClientLoopbackTests {
    /// Bodies a 200 may carry that kfeed cannot use.
    enum UnusableBody: String, CaseIterable, Sendable {
        case errorsOnly, notJSON, truncatedJSON

        func data() throws -> Data {
            switch self {
            case .errorsOnly: try Fixture.data("recent-search.errors-only.json")
            case .notJSON: Data("not json".utf8)
            case .truncatedJSON: try Fixture.data("recent-search.kpop.json").prefix(1_000)
            }
        }
    }

    /// Records the waits between tries instead of sleeping.
    actor Waits {
        private(set) var all: [Duration] = []

        func record(_ duration: Duration) { all.append(duration) }
    }

    /// Runs `body` with a client on a loopback server answering from `routes`: the test token, a 10 ms initial
    /// back-off, and waits recorded rather than slept.
    static func withClient<T>(
        _ routes: RecordedRoutes,
        pageBudget: Int = 3,
        maxTries: Int = 3,
        requestTimeout: Duration = .seconds(10),
        _ body: (XClient, LoopbackServer, Waits) async throws -> T
    ) async throws -> T {
        try await withClient(routes.handler, pageBudget, maxTries, requestTimeout, body)
    }

    /// Like `withClient(_:…)`, with the server giving the n-th request the n-th of `responses` (then the last).
    static func withClient<T>(
        responding responses: LoopbackServer.Response...,
        pageBudget: Int = 3,
        maxTries: Int = 3,
        requestTimeout: Duration = .seconds(10),
        _ body: (XClient, LoopbackServer, Waits) async throws -> T
    ) async throws -> T {
        try await withClient(LoopbackServer.sequence(responses), pageBudget, maxTries, requestTimeout, body)
    }

    private static func withClient<T>(
        _ handler: @escaping @Sendable (LoopbackServer.Request) -> LoopbackServer.Response,
        _ pageBudget: Int,
        _ maxTries: Int,
        _ requestTimeout: Duration,
        _ body: (XClient, LoopbackServer, Waits) async throws -> T
    ) async throws -> T {
        try await LoopbackServer.withServer(handler) { server in
            let waits = Waits()
            let client = XClient(
                configuration: XClient.Configuration(
                    baseURL: server.baseURL,
                    bearerToken: try BearerToken(token, source: "the test"),
                    pageBudget: pageBudget,
                    maxTries: maxTries,
                    initialBackoff: .milliseconds(10),
                    requestTimeout: requestTimeout
                ),
                transport: try CurlTransport(),
                sleep: { await waits.record($0) }
            )
            return try await body(client, server, waits)
        }
    }

    /// The error a search for 24 posts throws; every way it can print is checked for the token.
    static func failure(
        of client: XClient,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> KFeedError? {
        let error = await #expect(throws: KFeedError.self, sourceLocation: sourceLocation) {
            try await client.searchFor24Posts()
        }
        if let error {
            let printed = [error.message, "\(error)", String(reflecting: error), error.localizedDescription]
            #expect(!printed.contains { $0.contains(token) }, sourceLocation: sourceLocation)
        }
        return error
    }
}

extension XClient {
    /// A search for 24 posts whose caller still wants 24 after every page (what the posts make of a timeline is the
    /// refresher's business, `RefresherPagingTests`).
    fileprivate func searchFor24Posts(
        _ query: RecentSearchQuery = .default,
        sinceID: String? = nil
    ) async throws -> Outcome {
        try await search(query, wanting: 24, sinceID: sinceID) { _ in 24 }
    }
}

extension LoopbackServer.Response {
    /// The first header with this name, compared case-insensitively.
    fileprivate subscript(header name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

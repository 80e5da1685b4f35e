import Foundation
import KFeedBase
import KFeedTestSupport
import Logging
import Testing

@testable import KFeed
@testable import KFeedHTTP
@testable import KFeedImages
@testable import KFeedX

/// Records the waits the client asks for instead of waiting.
private actor SleepRecorder {
    private(set) var durations: [Duration] = []

    func sleep(_ duration: Duration) {
        durations.append(duration)
    }
}

/// Collects log lines. `@unchecked Sendable`: every access to `storage` holds `lock`.
private final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []

    func append(_ line: String) {
        lock.lock()
        defer { lock.unlock() }
        storage.append(line)
    }

    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}

/// Hands every log event's message to a ``LogLines``.
private struct CollectingLogHandler: LogHandler {
    let lines: LogLines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.append("\(event.message)")
    }
}

struct XClientTests {
    private static let secret = "AAAAAAAAAAAAAAAAAAAAAKfeedTestTokenZZ9"
    private static let nextToken = "b26v89c19zqg8o3fpe17ld5o1i6z6ze5ivkw1nk1wu0ot"

    private static func client(
        _ transport: any HTTPTransport,
        sleeper: SleepRecorder = SleepRecorder(),
        log: LogLines = LogLines(),
        token: BearerToken? = nil,
        pageBudget: Int = 3,
        maxTries: Int = 3,
        maxTotalBackoff: Duration = .seconds(60),
        initialBackoff: Duration = .seconds(2)
    ) -> XClient {
        XClient(
            configuration: XClient.Configuration(
                bearerToken: token,
                pageBudget: pageBudget,
                maxTries: maxTries,
                maxTotalBackoff: maxTotalBackoff,
                initialBackoff: initialBackoff
            ),
            transport: transport,
            sleep: { await sleeper.sleep($0) },
            logger: Logger(label: "kfeed-test") { _ in CollectingLogHandler(lines: log) }
        )
    }

    /// A search for 24 posts whose caller still wants 24 after every page: what the posts make of a timeline is the
    /// refresher's business (`RefresherPagingTests`), not the client's.
    private static func search(_ client: XClient, sinceID: String? = nil) async throws -> XClient.Outcome {
        try await client.search(.default, wanting: 24, sinceID: sinceID) { _ in 24 }
    }

    private static func body(_ name: String) throws -> Data {
        try Fixture.data("recent-search.\(name).json")
    }

    private static let serviceUnavailable = StubTransport.Step.respond(
        503,
        [HTTPHeader("content-type", "application/problem+json")],
        Data(#"{"title":"Service Unavailable","detail":"Service Unavailable","type":"about:blank","status":503}"#.utf8)
    )

    private static func ok() throws -> StubTransport.Step {
        .respond(200, [], try body("kpop"))
    }

    // MARK: - Paging

    @Test func eachNextPageIsSizedForWhatTheCallerStillWantsAfterTheMergedPages() async throws {
        let transport = try StubTransport.replaying("sample")
        var seen: [(pages: Int, posts: Int)] = []
        let outcome = try await Self.client(transport).search(.default, wanting: 24) { results in
            seen.append((results.pageCount, results.posts.count))
            return 7
        }
        // The caller is asked after each page, with every page so far merged.
        #expect(seen.map(\.pages) == [1, 2])
        #expect(seen.map(\.posts) == [24, 42])
        #expect(outcome.results.pageCount == 2)
        #expect(outcome.results.nextToken == nil)
        let parameters = transport.parameters()
        #expect(parameters.count == 2)
        #expect(parameters[0]["max_results"] == "30")
        #expect(parameters[0]["next_token"] == nil)
        #expect(parameters[0]["query"] == RecentSearchQuery.default.text)
        // 7 still wanted: the second page asks for them plus a margin (at least 10).
        #expect(parameters[1]["next_token"] == Self.nextToken)
        #expect(parameters[1]["max_results"] == "10")
        #expect(parameters[1]["max_results"] == String(RecentSearchRequest.pageSize(forEntries: 7)))
        #expect(parameters[1]["query"] == RecentSearchQuery.default.text)
        // The last response's figures (the first page's say 449 remaining).
        #expect(outcome.rateLimit?.remaining == 448)
        #expect(outcome.rateLimit?.limit == 450)
        #expect(outcome.rateLimit?.reset == Date(timeIntervalSince1970: 1_795_340_700))
    }

    @Test func shortPagesAreReadUntilTheLastHasNoNextToken() async throws {
        let transport = try StubTransport.replaying("short-pages")
        let outcome = try await Self.client(transport).search(.default, wanting: 24) { _ in 20 }
        #expect(outcome.results.pageCount == 2)
        #expect(outcome.results.nextToken == nil)
        #expect(outcome.results.posts.count == 7)
        let parameters = transport.parameters()
        #expect(parameters.map { $0["max_results"] } == ["30", "25"])
        #expect(parameters[1]["next_token"] == "7140dibdnow9c7btw4b0ufpbbeo2uuqm8r7q4cwquj9ab")
    }

    @Test func pageBudgetOfOneStopsAfterTheFirstPage() async throws {
        let transport = try StubTransport.replaying("sample")
        let outcome = try await Self.client(transport, pageBudget: 1).search(.default, wanting: 24) { _ in 7 }
        #expect(transport.requests.count == 1)
        #expect(outcome.results.pageCount == 1)
        #expect(outcome.results.nextToken == Self.nextToken)
        #expect(outcome.results.posts.count == 24)
    }

    @Test func aCallerWantingNoMoreStopsPagingDespiteANextToken() async throws {
        let transport = try StubTransport.replaying("sample")
        var asked = 0
        let outcome = try await Self.client(transport).search(.default, wanting: 10) { _ in
            asked += 1
            return 0
        }
        #expect(asked == 1)
        #expect(transport.requests.count == 1)
        #expect(outcome.results.nextToken == Self.nextToken)
        #expect(transport.parameters().first?["max_results"] == "13")
    }

    @Test func lastPageWithoutNextTokenStopsPaging() async throws {
        let transport = try StubTransport.replaying("kpop")
        let outcome = try await Self.client(transport).search(.default, wanting: 24) { _ in 20 }
        #expect(transport.requests.count == 1)
        #expect(outcome.results.pageCount == 1)
        #expect(outcome.results.posts.count == 8)
    }

    @Test func emptySearchIsNoError() async throws {
        let outcome = try await Self.search(Self.client(try StubTransport.replaying("empty")))
        #expect(outcome.results.posts.isEmpty)
        #expect(outcome.results.feedItems.isEmpty)
        #expect(outcome.results.pageCount == 1)
    }

    @Test func partialErrorsAreNoFailure() async throws {
        let outcome = try await Self.search(Self.client(try StubTransport.replaying("partial-errors")))
        #expect(outcome.results.partialErrors.count == 2)
        #expect(outcome.results.posts.map(\.id) == ["1859170000000000201", "1859170000000000202"])
    }

    @Test func sinceIDIsKeptWhileFollowingNextToken() async throws {
        let transport = try StubTransport.replaying("sample")
        _ = try await Self.search(Self.client(transport), sinceID: "1859000000000000000")
        #expect(transport.parameters().map { $0["since_id"] } == ["1859000000000000000", "1859000000000000000"])
    }

    // MARK: - Error classification

    @Test(arguments: [
        ("400", KFeedError.Code.configuration, Int32(78)),
        ("401", .unauthorized, 77),
        ("403-client-not-enrolled", .unauthorized, 77),
        ("429-rate-limit", .rateLimited, 75),
        ("429-usage-cap", .usageCapped, 75),
        ("errors-only", .apiResponse, 65),
        ("503", .serverError, 75),
        ("402-credits-depleted", .creditsDepleted, 77),
        ("fields-dropped", .apiResponse, 65),
    ])
    func errorScenarioIsClassified(scenario: String, code: KFeedError.Code, exitCode: Int32) async throws {
        let transport = try StubTransport.replaying(scenario)
        let token = try BearerToken(Self.secret, source: "test")
        let log = LogLines()
        let client = Self.client(transport, log: log, token: token)
        let error = await #expect(throws: KFeedError.self) { try await Self.search(client) }
        #expect(error?.code == code)
        #expect(error?.code.exitCode == exitCode)
        #expect(error?.description.contains(Self.secret) == false)
        #expect(!log.lines.contains { $0.contains(Self.secret) })
        let tries = transport.requests.count
        #expect(tries == (code == .serverError ? 3 : 1))
    }

    @Test func badRequestCarriesXsMessage() async throws {
        let client = Self.client(try StubTransport.replaying("400"))
        let error = await #expect(throws: KFeedError.self) { try await Self.search(client) }
        #expect(error?.code == .configuration)
        #expect(error?.message.contains("Reference to invalid operator 'has:images'") == true)
        #expect(error?.message.contains("400") == true)
    }

    @Test func clientNotEnrolledIsNamed() async throws {
        let client = Self.client(try StubTransport.replaying("403-client-not-enrolled"))
        let error = await #expect(throws: KFeedError.self) { try await Self.search(client) }
        #expect(error?.code == .unauthorized)
        #expect(error?.message.contains("client-not-enrolled") == true)
    }

    @Test func otherForbiddenIsUnauthorizedWithXsDetail() async throws {
        let transport = StubTransport(script: [
            .respond(403, [], Data(#"{"title":"Forbidden","detail":"No access","type":"about:blank"}"#.utf8))
        ])
        let error = await #expect(throws: KFeedError.self) {
            try await Self.search(Self.client(transport))
        }
        #expect(error?.code == .unauthorized)
        #expect(error?.message.contains("No access") == true)
    }

    @Test func rateLimitCarriesTheResetTime() async throws {
        let sleeper = SleepRecorder()
        let client = Self.client(try StubTransport.replaying("429-rate-limit"), sleeper: sleeper)
        let error = await #expect(throws: KFeedError.self) { try await Self.search(client) }
        #expect(error?.code == .rateLimited)
        #expect(error?.retryNotBefore == Date(timeIntervalSince1970: 1_795_340_700))
        #expect(error?.message.contains("2026-11-22T09:45:00Z") == true)
        #expect(await sleeper.durations.isEmpty)
    }

    @Test func rateLimitWithoutResetHeaderHasNoRetryDate() async throws {
        let transport = StubTransport(script: [.respond(429, [], try Self.body("429-rate-limit"))])
        let error = await #expect(throws: KFeedError.self) {
            try await Self.search(Self.client(transport))
        }
        #expect(error?.code == .rateLimited)
        #expect(error?.retryNotBefore == nil)
    }

    /// X's problems are recognised by `title` or the last segment of `type`, whatever the status, content type or
    /// host, and out of credits is never retried.
    @Test(arguments: [
        (402, #"{"type":"https://api.twitter.com/2/problems/credits","title":"CreditsDepleted","detail":"none left"}"#),
        (402, #"{"type":"https://api.x.com/2/problems/credits"}"#),
        (403, #"{"title":"CreditsDepleted"}"#),
        (402, "<html>payment required</html>"),
    ])
    func outOfCreditsIsRecognisedAndNotRetried(status: Int, body: String) async throws {
        let transport = StubTransport(script: [
            .respond(
                status,
                [HTTPHeader("content-type", "text/plain"), HTTPHeader("x-rate-limit-remaining", "449")],
                Data(body.utf8)
            ),
            try Self.ok(),
        ])
        let error = await #expect(throws: KFeedError.self) {
            try await Self.search(Self.client(transport))
        }
        #expect(error?.code == .creditsDepleted)
        #expect(error?.code.exitCode == 77)
        #expect(transport.requests.count == 1)
    }

    @Test func pageInThePostsVocabularyJoinsLikeTheTweetsOne() async throws {
        let old = try await Self.search(Self.client(try StubTransport.replaying("kpop")))
        let new = try await Self.search(Self.client(try StubTransport.replaying("posts-vocabulary")))
        #expect(new.results.feedItems == old.results.feedItems)
        #expect(new.results.feedItems.count == 8)
        #expect(new.results.feedItems.allSatisfy { !$0.media.isEmpty && $0.author != nil })
    }

    @Test func usageCapIsNotARateLimitEvenWithRequestsRemaining() async throws {
        let client = Self.client(try StubTransport.replaying("429-usage-cap"))
        let error = await #expect(throws: KFeedError.self) { try await Self.search(client) }
        #expect(error?.code == .usageCapped)
        #expect(error?.message.contains("usage") == true)
    }

    @Test(arguments: [302, 404, 418])
    func unexpectedStatusIsAnAPIResponseError(status: Int) async throws {
        let transport = StubTransport(script: [.respond(status, [], Data("<html>".utf8))])
        let error = await #expect(throws: KFeedError.self) {
            try await Self.search(Self.client(transport))
        }
        #expect(error?.code == .apiResponse)
        #expect(error?.message.contains("\(status)") == true)
        #expect(transport.requests.count == 1)
    }

    @Test func undecodableSuccessIsAnAPIResponseError() async throws {
        let transport = StubTransport(script: [.respond(200, [], Data("<html>oops</html>".utf8))])
        let error = await #expect(throws: KFeedError.self) {
            try await Self.search(Self.client(transport))
        }
        #expect(error?.code == .apiResponse)
        #expect(error?.code.exitCode == 65)
    }

    // MARK: - Retries

    @Test func serverErrorsAreRetriedWithDoublingBackoff() async throws {
        let sleeper = SleepRecorder()
        let transport = try StubTransport.replaying("503")
        let client = Self.client(transport, sleeper: sleeper, maxTries: 3, initialBackoff: .seconds(2))
        let error = await #expect(throws: KFeedError.self) { try await Self.search(client) }
        #expect(error?.code == .serverError)
        #expect(error?.message.contains("503") == true)
        #expect(transport.requests.count == 3)
        // The fixture's Retry-After of 1 s is shorter than the back-off, so the back-off wins.
        #expect(await sleeper.durations == [.seconds(2), .seconds(4)])
    }

    @Test func thirdTrySucceedsAfterTwoServerErrors() async throws {
        let sleeper = SleepRecorder()
        let transport = StubTransport(script: [Self.serviceUnavailable, Self.serviceUnavailable, try Self.ok()])
        let outcome = try await Self.search(Self.client(transport, sleeper: sleeper))
        #expect(outcome.results.posts.count == 8)
        #expect(transport.requests.count == 3)
        #expect(await sleeper.durations == [.seconds(2), .seconds(4)])
    }

    @Test func transportErrorIsRetried() async throws {
        let sleeper = SleepRecorder()
        let transport = StubTransport(script: [.fail(KFeedError(.transport, "connection reset")), try Self.ok()])
        let outcome = try await Self.search(Self.client(transport, sleeper: sleeper))
        #expect(outcome.results.posts.count == 8)
        #expect(await sleeper.durations == [.seconds(2)])
    }

    @Test func persistentTransportErrorIsRethrownAfterMaxTries() async throws {
        let failure = KFeedError(.transport, "timed out")
        let transport = StubTransport(script: [.fail(failure), .fail(failure), .fail(failure), .fail(failure)])
        let error = await #expect(throws: KFeedError.self) {
            try await Self.search(Self.client(transport, maxTries: 4))
        }
        #expect(error?.code == .transport)
        #expect(error?.code.exitCode == 75)
        #expect(transport.requests.count == 4)
    }

    @Test func retryAfterLongerThanTheBackoffIsHonoured() async throws {
        let sleeper = SleepRecorder()
        let transport = StubTransport(script: [
            .respond(503, [HTTPHeader("Retry-After", "7")], Data()),
            .respond(503, [HTTPHeader("retry-after", " 3 ")], Data()),
            try Self.ok(),
        ])
        _ = try await Self.search(Self.client(transport, sleeper: sleeper))
        #expect(await sleeper.durations == [.seconds(7), .seconds(4)])
    }

    @Test func retryAfterAsAnHTTPDateIsRelativeToTheResponseDate() async throws {
        let sleeper = SleepRecorder()
        let headers = [
            HTTPHeader("Date", "Sun, 22 Nov 2026 09:00:00 GMT"),
            HTTPHeader("Retry-After", "Sun, 22 Nov 2026 09:00:30 GMT"),
        ]
        let transport = StubTransport(script: [.respond(503, headers, Data()), try Self.ok()])
        _ = try await Self.search(Self.client(transport, sleeper: sleeper))
        #expect(await sleeper.durations == [.seconds(30)])
    }

    @Test func totalBackoffStaysWithinItsBound() async throws {
        let sleeper = SleepRecorder()
        let transport = StubTransport(script: Array(repeating: Self.serviceUnavailable, count: 10))
        let client = Self.client(
            transport,
            sleeper: sleeper,
            maxTries: 10,
            maxTotalBackoff: .seconds(20),
            initialBackoff: .seconds(2)
        )
        let error = await #expect(throws: KFeedError.self) { try await Self.search(client) }
        #expect(error?.code == .serverError)
        let durations = await sleeper.durations
        #expect(durations == [.seconds(2), .seconds(4), .seconds(8)])
        #expect(durations.reduce(.zero, +) <= .seconds(20))
        #expect(transport.requests.count == 4)
    }

    @Test func retryAfterBeyondTheBudgetFailsAtOnce() async throws {
        let sleeper = SleepRecorder()
        let transport = StubTransport(script: [
            .respond(503, [HTTPHeader("Retry-After", "120")], Data()), try Self.ok(),
        ])
        let error = await #expect(throws: KFeedError.self) {
            try await Self.search(Self.client(transport, sleeper: sleeper, maxTotalBackoff: .seconds(60)))
        }
        #expect(error?.code == .serverError)
        #expect(await sleeper.durations.isEmpty)
        #expect(transport.requests.count == 1)
    }

    @Test(arguments: [400, 401, 403, 429])
    func clientErrorsAreNotRetried(status: Int) async throws {
        let sleeper = SleepRecorder()
        let transport = StubTransport(script: [.respond(status, [], Data("{}".utf8)), try Self.ok()])
        await #expect(throws: KFeedError.self) {
            try await Self.search(Self.client(transport, sleeper: sleeper))
        }
        #expect(transport.requests.count == 1)
        #expect(await sleeper.durations.isEmpty)
    }

    // MARK: - The token

    @Test func requestCarriesTheBearerTokenAndLimits() async throws {
        let transport = StubTransport(script: [try Self.ok()])
        let log = LogLines()
        let token = try BearerToken(Self.secret, source: "test")
        _ = try await Self.search(Self.client(transport, log: log, token: token))
        let request = try #require(transport.requests.first)
        #expect(request.headers.contains(HTTPHeader("Authorization", "Bearer \(Self.secret)")))
        #expect(request.headers.filter { $0.name.lowercased() == "authorization" }.count == 1)
        #expect(request.headers.contains(HTTPHeader("Accept", "application/json")))
        #expect(request.maxRedirects == 0)
        #expect(request.url.absoluteString.hasPrefix("https://api.x.com/2/tweets/search/recent?"))
        #expect(!request.url.absoluteString.contains(Self.secret))
        #expect(!log.lines.isEmpty)
        #expect(!log.lines.contains { $0.contains(Self.secret) })
        #expect(log.lines.contains { $0.contains("[redacted]") })
    }

    @Test func noTokenSendsNoAuthorizationHeader() async throws {
        let transport = StubTransport(script: [try Self.ok()])
        _ = try await Self.search(Self.client(transport))
        let request = try #require(transport.requests.first)
        #expect(!request.headers.contains { $0.name.lowercased() == "authorization" })
    }

    @Test func tokenNeverAppearsInRetryLogsOrErrors() async throws {
        let log = LogLines()
        let transport = StubTransport(script: [
            .fail(KFeedError(.transport, "reset")), Self.serviceUnavailable, Self.serviceUnavailable,
        ])
        let token = try BearerToken(Self.secret, source: "test")
        let error = await #expect(throws: KFeedError.self) {
            try await Self.search(Self.client(transport, log: log, token: token))
        }
        #expect(error?.description.contains(Self.secret) == false)
        #expect(log.lines.count >= 5)
        #expect(!log.lines.contains { $0.contains(Self.secret) })
        #expect("\(token)" == "[redacted]")
        #expect(String(reflecting: token) == "BearerToken([redacted])")
    }

    // MARK: - Exit codes

    @Test(arguments: [
        (KFeedError.Code.configuration, Int32(78)), (.unauthorized, 77), (.creditsDepleted, 77), (.rateLimited, 75),
        (.usageCapped, 75),
        (.transport, 75), (.serverError, 75), (.lockHeld, 75), (.apiResponse, 65), (.replay, 66), (.usage, 64),
        (.cacheUnwritable, 73), (.io, 74),
    ])
    func codeMapsToItsExitCode(code: KFeedError.Code, exitCode: Int32) {
        #expect(code.exitCode == exitCode)
    }
}

import Foundation
import KFeedBase
import KFeedTestSupport
import Testing

@testable import KFeed
@testable import KFeedHTTP
@testable import KFeedImages
@testable import KFeedX

struct ReplayTransportTests {
    private static func replay(_ scenario: String) throws -> ReplayTransport {
        try ReplayTransport(
            directory: Fixture.directory.appendingPathComponent("replay/\(scenario)", isDirectory: true)
        )
    }

    private static func request(_ url: String) throws -> HTTPRequest {
        HTTPRequest(url: try #require(URL(string: url)))
    }

    private static func searchURL(nextToken: String? = nil, base: String = "https://api.x.com") throws -> URL {
        RecentSearchRequest(query: .default, maxResults: 10, nextToken: nextToken)
            .url(baseURL: try #require(URL(string: base)))
    }

    // MARK: - Matching

    @Test func routeWithNextTokenAnswersTheSecondPage() async throws {
        let transport = try Self.replay("sample")
        let url = try Self.searchURL(nextToken: "b26v89c19zqg8o3fpe17ld5o1i6z6ze5ivkw1nk1wu0ot")
        let response = try await transport.send(HTTPRequest(url: url))
        #expect(response.status == 200)
        #expect(response.body == (try Fixture.data("recent-search.sample-page2.json")))
        #expect(response[header: "x-rate-limit-remaining"] == "448")
        #expect(response.url == url)
    }

    @Test func requestWithoutNextTokenFallsThroughToTheFirstPage() async throws {
        let response = try await Self.replay("sample").send(HTTPRequest(url: try Self.searchURL()))
        #expect(response.body == (try Fixture.data("recent-search.sample-page1.json")))
        #expect(response[header: "x-rate-limit-remaining"] == "449")
    }

    @Test func unknownNextTokenFallsThroughToTheRouteWithoutQuery() async throws {
        let response = try await Self.replay("sample").send(HTTPRequest(url: try Self.searchURL(nextToken: "other")))
        #expect(response.body == (try Fixture.data("recent-search.sample-page1.json")))
    }

    @Test func unmatchedPathIsAReplayErrorNamingThePath() async throws {
        let transport = try Self.replay("sample")
        let error = await #expect(throws: KFeedError.self) {
            try await transport.send(try Self.request("https://api.x.com/2/users/me?next_token=abc"))
        }
        #expect(error?.code == .replay)
        #expect(error?.message.contains("api.x.com/2/users/me") == true)
        #expect(error?.message.contains("next_token abc") == true)
        #expect(error?.message.contains("routes.json") == true)
    }

    @Test func missingDirectoryIsAReplayError() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent(
            "kfeed-missing-\(UUID().uuidString)"
        )
        let error = #expect(throws: KFeedError.self) { try ReplayTransport(directory: missing) }
        #expect(error?.code == .replay)
        #expect(error?.message.contains(missing.lastPathComponent) == true)
    }

    @Test func malformedRoutesFileIsAReplayError() throws {
        try TemporaryDirectory.with { directory in
            try Data(#"{"routes": [{"status": 200}]}"#.utf8).write(to: directory.appendingPathComponent("routes.json"))
            let error = #expect(throws: KFeedError.self) { try ReplayTransport(directory: directory) }
            #expect(error?.code == .replay)
            #expect(error?.underlying != nil)
        }
    }

    @Test func hostIsMatchedWhenARouteNamesOne() async throws {
        try await TemporaryDirectory.withAsync { directory in
            let routes = """
                {"routes": [
                  {"host": "api.x.com", "path": "/2/tweets/search/recent", "status": 200, "body": "x.json"},
                  {"host": "127.0.0.1", "path": "/2/tweets/search/recent", "status": 202, "body": "local.json"}
                ]}
                """
            try Data(routes.utf8).write(to: directory.appendingPathComponent("routes.json"))
            try Data("{\"from\":\"x\"}".utf8).write(to: directory.appendingPathComponent("x.json"))
            try Data("{\"from\":\"local\"}".utf8).write(to: directory.appendingPathComponent("local.json"))
            let transport = try ReplayTransport(directory: directory)

            let x = try await transport.send(HTTPRequest(url: try Self.searchURL()))
            #expect(x.status == 200)
            #expect(String(decoding: x.body, as: UTF8.self) == "{\"from\":\"x\"}")

            let local = try await transport.send(HTTPRequest(url: try Self.searchURL(base: "http://127.0.0.1:8080")))
            #expect(local.status == 202)
            #expect(String(decoding: local.body, as: UTF8.self) == "{\"from\":\"local\"}")

            let error = await #expect(throws: KFeedError.self) {
                try await transport.send(HTTPRequest(url: try Self.searchURL(base: "https://api.twitter.com")))
            }
            #expect(error?.code == .replay)
            #expect(error?.message.contains("api.twitter.com/2/tweets/search/recent") == true)
        }
    }

    @Test func queryValuesAreComparedDecoded() async throws {
        try await TemporaryDirectory.withAsync { directory in
            let routes = """
                {"routes": [{"path": "/2/tweets/search/recent", "query": {"query": "c++ & \\"x=y\\" 케이팝"}, "status": 201}]}
                """
            try Data(routes.utf8).write(to: directory.appendingPathComponent("routes.json"))
            let transport = try ReplayTransport(directory: directory)
            let query = try RecentSearchQuery(raw: "c++ & \"x=y\" 케이팝")
            let url = RecentSearchRequest(query: query, maxResults: 10).url(
                baseURL: XClient.Configuration.defaultBaseURL
            )
            let response = try await transport.send(HTTPRequest(url: url))
            #expect(response.status == 201)
            #expect(response.body.isEmpty)
        }
    }

    @Test func unreadableBodyFileIsAReplayError() async throws {
        try await TemporaryDirectory.withAsync { directory in
            let routes = #"{"routes": [{"path": "/a", "body": "missing.json"}]}"#
            try Data(routes.utf8).write(to: directory.appendingPathComponent("routes.json"))
            let transport = try ReplayTransport(directory: directory)
            let error = await #expect(throws: KFeedError.self) {
                try await transport.send(try Self.request("https://api.x.com/a"))
            }
            #expect(error?.code == .replay)
            #expect(error?.message.contains("missing.json") == true)
        }
    }

    @Test func bodyOverTheByteCapIsATransportError() async throws {
        let transport = try Self.replay("kpop")
        let request = HTTPRequest(url: try Self.searchURL(), maxBodyBytes: 100)
        let error = await #expect(throws: KFeedError.self) { try await transport.send(request) }
        #expect(error?.code == .transport)
    }

    // MARK: - Status and headers

    @Test func statusAndHeadersArePassedThrough() async throws {
        let response = try await Self.replay("429-rate-limit").send(HTTPRequest(url: try Self.searchURL()))
        #expect(response.status == 429)
        #expect(response[header: "X-Rate-Limit-Remaining"] == "0")
        #expect(response[header: "x-rate-limit-reset"] == "1795340700")
        #expect(response[header: "x-rate-limit-limit"] == "450")
        #expect(response[header: "Content-Type"] == "application/problem+json")
        #expect(response.body == (try Fixture.data("recent-search.429-rate-limit.json")))
    }

    @Test(arguments: [
        ("400", 400), ("401", 401), ("403-client-not-enrolled", 403), ("429-usage-cap", 429), ("503", 503),
        ("empty", 200), ("errors-only", 200), ("kpop", 200), ("missing-includes", 200), ("partial-errors", 200),
        ("unknown-media-type", 200),
    ])
    func everyScenarioAnswersWithItsStatusAndBody(scenario: String, status: Int) async throws {
        let response = try await Self.replay(scenario).send(HTTPRequest(url: try Self.searchURL()))
        #expect(response.status == status)
        #expect(response.body == (try Fixture.data("recent-search.\(scenario).json")))
    }

    @Test func retryAfterHeaderIsPassedThrough() async throws {
        let response = try await Self.replay("503").send(HTTPRequest(url: try Self.searchURL()))
        #expect(response[header: "Retry-After"] == "1")
    }

    @Test func parametersArePercentDecodedAndPlusStaysPlus() throws {
        let url = try #require(URL(string: "https://h/p?a=1%2B2&b=x+y&c&d=%E2%9C%A8"))
        #expect(ReplayTransport.parameters(of: url) == ["a": "1+2", "b": "x+y", "c": "", "d": "✨"])
    }
}

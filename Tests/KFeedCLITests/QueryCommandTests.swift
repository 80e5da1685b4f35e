import Foundation
import KFeed
import KFeedBase
import KFeedHTTP
import KFeedImages
import KFeedTestSupport
import Testing

/// `kfeed query`: the URL, without a token or a request.
struct QueryCommandTests {
    @Test func defaultQueryNeedsNoToken() async throws {
        let result = try await KFeedProcess.run(["query"])
        #expect(result.status == 0)
        #expect(
            result.stdout.hasPrefix(
                "https://api.x.com/2/tweets/search/recent?query=context%3A55.888105153038958593%20has%3Aimages%20-is%3Aretweet&max_results=30&expansions=attachments.media_keys,author_id"
            )
        )
    }

    @Test func contextsAreOredAndEntriesSizeThePage() async throws {
        let result = try await KFeedProcess.run([
            "query", "--context", "55.888105153038958593", "--context", "65.852262932607926273", "--entries", "80",
        ])
        let url = try #require(URLComponents(string: result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        let items = Dictionary(uniqueKeysWithValues: (url.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        #expect(
            items["query"]
                == "(context:55.888105153038958593 OR context:65.852262932607926273) has:images -is:retweet"
        )
        #expect(items["max_results"] == "100")
    }

    @Test func rawQueryReachesTheServerExactlyAsWritten() async throws {
        let raw = "\"a+b\" & c=d #케이팝 💜 (x OR y) has:images"
        let result = try await KFeedProcess.run(["query", "--query", raw, "--api-base", "http://127.0.0.1:9"])
        #expect(result.status == 0)
        let text = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(text.hasPrefix("http://127.0.0.1:9/2/tweets/search/recent?query="))
        let url = try #require(URL(string: text))
        #expect(ReplayTransport.parameters(of: url)["query"] == raw)
    }

    @Test func environmentSuppliesTheQueryAndFlagsWin() async throws {
        let fromEnvironment = try await KFeedProcess.run(["query"], environment: ["KFEED_QUERY": "bts has:images"])
        #expect(fromEnvironment.stdout.contains("query=bts%20has%3Aimages&"))
        let flagWins = try await KFeedProcess.run(
            ["query", "--query", "nct has:images"],
            environment: ["KFEED_QUERY": "bts has:images"]
        )
        #expect(flagWins.stdout.contains("query=nct%20has%3Aimages&"))
    }

    @Test func dotEnvSuppliesSettingsButTheEnvironmentWins() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Data("# settings\r\nexport KFEED_QUERY='ive has:images'\r\nKFEED_API_BASE=http://127.0.0.1:1\r\n".utf8)
            .write(to: directory.url.appendingPathComponent(".env"))
        let fromFile = try await KFeedProcess.run(["query"], directory: directory.url)
        #expect(fromFile.stdout.hasPrefix("http://127.0.0.1:1/2/tweets/search/recent?query=ive%20has%3Aimages&"))
        let environmentWins = try await KFeedProcess.run(
            ["query"],
            environment: ["KFEED_QUERY": "aespa has:images"],
            directory: directory.url
        )
        #expect(environmentWins.stdout.contains("query=aespa%20has%3Aimages&"))
    }
}

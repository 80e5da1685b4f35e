import Foundation
import KFeed
import KFeedBase
import KFeedImages
import KFeedTestSupport
import Testing

/// The built `kfeed` binary searching "live" with `--api-base` pointed at a loopback server that answers with the
/// recorded replay scenarios: token sources, exit codes, verbose output and redirects. No run may print the token.
@Suite(.timeLimit(.minutes(1)))
struct LiveSearchTests {
    static let token = "AAAAtesttoken1234567890"

    // MARK: - Token sources

    @Test(arguments: ["X_BEARER_TOKEN", "TWITTER_BEARER_TOKEN"])
    func tokenFromTheEnvironmentPrintsTwentyFourEntries(variable: String) async throws {
        let run = try await Self.run(environment: [variable: Self.token])
        #expect(run.result.status == 0)
        #expect(run.entryCount == 24)
        #expect(run.authorizations == ["Bearer \(Self.token)", "Bearer \(Self.token)"])
        #expect(!run.result.stderr.contains("kfeed: warning"))
        // The images went only through the loopback proxy, as tunnels to the image host.
        #expect(!run.outside.isEmpty)
        #expect(run.outside.allSatisfy { $0.method == "CONNECT" && $0.target == "pbs.twimg.com:443" })
    }

    @Test(arguments: [
        "export X_BEARER_TOKEN=\"\(token)\"\r\n",
        "# kfeed settings\r\nexport\tTWITTER_BEARER_TOKEN='\(token)'\r\n",
        "KFEED_SIZE=small\r\nX_BEARER_TOKEN=\(token) # the app's token\r\n",
        "X_BEARER_TOKEN=\(token)",
    ])
    func tokenFromDotEnvInTheWorkingDirectory(text: String) async throws {
        let run = try await Self.run(files: [TestFile(".env", text)])
        #expect(run.result.status == 0)
        #expect(run.entryCount == 24)
        #expect(run.authorizations.first == "Bearer \(Self.token)")
        #expect(!run.result.stderr.contains("kfeed: warning"))
    }

    @Test(arguments: [(0o600, false), (0o644, true), (0o640, true)])
    func tokenFromAFileWarnsWhenOthersCanReadIt(mode: Int, warns: Bool) async throws {
        let run = try await Self.run(
            ["--token-file", "token.txt"],
            files: [TestFile("token.txt", "\(Self.token)\n", mode: mode)]
        )
        #expect(run.result.status == 0)
        #expect(run.entryCount == 24)
        #expect(run.authorizations.first == "Bearer \(Self.token)")
        #expect(run.result.stderr.contains("kfeed: warning") == warns)
        #expect(run.result.stderr.contains("token.txt") == warns)
    }

    @Test(arguments: ["\(token)", "\(token)\r", "\(token)\n\n"])
    func tokenFileMayEndWithLineBreaks(contents: String) async throws {
        let run = try await Self.run(["--token-file", "token.txt"], files: [TestFile("token.txt", contents)])
        #expect(run.result.status == 0)
        #expect(run.authorizations.first == "Bearer \(Self.token)")
    }

    @Test
    func tokenFileMayEndWithCRLF() async throws {
        let run = try await Self.run(
            ["--token-file", "token.txt"],
            files: [TestFile("token.txt", "\(Self.token)\r\n")]
        )
        #expect(run.result.status == 0)
        #expect(run.authorizations.first == "Bearer \(Self.token)")
    }

    @Test func environmentWinsOverDotEnv() async throws {
        let stale = "AAAAstaletoken0987654321"
        let run = try await Self.run(
            environment: ["X_BEARER_TOKEN": Self.token],
            files: [TestFile(".env", "X_BEARER_TOKEN=\(stale)\n")],
            secrets: [Self.token, stale]
        )
        #expect(run.result.status == 0)
        #expect(run.authorizations.first == "Bearer \(Self.token)")
    }

    @Test(arguments: [[:], ["X_BEARER_TOKEN": ""], ["TWITTER_BEARER_TOKEN": ""]])
    func missingTokenIsAConfigurationErrorBeforeAnyRequest(environment: [String: String]) async throws {
        let run = try await Self.run(environment: environment)
        #expect(run.result.status == 78)
        #expect(run.result.stderr.contains("X_BEARER_TOKEN"))
        #expect(run.requests.isEmpty)
    }

    @Test(arguments: [
        "AAAA testtoken", "AAAA\ttesttoken", "AAAA\u{1B}[2Jtesttoken", "AAAAtest\u{7F}token", "AAAA\u{1}x",
    ])
    func malformedTokenIsAConfigurationErrorBeforeAnyRequest(token: String) async throws {
        let run = try await Self.run(environment: ["X_BEARER_TOKEN": token], secrets: [token])
        #expect(run.result.status == 78)
        #expect(run.result.stderr.contains("X_BEARER_TOKEN"))
        #expect(run.requests.isEmpty)
    }

    @Test(arguments: [["--token", token], ["--token=\(token)"]])
    func tokenIsNotAnOption(arguments: [String]) async throws {
        let run = try await Self.run(arguments)
        #expect(run.result.status == 64)
        #expect(run.requests.isEmpty)
    }

    // MARK: - Exit codes

    @Test(arguments: [
        ("401", Int32(77)), ("403-client-not-enrolled", 77), ("429-rate-limit", 75), ("429-usage-cap", 75),
        ("400", 78), ("errors-only", 65), ("503", 75),
    ])
    func failuresExitWithTheContractsCode(scenario: String, status: Int32) async throws {
        let run = try await Self.run(["-q"], scenario: scenario, environment: ["X_BEARER_TOKEN": Self.token])
        #expect(run.result.status == status)
        #expect(run.result.stdout.isEmpty)
        #expect(run.result.stderr.split(separator: "\n").count == 1)
        #expect(run.requests.count == (scenario == "503" ? 3 : 1))
    }

    // MARK: - Output

    @Test func verboseShowsTheRequestLineWithTheTokenRedacted() async throws {
        let run = try await Self.run(["-v"], environment: ["X_BEARER_TOKEN": Self.token])
        #expect(run.result.status == 0)
        let lines = run.result.stderr.split(separator: "\n")
        let requestLines = lines.filter { $0.contains("GET \(run.baseURL.absoluteString)/2/tweets/search/recent?") }
        #expect(requestLines.count == 2)
        #expect(requestLines.allSatisfy { $0.hasSuffix("(Authorization: Bearer [redacted])") })
    }

    // MARK: - Redirects

    @Test(arguments: [302, 307])
    func apiRedirectToAnotherPortIsNotFollowed(status: Int) async throws {
        try await LoopbackServer.withServer(RecordedRoutes(scenario: "sample").handler) { other in
            let target = "\(other.baseURL.absoluteString)/2/tweets/search/recent?query=redirected"
            let run = try await Self.run(
                { _ in .redirect(to: target, status: status) },
                environment: ["X_BEARER_TOKEN": Self.token]
            )
            #expect(run.result.status != 0)
            #expect(run.result.stdout.isEmpty)
            #expect(run.requests.count == 1)
            #expect(other.requests.isEmpty)
        }
    }
}

// MARK: - Helpers

extension LiveSearchTests {
    /// A file written into the run's working directory.
    struct TestFile: Sendable {
        var name: String
        var contents: String
        var mode: Int

        init(_ name: String, _ contents: String, mode: Int = 0o600) {
            self.name = name
            self.contents = contents
            self.mode = mode
        }
    }

    /// What one run printed and what the API server saw.
    struct Run: Sendable {
        var result: KFeedProcess.Result
        var requests: [LoopbackServer.Request]
        var baseURL: URL
        /// What reached the proxy that stands for every other host.
        var outside: [LoopbackServer.Request]

        /// The timeline lines printed (one per entry).
        var entryCount: Int { result.stdout.split(separator: "\n").filter { $0.contains("https://x.com/") }.count }
        /// The `Authorization` header of each request, in order.
        var authorizations: [String?] { requests.map { $0[header: "Authorization"] } }
    }

    /// Runs `kfeed timeline --api-base <server> arguments…` against the recorded `scenario`.
    static func run(
        _ arguments: [String] = [],
        scenario: String = "sample",
        environment: [String: String] = [:],
        files: [TestFile] = [],
        secrets: [String] = [token],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Run {
        try await run(
            RecordedRoutes(scenario: scenario).handler,
            arguments,
            environment: environment,
            files: files,
            secrets: secrets,
            sourceLocation: sourceLocation
        )
    }

    /// Runs `kfeed timeline --api-base <server> arguments…` in a fresh directory holding `files`, with only
    /// `environment` (plus `HOME` and the cache inside that directory), against a server answering with `handler`;
    /// checks that no secret was printed on stdout or stderr.
    ///
    /// Every other host (the images on pbs.twimg.com) is reached only through a proxy on loopback that refuses
    /// everything, so a run never leaves the machine, images become placeholders at once, and the test can check
    /// that nothing sent elsewhere carried a secret.
    static func run(
        _ handler: @escaping @Sendable (LoopbackServer.Request) -> LoopbackServer.Response,
        _ arguments: [String] = [],
        environment: [String: String] = [:],
        files: [TestFile] = [],
        secrets: [String] = [token],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Run {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for file in files {
            let url = directory.url.appendingPathComponent(file.name)
            try Data(file.contents.utf8).write(to: url)
            try FileManager.default.setAttributes([.posixPermissions: file.mode], ofItemAtPath: url.path)
        }
        let base = [
            "HOME": directory.url.path,
            "KFEED_CACHE_DIR": directory.url.appendingPathComponent("cache").path,
        ]
        return try await LoopbackServer.withServer(responding: .text("no network in tests", status: 502)) { outside in
            let proxy = outside.baseURL.absoluteString
            let isolation = [
                "http_proxy": proxy, "HTTPS_PROXY": proxy, "https_proxy": proxy, "ALL_PROXY": proxy,
                "NO_PROXY": "127.0.0.1", "no_proxy": "127.0.0.1",
            ]
            return try await LoopbackServer.withServer(handler) { server in
                let result = try await KFeedProcess.run(
                    ["timeline", "--api-base", server.baseURL.absoluteString] + arguments,
                    environment: base.merging(isolation) { $1 }.merging(environment) { $1 },
                    directory: directory.url
                )
                for secret in secrets {
                    #expect(!result.stdout.contains(secret), "stdout shows the token", sourceLocation: sourceLocation)
                    #expect(!result.stderr.contains(secret), "stderr shows the token", sourceLocation: sourceLocation)
                    let elsewhere = outside.requests.filter { "\($0.target) \($0.headers)".contains(secret) }
                    #expect(elsewhere.isEmpty, "the token went to another host", sourceLocation: sourceLocation)
                }
                return Run(
                    result: result,
                    requests: server.requests,
                    baseURL: server.baseURL,
                    outside: outside.requests
                )
            }
        }
    }
}

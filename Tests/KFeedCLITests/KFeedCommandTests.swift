import Foundation
import KFeedBase
import KFeedImages
import KFeedTestSupport
import Testing

/// The root command's behaviour as a user meets it: exit codes and one-line errors.
struct KFeedCommandTests {
    @Test(arguments: [
        (["timeline", "--now", "2026-11-22T09:00:00"], "--now"),
        (["timeline", "--now", "tomorrow"], "--now"),
        (["timeline", "--bogus"], "--bogus"),
        (["timeline", "--entries", "0"], "--entries"),
        (["timeline", "--entries", "101"], "--entries"),
        (["timeline", "--interval", "5x"], "--interval"),
        (["timeline", "--size", "huge"], "--size"),
        (["timeline", "--policy", "sometimes"], "--policy"),
    ])
    func badUsageExits64WithOneLineNamingTheOption(arguments: [String], option: String) async throws {
        let result = try await KFeedProcess.run(arguments + ["--replay", Fixture.replay("sample").path])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(result.stderr.contains(option))
    }

    @Test(arguments: [
        ["--query", "has:images -is:retweet"],
        ["--query", ""],
        ["--query", "(kpop has:images"],
        ["--query", "\"kpop has:images"],
        ["--query", String(repeating: "a", count: 513)],
        ["--context", "55"],
        ["--context", "55.abc"],
        ["--context", "55.1", "--query", "kpop"],
    ])
    func invalidQueryExits78BeforeAnyRequest(arguments: [String]) async throws {
        // No replay directory and no token: the query must be rejected first, so no request can be attempted.
        let result = try await KFeedProcess.run(["timeline"] + arguments)
        #expect(result.status == 78)
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func unknownSubcommandExits64() async throws {
        let result = try await KFeedProcess.run(["nonsense"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("nonsense"))
    }

    @Test func versionAndHelpExitZero() async throws {
        let version = try await KFeedProcess.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.contains("0."))
        let help = try await KFeedProcess.run(["timeline", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--replay"))
    }

    @Test func badEnvironmentValueIsAConfigurationError() async throws {
        let result = try await KFeedProcess.run(
            ["query"],
            environment: ["KFEED_SIZE": "gigantic"]
        )
        #expect(result.status == 78)
        #expect(result.stderr.contains("KFEED_SIZE"))
    }
}

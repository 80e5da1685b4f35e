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

    /// Each command takes only its own options: one that another command takes is a one-line usage error (64) that
    /// names the commands taking it, before anything is read or asked.
    @Test(arguments: [
        (["query", "--profile", "trmnl"], "kfeed query does not take --profile; ", ["timeline", "refresh", "serve"]),
        (["current", "--pages", "7"], "kfeed current does not take --pages; ", ["timeline", "refresh", "serve"]),
        (["preview", "--entries", "12"], "kfeed preview does not take --entries; ", ["query", "refresh"]),
        (["query", "--now", "2026-11-22T09:00:00Z"], "kfeed query does not take --now; ", ["current", "status"]),
        (["current", "-v"], "kfeed current does not take -v; ", ["refresh", "timeline"]),
    ])
    func anOptionOfAnotherCommandIsAOneLineUsageErrorNamingThoseThatTakeIt(
        arguments: [String],
        message: String,
        takers: [String]
    ) async throws {
        let result = try await KFeedProcess.run(arguments, environment: ["X_BEARER_TOKEN": "AAAAnever"])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("kfeed: error: \(message)"), "\(result.stderr)")
        for taker in takers { #expect(result.stderr.contains("kfeed \(taker)"), "\(taker): \(result.stderr)") }
    }

    @Test func anUnknownOptionStaysAnUnknownOption() async throws {
        let result = try await KFeedProcess.run(["refresh", "--bogus"])
        #expect(result.status == 64)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains("unknown option '--bogus' for kfeed refresh"), "\(result.stderr)")
    }
}

import Foundation
import KFeed
import KFeedBase
import KFeedTestSupport
import Testing

/// `kfeed.toml` through the built binary (`docs/feeds.md`): a bad file is one line naming the file, the line and the
/// key, exit 78, before any request; two feeds refresh from one loopback X into `DIR/feeds/NAME/` under the file's
/// budget, are read one by one with `--feed`, and reported by `kfeed status`.
@Suite(.timeLimit(.minutes(3)))
struct FeedsFileTests {
    private static let environment = ["X_BEARER_TOKEN": "AAAAfeedsFileToken0123456789", "NO_PROXY": "*"]
    private static let now = "2026-11-22T09:00:00Z"

    private static let twoFeeds = """
        # Two feeds from one account.
        [budget]
        posts_per_day = 100

        [feeds.kpop]
        contexts = ["55.888105153038958593"]

        [feeds.frame]
        query = "photography has:images -is:retweet"
        entries = 12
        size = "medium"
        profiles = ["trmnl"]

        [serve]
        listen = "127.0.0.1:8787"

        [serve.trmnl]
        "AA:BB:CC:DD:EE:FF" = "frame"
        """

    private static func write(_ text: String, in directory: URL) throws -> URL {
        let file = directory.appendingPathComponent("kfeed.toml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    private static func run(
        _ arguments: [String],
        config: URL,
        cache: URL,
        server: LoopbackServer,
        now: String = now
    ) async throws -> KFeedProcess.Result {
        // The API host for the commands that reach X; the others do not take it.
        let api =
            ["refresh", "timeline"].contains(arguments.first) ? ["--api-base", server.baseURL.absoluteString] : []
        return try await KFeedProcess.run(
            arguments + ["--config", config.path, "--cache", cache.path, "--now", now] + api,
            environment: environment
        )
    }

    @Test(arguments: [
        ("[feeds.kpop]\ncontexts = [\"55.888105153038958593\"\n", ":2: ", "fix the TOML syntax"),
        (
            "[feeds.kpop]\ncontexts = [\"55.888105153038958593\"]\nno-repeat-days = 3\n",
            ":3: feeds.kpop.no-repeat-days", "did you mean no_repeat_days"
        ),
        (
            "[feeds.kpop]\nquery = \"cats\"\n\n[feeds.pets]\nquery = \"dogs\"\nentries = 500\n",
            ":6: feeds.pets.entries", "1…100"
        ),
        (
            "[feeds.kpop]\ncontexts = [\"55.888105153038958593\"]\nquery = \"cats\"\n", ":3: feeds.kpop.query",
            "exclude each other"
        ),
        ("[feeds.kpop]\ncontexts = [\"kpop\"]\n", ":2: feeds.kpop.contexts", "DOMAIN.ENTITY"),
        (
            "[feeds.kpop]\nquery = \"cats\"\n[serve.trmnl]\n\"AA:BB\" = \"pets\"\n", ":4: serve.trmnl.AA:BB",
            "must name a feed"
        ),
        ("[budget]\nposts_per_day = -1\n[feeds.kpop]\nquery = \"cats\"\n", ":2: budget.posts_per_day", "whole number"),
        ("[feeds.Kpop]\nquery = \"cats\"\n", ":1: feeds.Kpop", "a-z"),
        // toml++ would abort on this one (an assertion, not an error): kfeed finds it first.
        ("[feeds.kpop]\nquery = \"cats\"\n\n[ (pets) ]\n", ":4: ", "a table header needs a name"),
        // A closing brace where an array's value should be: toml++ aborts (an assertion); kfeed says so in one
        // line, exit 78.
        ("[feeds.kpop]\nquery = \"cats\"\nprofiles = [\"trmnl\", }]\n", " is not valid TOML", "check its brackets"),
        ("[budget]\nposts_per_day = 60\n", ": feeds", "no feed"),
        ("[feeds.kpop]\nquery = \"cats\"\nallow = [\"@good\", \"no one\"]\n", ":3: feeds.kpop.allow", "@username"),
        ("[feeds.kpop]\nquery = \"cats\"\nmin_likes = -3\n", ":3: feeds.kpop.min_likes", "0…10000000"),
        (
            "[feeds.kpop]\nquery = \"" + String(repeating: "k", count: 500) + "\"\nmin_reposts = 100\n",
            ":1: feeds.kpop", "the query with min_reposts:100 has 516 characters"
        ),
        // toml++ recurses once per level of a key, a header or a value, and overflowed the stack on these (SIGSEGV):
        // kfeed refuses them before it reads them.
        (
            "[feeds.kpop]\nquery = \"cats\"\n" + String(repeating: "a.", count: 149_999) + "a = 1\n", ":3: ",
            "a key of 150000 parts is deeper than kfeed reads (at most 64)"
        ),
        (
            "[feeds.kpop]\nquery = \"cats\"\n[" + String(repeating: "a.", count: 149_999) + "a]\n", ":3: ",
            "a key of 150000 parts is deeper than kfeed reads (at most 64)"
        ),
        (
            "[feeds.kpop]\nquery = \"cats\"\nx = " + String(repeating: "[", count: 100_000) + "\n", ":3: ",
            "arrays and inline tables nested more than 32 deep"
        ),
        (
            "[feeds.kpop]\nquery = \"cats\"\nx = " + String(repeating: "{a=", count: 100_000) + "\n", ":3: ",
            "arrays and inline tables nested more than 32 deep"
        ),
    ])
    func aBadFileIsOneLineNamingTheLineAndKeyExit78BeforeAnyRequest(
        text: String,
        location: String,
        message: String
    ) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let config = try Self.write(text, in: directory.url)
        try await LoopbackServer.withServer(try RecordedRoutes(scenario: "sample").handlerServingImages) { server in
            let result = try await Self.run(
                ["refresh"],
                config: config,
                cache: directory.url.appendingPathComponent("cache"),
                server: server
            )
            #expect(result.status == 78)
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(result.stderr)")
            #expect(result.stderr.contains("\(config.path)\(location)"), "\(result.stderr)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(server.requests.isEmpty)
        }
    }

    @Test func twoFeedsRefreshIntoTheirOwnDirectoriesAndAreReadOneByOne() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let config = try Self.write(Self.twoFeeds, in: directory.url)
        let cache = directory.url.appendingPathComponent("cache")
        try await LoopbackServer.withServer(try RecordedRoutes(scenario: "sample").handlerServingImages) { server in
            let first = try await Self.run(["refresh"], config: config, cache: cache, server: server)
            #expect(first.status == 0, "\(first.stderr)")
            let kpop = try #require(try CacheStore(directory: cache.appendingPathComponent("feeds/kpop")).manifest())
            let frame = try #require(try CacheStore(directory: cache.appendingPathComponent("feeds/frame")).manifest())
            #expect(kpop.entries.count == 24)
            #expect(frame.entries.count == 12)
            #expect(frame.size == .medium)
            #expect(frame.entries.allSatisfy { $0.renders?["trmnl"] != nil })
            #expect(kpop.query.contains("context:55.888105153038958593"))
            #expect(frame.query.hasPrefix("photography"))
            let searches = server.requests.filter { $0.path == RecentSearchRequest.path }.count
            #expect(searches >= 2)

            // Not due: no request for either feed.
            let again = try await Self.run(["refresh"], config: config, cache: cache, server: server)
            #expect(again.status == 0, "\(again.stderr)")
            #expect(server.requests.filter { $0.path == RecentSearchRequest.path }.count == searches)

            // One feed at a time: the first is the default, --feed names another, an unknown name is 78.
            let defaultTimeline = try await Self.run(["timeline"], config: config, cache: cache, server: server)
            #expect(defaultTimeline.stdout.split(separator: "\n").filter { $0.contains("@") }.count == 24)
            let frameTimeline = try await Self.run(
                ["timeline", "--feed", "frame"],
                config: config,
                cache: cache,
                server: server
            )
            #expect(frameTimeline.stdout.split(separator: "\n").filter { $0.contains("@") }.count == 12)
            let current = try await Self.run(
                ["current", "--feed", "frame", "--field", "render.trmnl"],
                config: config,
                cache: cache,
                server: server
            )
            #expect(current.status == 0, "\(current.stderr)")
            #expect(current.stdout.contains("/feeds/frame/renders/"))
            let unknown = try await Self.run(
                ["timeline", "--feed", "pets"],
                config: config,
                cache: cache,
                server: server
            )
            #expect(unknown.status == 78)
            #expect(unknown.stderr.contains("no feed 'pets'"), "\(unknown.stderr)")
        }
    }

    /// Without `--config`: `KFEED_CONFIG`, else `$XDG_CONFIG_HOME/kfeed/kfeed.toml` when it exists; with neither, one
    /// feed from flags as ever (and `--feed` says it needs a file).
    @Test func theFileIsFoundFromTheEnvironmentAndItsDefaultPlace() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let home = directory.url.appendingPathComponent("config")
        try FileManager.default.createDirectory(
            at: home.appendingPathComponent("kfeed"),
            withIntermediateDirectories: true
        )
        _ = try Self.write(Self.twoFeeds, in: home.appendingPathComponent("kfeed"))
        let cache = directory.url.appendingPathComponent("cache")
        try await LoopbackServer.withServer(try RecordedRoutes(scenario: "sample").handlerServingImages) { server in
            let common = ["--cache", cache.path, "--api-base", server.baseURL.absoluteString, "--now", Self.now]
            let found = try await KFeedProcess.run(
                ["refresh"] + common,
                environment: Self.environment.merging(["XDG_CONFIG_HOME": home.path]) { $1 }
            )
            #expect(found.status == 0, "\(found.stderr)")
            #expect(
                FileManager.default.fileExists(atPath: cache.appendingPathComponent("feeds/frame/timeline.json").path)
            )
            let named = try await KFeedProcess.run(
                ["timeline", "--feed", "frame"] + common,
                environment: Self.environment.merging([
                    "KFEED_CONFIG": home.appendingPathComponent("kfeed/kfeed.toml").path
                ]) { $1 }
            )
            #expect(named.stdout.split(separator: "\n").filter { $0.contains("@") }.count == 12)
            let none = try await KFeedProcess.run(
                ["timeline", "--feed", "frame"] + common,
                environment: Self.environment
            )
            #expect(none.status == 78)
            #expect(none.stderr.contains("--feed frame needs a feeds file"), "\(none.stderr)")
        }
    }

    @Test func statusReportsEachFeedAndTheBudgetWithoutARequest() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let config = try Self.write(Self.twoFeeds, in: directory.url)
        let cache = directory.url.appendingPathComponent("cache")
        try await LoopbackServer.withServer(try RecordedRoutes(scenario: "sample").handlerServingImages) { server in
            #expect(try await Self.run(["refresh"], config: config, cache: cache, server: server).status == 0)
            let requests = server.requests.count
            let json = try await Self.run(
                ["status", "--json"],
                config: config,
                cache: cache,
                server: server,
                now: "2026-11-22T10:00:00Z"
            )
            #expect(json.status == 0, "\(json.stderr)")
            let status = try InstantFormat.jsonDecoder().decode(FeedsStatus.self, from: Data(json.stdout.utf8))
            #expect(status.feeds.map(\.name) == ["kpop", "frame"])
            #expect(status.feeds.allSatisfy { !$0.isDue && $0.lastRefresh != nil })
            // The sample answers every page with the same posts: X bills each once a day, whichever feed read it.
            let ledger = try #require(
                try? InstantFormat.jsonDecoder().decode(
                    Ledger.self,
                    from: Data(contentsOf: cache.appendingPathComponent("ledger.json"))
                )
            )
            #expect(status.budget.postsToday == ledger.postsToday(at: status.now))
            #expect(status.budget.postsToday == Set(ledger.idsRead).count)
            #expect(status.feeds.map(\.postsToday).reduce(0, +) == status.budget.postsToday)
            #expect(status.budget.postsPerDay == 100)
            #expect(status.budget.postsLeftToday == 100 - status.budget.postsToday)
            let table = try await Self.run(["status"], config: config, cache: cache, server: server)
            #expect(table.stdout.contains("budget: 100 posts a day"), "\(table.stdout)")
            #expect(server.requests.count == requests)
        }
    }

    @Test func aSpentBudgetMakesNoRequestSaysSoOnceAndExits0() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let config = try Self.write(
            "[budget]\nposts_per_day = 9\n\n[feeds.kpop]\ncontexts = [\"55.888105153038958593\"]\n",
            in: directory.url
        )
        let cache = directory.url.appendingPathComponent("cache")
        try await LoopbackServer.withServer(try RecordedRoutes(scenario: "sample").handlerServingImages) { server in
            let result = try await Self.run(["refresh"], config: config, cache: cache, server: server)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(server.requests.filter { $0.path == RecentSearchRequest.path }.isEmpty)
            #expect(
                result.stderr
                    == "kfeed: budget spent until 2026-11-23T00:00:00Z: feeds read what it allowed and keep their pictures\n"
            )
            let state = try #require(CacheStore(directory: cache.appendingPathComponent("feeds/kpop")).state())
            #expect(state.budgetSpentUntil == InstantFormat.date(from: "2026-11-23T00:00:00Z"))
            #expect(state.lastError == nil)
        }
    }
}

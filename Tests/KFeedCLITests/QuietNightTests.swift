import Foundation
import KFeed
import KFeedBase
import KFeedHTTP
import KFeedTestSupport
import Testing

/// Quiet hours through the built binary: a simulated night in Berlin (`quiet = "23:00-07:00"`), `kfeed refresh`
/// from cron every 10 minutes and a TRMNL panel that sleeps as long as `/api/display` tells it, from 22:00 to 08:00,
/// every instant injected with `--now`, against a loopback X that counts its searches.
@Suite(.timeLimit(.minutes(6)))
struct QuietNightTests {
    private static let berlin = TimeZone(identifier: "Europe/Berlin")!
    private static let token = "AAAAquietNightToken0123456789abcdef"

    /// `HH:MM` on day `day` of November 2026 in Berlin (CET, UTC+1).
    private static func local(_ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = berlin
        return calendar.date(from: DateComponents(year: 2026, month: 11, day: day, hour: hour, minute: minute))!
    }

    private struct Night {
        var searches: [Date] = []
        var polls: [(at: Date, json: [String: Any])] = []
    }

    /// One feed with quiet hours over a loopback X; `body` gets a function that runs kfeed at an instant (the feeds
    /// file, the cache, the server's API added) and one that counts the searches so far.
    private static func withFeed(
        entries: Int,
        _ body: (
            _ directory: URL, _ run: ([String], Date) async throws -> KFeedProcess.Result, _ searches: () -> Int
        ) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let config = directory.url.appendingPathComponent("kfeed.toml")
        try """
        [feeds.night]
        query = "stage has:images"
        entries = \(entries)
        no_repeat_days = 0
        profiles = ["trmnl"]
        quiet = "23:00-07:00"
        timezone = "Europe/Berlin"
        """.write(to: config, atomically: true, encoding: .utf8)
        let search = try Fixture.data("recent-search.sample-page1.json")
        let photo = try TestJPEG.jpeg(TestJPEG.gradient(width: 800, height: 600), width: 800, height: 600)
        try await LoopbackServer.withServer(LoopbackServer.searching(search, pictures: photo)) { server in
            try await body(
                directory.url,
                { arguments, now in
                    try await KFeedProcess.run(
                        arguments + [
                            "--config", config.path, "--cache", directory.url.appendingPathComponent("cache").path,
                            "--now", InstantFormat.string(from: now),
                        ] + (arguments.first == "refresh" ? ["--api-base", server.baseURL.absoluteString] : []),
                        environment: ["X_BEARER_TOKEN": token, "NO_PROXY": "*"]
                    )
                },
                { server.requests.filter { $0.path == RecentSearchRequest.path }.count }
            )
        }
    }

    /// What `/api/display` answers at `now` (a server started with its clock there, stopped after the request).
    private static func poll(
        _ directory: URL,
        at now: Date,
        path: String = "/api/display"
    ) async throws -> [String:
        Any]
    {
        let server = try await RunningServer.start([
            "--config", directory.appendingPathComponent("kfeed.toml").path,
            "--cache", directory.appendingPathComponent("cache").path,
            "--now", InstantFormat.string(from: now), "--listen", "127.0.0.1:0",
        ])
        defer { Task { _ = await server.stop() } }
        let response = try await CurlTransport().send(
            HTTPRequest(
                url: try #require(URL(string: server.base + path)),
                headers: [HTTPHeader("ID", "AA:BB:CC:DD:EE:FF")]
            )
        )
        #expect(response.status == 200, "\(path) at \(now): \(String(decoding: response.body, as: UTF8.self))")
        return try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
    }

    /// Cron every 10 minutes and the panel from `start` to `end`: the panel polls at `start`, then whenever the
    /// `refresh_rate` it was given runs out (after that minute's cron run, as a panel that wakes on the minute does).
    private static func simulate(
        from start: Date,
        to end: Date,
        directory: URL,
        run: ([String], Date) async throws -> KFeedProcess.Result,
        searches: () -> Int
    ) async throws -> Night {
        var night = Night()
        var nextPoll = start
        var now = start
        while now <= end {
            let before = searches()
            let cron = try await run(["refresh", "-v"], now)
            #expect(cron.status == 0, "cron at \(now): \(cron.stderr)")
            if searches() > before { night.searches.append(now) }
            while nextPoll <= now {
                let json = try await poll(directory, at: nextPoll)
                night.polls.append((nextPoll, json))
                let rate = try #require(json["refresh_rate"] as? Int)
                nextPoll = nextPoll.addingTimeInterval(Double(rate))
            }
            now = now.addingTimeInterval(600)
        }
        return night
    }

    @Test func aNightWithALongTimelineSearchesOnlyOnTheEveAndThePanelSleepsUntilSeven() async throws {
        try await Self.withFeed(entries: 24) { directory, run, searches in
            // A timeline made at 07:00 (the recorded page fills 17 hourly entries of the 24 asked for): it would run
            // out at midnight, before the panel's wake.
            let morning = try await run(["refresh"], Self.local(22, 7))
            #expect(morning.status == 0, "\(morning.stderr)")
            let made = try #require(
                try CacheStore(directory: directory.appendingPathComponent("cache/feeds/night")).manifest()
            )
            #expect(made.entries.count > 10, "made on the eve, the timeline reaches past 08:00")

            let night = try await Self.simulate(
                from: Self.local(22, 22),
                to: Self.local(23, 8),
                directory: directory,
                run: run,
                searches: searches
            )
            // One search on the eve (22:00, the last hour before the night), none in the night, none at 07:00.
            #expect(night.searches == [Self.local(22, 22)], "\(night.searches)")
            // The panel: 22:00, 23:00 (told to sleep until 07:00), 07:00 (a picture of the hour), 08:00.
            #expect(
                night.polls.map(\.at) == [Self.local(22, 22), Self.local(22, 23), Self.local(23, 7), Self.local(23, 8)]
            )
            let rates = night.polls.map { $0.json["refresh_rate"] as? Int }
            #expect(rates == [3_600, 8 * 3_600, 3_600, 3_600], "\(rates)")
            for poll in night.polls {
                #expect((poll.json["image_url"] as? String)?.contains("/renders/") == true, "\(poll.json)")
            }
            let manifest = try #require(
                try CacheStore(directory: directory.appendingPathComponent("cache/feeds/night")).manifest()
            )
            #expect(manifest.generatedAt == Self.local(22, 22))
            #expect(manifest.currentEntryIndex(at: Self.local(23, 7)) != nil, "the morning has an entry of its own")
            let seven = try #require(night.polls.first { $0.at == Self.local(23, 7) })
            #expect(
                (seven.json["filename"] as? String).map { $0.hasPrefix("kfeed-") && $0.hasSuffix(".png") } == true,
                "\(seven.json)"
            )

            // In the night: kfeed refresh -v, kfeed status, /current.json and the Redirect plugin say so.
            let quiet = try await run(["refresh", "-v"], Self.local(23, 3))
            #expect(quiet.status == 0)
            #expect(quiet.stderr.contains("night: quiet until 07:00"), "\(quiet.stderr)")
            let status = try await run(["status"], Self.local(23, 3))
            #expect(status.stdout.contains("quiet until 07:00"), "\(status.stdout)")
            let json = try await run(["status", "--json"], Self.local(23, 3))
            let feeds = try #require(
                (try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["feeds"]
                    as? [[String: Any]]
            )
            #expect(feeds.first?["quiet_until"] as? String == InstantFormat.string(from: Self.local(23, 7)))
            let current = try await Self.poll(directory, at: Self.local(23, 3), path: "/current.json")
            #expect(current["refresh_rate"] as? Int == 4 * 3_600)
            let redirect = try await Self.poll(directory, at: Self.local(23, 6, 30), path: "/trmnl/redirect.json")
            #expect(redirect["refresh_rate"] as? Int == 1_800)
            // --force still refreshes at night: the owner asked.
            let before = searches()
            let forced = try await run(["refresh", "--force"], Self.local(23, 3))
            #expect(forced.status == 0, "\(forced.stderr)")
            #expect(searches() > before)
        }
    }

    @Test func aShortTimelineWaitsForTheEndOfTheNightAndThePanelWakesToIt() async throws {
        try await Self.withFeed(entries: 6) { directory, run, searches in
            // Six hours from 21:00: due on the eve (it would run out at 03:00), made again at 22:00, due at 03:00
            // in the night: it waits until 07:00.
            let night = try await Self.simulate(
                from: Self.local(22, 21),
                to: Self.local(23, 8),
                directory: directory,
                run: run,
                searches: searches
            )
            #expect(night.searches == [Self.local(22, 21), Self.local(22, 22), Self.local(23, 7)], "\(night.searches)")
            let sleep = try #require(night.polls.first { $0.at == Self.local(22, 23) })
            #expect(sleep.json["refresh_rate"] as? Int == 8 * 3_600)
            #expect(night.polls.contains { $0.at == Self.local(23, 7) })
            #expect(!night.polls.contains { $0.at > Self.local(22, 23) && $0.at < Self.local(23, 7) })
            let manifest = try #require(
                try CacheStore(directory: directory.appendingPathComponent("cache/feeds/night")).manifest()
            )
            #expect(manifest.generatedAt == Self.local(23, 7))
        }
    }

    @Test func badQuietHoursAreOneLineAndTheirExitCode() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let config = directory.url.appendingPathComponent("kfeed.toml")
        for (value, words) in [
            ("\"23:00-23:00\"", "start and end at the same time"), ("\"25:00-07:00\"", "HH:MM-HH:MM"),
            ("\"late\"", "HH:MM-HH:MM"),
        ] {
            try "[feeds.a]\nquery = \"cat\"\nquiet = \(value)\n".write(to: config, atomically: true, encoding: .utf8)
            let result = try await KFeedProcess.run(["status", "--config", config.path, "--cache", directory.url.path])
            #expect(result.status == 78, "\(value): \(result.stderr)")
            #expect(result.stderr.contains("kfeed.toml:3: feeds.a.quiet:"), "\(result.stderr)")
            #expect(result.stderr.contains(words), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
        try "[feeds.a]\nquery = \"cat\"\ntimezone = \"Mars/Olympus\"\n".write(
            to: config,
            atomically: true,
            encoding: .utf8
        )
        let zone = try await KFeedProcess.run(["status", "--config", config.path, "--cache", directory.url.path])
        #expect(zone.status == 78)
        #expect(zone.stderr.contains("feeds.a.timezone: 'Mars/Olympus' is not a time zone"), "\(zone.stderr)")
        for flag in [["--quiet-hours", "7:00-7:00"], ["--quiet-hours", "23-7"], ["--timezone", "Nowhere/Else"]] {
            let result = try await KFeedProcess.run(["status", "--cache", directory.url.path] + flag)
            #expect(result.status == 64, "\(flag): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
        let env = try await KFeedProcess.run(
            ["status", "--cache", directory.url.path],
            environment: ["KFEED_QUIET_HOURS": "7:00"]
        )
        #expect(env.status == 78)
        #expect(env.stderr.contains("KFEED_QUIET_HOURS:"), "\(env.stderr)")
    }
}

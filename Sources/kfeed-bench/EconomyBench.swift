import Foundation
import KFeed
import KFeedImages
import KFeedTestSupport

/// `kfeed-bench economy [HOURS]`: what refreshes cost X's bill. `kfeed refresh` runs from a simulated cron every
/// 15 minutes for HOURS (default 48) against a simulated X (`SimulatedX`: posts arriving at a steady rate, honouring
/// `max_results`, `since_id`, `until_id`, `next_token` and the 7-day window), in process, with the refresh's real
/// code from search to committed cache. Scenarios: a busy topic (400 posts a day), a quiet one (12 a day, fewer than
/// the 24 entries), the busy topic with no memory across days (`--no-repeat-days 0`: no history, no candidates, no
/// `since_id`), and an API that answers 503 throughout. For each UTC day: search requests and distinct posts read
/// (what X bills); over the run: refreshes, cron runs that were not due and the requests they made, entries shown,
/// and entries that showed a post or picture already shown within the run.
enum EconomyBench {
    private struct Scenario {
        var name: String
        var postsPerDay: Int
        var noRepeatDays: Int = 7
        var failing = false
        var pictures = SimulatedX.Pictures.blocks
        /// Days (from the start) on which no post is created.
        var silentDays: Range<Int>?
        /// Days on which every search finds nothing.
        var emptyDays: Range<Int>?
        /// Hours to run, when not the command's.
        var hours: Int?

        /// Whether day `day` is one the topic or the API fails on (≤ 12 requests), not a healthy one: an API that
        /// fails, a search that finds nothing, a day with nothing new and the day after it (when a refresh reads
        /// back further than the silence to fill the timeline).
        func isFailing(day: Int) -> Bool {
            failing || (emptyDays?.contains(day) ?? false)
                || (silentDays.map { $0.lowerBound...$0.upperBound }?.contains(day) ?? false)
        }
    }

    static func run(_ arguments: [String]) async throws {
        let hours = arguments.first.flatMap(Int.init) ?? 48
        let scenarios = [
            Scenario(name: "busy", postsPerDay: 400),
            Scenario(name: "quiet", postsPerDay: 12),
            Scenario(name: "busy, no memory", postsPerDay: 400, noRepeatDays: 0),
            Scenario(name: "failing (503)", postsPerDay: 400, failing: true),
            Scenario(name: "every picture of one layout", postsPerDay: 400, pictures: .layout(.stage)),
            Scenario(name: "nothing new for three days", postsPerDay: 30, silentDays: 1..<4, hours: 120),
            Scenario(name: "an empty search for a day", postsPerDay: 400, emptyDays: 1..<2, hours: 72),
        ]
        print("kfeed refresh from cron every 15 min for \(hours) h, 24 entries, simulated X (posts read = distinct")
        print("posts returned per UTC day, what X bills); start 2026-11-22T09:00:00Z")
        print("")
        var missed: [String] = []
        for scenario in scenarios {
            let result = try await run(scenario, hours: scenario.hours ?? hours)
            if result.notDueRequests > 0 { missed.append("\(scenario.name): requests when not due") }
            if result.unmarkedRepeats > 0 {
                missed.append("\(scenario.name): \(result.unmarkedRepeats) unmarked repeats")
            }
            if result.blankTicks > 0 {
                missed.append("\(scenario.name): no picture for \(result.blankTicks) quarter hours")
            }
            for (day, cost) in result.days.enumerated() {
                if scenario.isFailing(day: day) {
                    if cost.requests + cost.lookups > 12 {
                        missed.append("\(scenario.name): over 12 requests on failing day \(day)")
                    }
                } else if scenario.noRepeatDays > 0 && (cost.postsBilled > 30 || cost.requests + cost.lookups > 2) {
                    // Lookups are requests too, and their posts are billed as any.
                    missed.append(
                        "\(scenario.name): \(cost.postsBilled) posts billed in \(cost.requests) searches and "
                            + "\(cost.lookups) lookups on day \(day) (over 30 posts or 2 requests)"
                    )
                }
            }
        }
        missed += try await threeFeeds(days: 7, postsPerDay: 60)
        print("")
        print(
            "goals (≤ 30 posts billed and ≤ 2 requests a healthy day, lookups included, 0 when not due, ≤ 12 a "
                + "failing day, a picture every quarter hour, repeats only when marked, three feeds never over their budget): "
                + (missed.isEmpty ? "met" : "missed: " + missed.joined(separator: "; "))
        )
        if !missed.isEmpty { exit(1) }
    }

    private struct Result {
        var days: [SimulatedX.Day]
        var notDueRequests: Int
        var unmarkedRepeats: Int
        var blankTicks: Int
    }

    /// The scenario's simulated X from `start`: its posts, pictures, silent days and days of empty searches.
    private static func simulation(_ scenario: Scenario, start: Date) -> SimulatedX {
        let x = SimulatedX(start: start, postsPerDay: scenario.postsPerDay)
        x.isFailing = scenario.failing
        x.pictures = scenario.pictures
        // UTC days, as X bills them and as the per-day figures count (day 0 is the start's).
        let midnight = (start.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400
        func span(_ days: Range<Int>?) -> Range<Date>? {
            days.map {
                Date(
                    timeIntervalSince1970: midnight + Double($0.lowerBound) * 86_400
                )..<Date(
                    timeIntervalSince1970: midnight + Double($0.upperBound) * 86_400
                )
            }
        }
        x.silence = span(scenario.silentDays)
        x.emptySearches = span(scenario.emptyDays)
        return x
    }

    private static func run(_ scenario: Scenario, hours: Int) async throws -> Result {
        let start = Date(timeIntervalSince1970: 1_795_338_000)
        let x = simulation(scenario, start: start)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kfeed-economy-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let refresher = Refresher.testing(
            in: directory,
            transport: x,
            settings: .init(
                query: .default,
                builder: TimelineBuilder(entryCount: 24),
                size: .small,
                noRepeatWindow: TimeInterval(scenario.noRepeatDays) * 86_400
            ),
            maxTries: XClient.Configuration().maxTries
        )
        var refreshes = 0
        var failures = 0
        var notDue = 0
        var notDueRequests = 0
        var entries = 0
        var unmarked = 0
        var marked = 0
        var blank = 0
        var shown: Set<String> = []
        var shownPictures: Set<Int> = []
        var current: Manifest?
        var hadPicture = false
        var now = start
        let end = start.addingTimeInterval(TimeInterval(hours) * 3_600)
        while now < end {
            x.now = now
            let before = x.searchParameters.count
            do {
                switch try await refresher.refresh(now: now) {
                case .notDue:
                    notDue += 1
                    notDueRequests += x.searchParameters.count - before
                case .refreshed(let manifest, _):
                    refreshes += 1
                    current = manifest
                    // What this timeline shows before the next one replaces it (its last entry begins then).
                    let reload = manifest.reloadAfter ?? end
                    for entry in manifest.entries where entry.date < reload && entry.date < end {
                        entries += 1
                        let picture = SimulatedX.post(ofID: entry.media.key).map(SimulatedX.picture(ofPost:))
                        let again =
                            !shown.insert(entry.tweetID).inserted || !shownPictures.insert(picture ?? -1).inserted
                        if again && entry.isRepeat { marked += 1 } else if again { unmarked += 1 }
                    }
                case .noUsablePost:
                    failures += 1
                }
            } catch {
                failures += 1
            }
            // The screen: the entry whose hour covers now; past the timeline's end, its last entry (stale, not
            // blank); nothing only when no timeline has any entry.
            if hadPicture && current?.entries.isEmpty ?? true { blank += 1 }
            hadPicture = hadPicture || !(current?.entries.isEmpty ?? true)
            now.addTimeInterval(900)
        }
        let days = x.days
        let prices = Budget()
        let perDay = days.enumerated().map { day, cost in
            "day \(day): \(cost.requests) req, \(cost.postsRead) posts; \(cost.lookups) lookups of "
                + "\(cost.postsLookedUp) posts; billed \(cost.postsBilled) posts + \(cost.usersRead) users = "
                + String(format: "$%.3f", prices.cost(posts: cost.postsBilled, users: cost.usersRead))
                + String(format: " (posts only $%.3f)", prices.cost(posts: cost.postsBilled, users: 0))
        }
        print("\(scenario.name) (\(scenario.postsPerDay) new posts/day)")
        for line in perDay { print("  " + line) }
        print(
            "  refreshes \(refreshes), failed runs \(failures), not due \(notDue) (requests when not due: "
                + "\(notDueRequests)), entries shown \(entries), repeats marked \(marked), unmarked \(unmarked), "
                + "quarter hours without a picture \(blank)"
        )
        return Result(days: days, notDueRequests: notDueRequests, unmarkedRepeats: unmarked, blankTicks: blank)
    }

    /// Three feeds (three topics, 400 new posts a day each) refreshed together from cron every 15 minutes for `days`
    /// under a budget of `postsPerDay` for all of them (`kfeed.toml`'s `[budget]`, `FeedsRefresh`): per UTC day the
    /// posts X billed, the requests and the cost; per feed the quarter hours its screen had no entry for the hour.
    /// - Returns: the goals missed.
    private static func threeFeeds(days: Int, postsPerDay: Int) async throws -> [String] {
        let start = Date(timeIntervalSince1970: 1_795_338_000)
        let x = SimulatedX(start: start, postsPerDay: 400)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("kfeed-economy-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        let budget = Budget(postsPerDay: postsPerDay)
        let refresh = try FeedsRefresh.testing(
            ["kpop", "pets", "frame"],
            in: root,
            transport: x,
            budget: budget,
            maxTries: XClient.Configuration().maxTries
        )
        let feeds = refresh.feeds
        var uncovered: [String: Int] = [:]
        var failures = 0
        var now = start
        while now < start.addingTimeInterval(Double(days) * 86_400) {
            x.now = now
            for (_, result) in try await refresh.refresh(now: now) {
                if case .failed = result { failures += 1 }
            }
            for feed in feeds where try feed.refresher.store.manifest()?.currentEntryIndex(at: now) == nil {
                uncovered[feed.name, default: 0] += 1
            }
            now.addTimeInterval(900)
        }
        let spent = x.days
        print(
            "three feeds, \(postsPerDay) posts a day for all (400 new posts/day each, cron every 15 min, \(days) days)"
        )
        print(
            "  "
                + spent.enumerated().map { day, cost in
                    "day \(day): \(cost.postsBilled) posts (\(cost.postsLookedUp) looked up), \(cost.requests) "
                        + "searches + \(cost.lookups) lookups, "
                        + String(format: "$%.2f", budget.cost(posts: cost.postsBilled, users: cost.usersRead))
                }.joined(separator: " | ")
        )
        let ledger = refresh.ledger()
        let perFeed = feeds.map { "\($0.name) \(ledger.feeds[$0.name]?.values.reduce(0, +) ?? 0)" }
        print(
            "  posts per feed over the run: \(perFeed.joined(separator: ", ")); failed runs \(failures); quarter hours "
                + "without an entry for the hour: \(feeds.map { "\($0.name) \(uncovered[$0.name] ?? 0)" }.joined(separator: ", "))"
        )
        var missed: [String] = []
        for (day, cost) in spent.enumerated() where cost.postsBilled > postsPerDay {
            missed.append("three feeds: \(cost.postsBilled) posts on day \(day), over \(postsPerDay)")
        }
        if uncovered.values.contains(where: { $0 > 0 }) { missed.append("three feeds: a screen without a picture") }
        if failures > 0 { missed.append("three feeds: \(failures) failed runs") }
        return missed
    }
}

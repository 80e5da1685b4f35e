import Foundation
import KFeed
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
    }

    static func run(_ arguments: [String]) async throws {
        let hours = arguments.first.flatMap(Int.init) ?? 48
        let scenarios = [
            Scenario(name: "busy", postsPerDay: 400),
            Scenario(name: "quiet", postsPerDay: 12),
            Scenario(name: "busy, no memory", postsPerDay: 400, noRepeatDays: 0),
            Scenario(name: "failing (503)", postsPerDay: 400, failing: true),
        ]
        print("kfeed refresh from cron every 15 min for \(hours) h, 24 entries, simulated X (posts read = distinct")
        print("posts returned per UTC day, what X bills); start 2026-11-22T09:00:00Z")
        print("")
        var missed: [String] = []
        for scenario in scenarios {
            let result = try await run(scenario, hours: hours)
            let days = result.days
            if result.notDueRequests > 0 { missed.append("\(scenario.name): requests when not due") }
            if result.repeats > 0 { missed.append("\(scenario.name): \(result.repeats) repeated entries") }
            if scenario.failing {
                if days.contains(where: { $0.requests > 12 }) { missed.append("failing: over 12 requests a day") }
            } else if days.contains(where: { $0.postsRead > 30 || $0.requests > 2 }) && scenario.noRepeatDays > 0 {
                missed.append("\(scenario.name): over 30 posts or 2 requests a day")
            }
        }
        print("")
        print(
            "goals (≤ 30 posts and ≤ 2 requests a healthy day, 0 when not due, ≤ 12 a failing day, no repeats): "
                + (missed.isEmpty ? "met" : "missed: " + missed.joined(separator: "; "))
        )
        if !missed.isEmpty { exit(1) }
    }

    private struct Result {
        var days: [SimulatedX.Day]
        var notDueRequests: Int
        var repeats: Int
    }

    private static func run(_ scenario: Scenario, hours: Int) async throws -> Result {
        let start = Date(timeIntervalSince1970: 1_795_338_000)
        let x = SimulatedX(start: start, postsPerDay: scenario.postsPerDay)
        x.isFailing = scenario.failing
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kfeed-economy-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let refresher = Refresher(
            store: CacheStore(directory: directory),
            plan: .init(
                query: .default,
                builder: TimelineBuilder(entryCount: 24),
                size: .small,
                noRepeatWindow: TimeInterval(scenario.noRepeatDays) * 86_400
            )
        ) {
            Refresher.Connection(
                client: XClient(configuration: .init(), transport: x, sleep: { _ in }),
                images: ImageFetcher(transport: x)
            )
        }
        var refreshes = 0
        var failures = 0
        var notDue = 0
        var notDueRequests = 0
        var entries = 0
        var repeats = 0
        var shown: Set<String> = []
        var shownPictures: Set<Int> = []
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
                    // What this timeline shows before the next one replaces it (its last entry begins then).
                    let reload = manifest.reloadAfter ?? end
                    for entry in manifest.entries where entry.date < reload && entry.date < end {
                        entries += 1
                        let picture = SimulatedX.post(ofID: entry.media.key).map(SimulatedX.picture(ofPost:))
                        if !shown.insert(entry.tweetID).inserted || !shownPictures.insert(picture ?? -1).inserted {
                            repeats += 1
                        }
                    }
                case .noUsablePost:
                    failures += 1
                }
            } catch {
                failures += 1
            }
            now.addTimeInterval(900)
        }
        let days = x.days
        let perDay = days.enumerated().map {
            "day \($0.offset): \($0.element.requests) req, \($0.element.postsRead) posts"
        }
        print("\(scenario.name) (\(scenario.postsPerDay) new posts/day)")
        print("  " + perDay.joined(separator: " | "))
        print(
            "  refreshes \(refreshes), failed runs \(failures), not due \(notDue) (requests when not due: "
                + "\(notDueRequests)), entries shown \(entries), repeated \(repeats)"
        )
        return Result(days: days, notDueRequests: notDueRequests, repeats: repeats)
    }
}

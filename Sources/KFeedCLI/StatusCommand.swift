import ArgumentParser
import Foundation
import KFeed
import KFeedBase

/// `kfeed status`: per feed of the feeds file, the last refresh, the next due, the posts read today and this month;
/// the budget left and the month's projected cost. Reads the cache alone: no token, no request.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Print each feed's last refresh, next due, posts read and the budget left (--json for scripts).",
        discussion: """
            Without a feeds file, the one feed of the flags and environment, named default (its ledger, \
            DIR/ledger.json, counts what X billed since this version). A feed is due when its settings differ from \
            its timeline's: give status the flags the refresh is given.
            """
    )

    @OptionGroup var selection: FeedSelection
    @OptionGroup var cache: CacheLocation
    // A feed is due when its settings changed: status compares them as refresh would.
    @OptionGroup var search: SearchOptions
    @OptionGroup var timeline: TimelineOptions
    @OptionGroup var clock: ClockOption

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    func run() async throws {
        let feeds = try Invocation(
            selection: selection,
            cache: cache,
            clock: clock,
            search: search,
            timeline: timeline
        ).feeds()
        let status = FeedsStatus(of: feeds.refresh(named: selection.names), at: feeds.now)
        if json {
            FileHandle.standardOutput.write(try status.jsonData() + Data("\n".utf8))
        } else {
            print(Self.table(status), terminator: "")
        }
    }

    /// The status as aligned columns, then the budget's line.
    static func table(_ status: FeedsStatus) -> String {
        let instant = { (date: Date?) in date.map(InstantFormat.string) ?? "-" }
        var rows = [["feed", "last refresh", "next due", "posts today", "this month", "note"]]
        for feed in status.feeds {
            let note =
                feed.quietUntilLocal.map { "quiet until \($0)" }
                ?? feed.lastError.map { "failed: \($0)" }
                ?? feed.budgetSpentUntil.map { "budget spent until \(InstantFormat.string(from: $0))" } ?? ""
            rows.append([
                feed.name, instant(feed.lastRefresh), feed.isDue ? "now" : instant(feed.nextDue),
                "\(feed.postsToday)", "\(feed.postsThisMonth)", note,
            ])
        }
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        var text =
            rows.map { row in
                zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                    .trimmingCharacters(in: .whitespaces)
            }.joined(separator: "\n") + "\n"
        let budget = status.budget
        let money = { (amount: Double) in String(format: "$%.2f", amount) }
        var caps: [String] = []
        if let posts = budget.postsPerDay { caps.append("\(posts) posts a day") }
        if let usd = budget.usdPerMonth { caps.append("\(money(usd)) a month") }
        text += "\nbudget: \(caps.isEmpty ? "none" : caps.joined(separator: ", "))"
        if let left = budget.postsLeftToday { text += "; \(left) posts left today" }
        text +=
            "\nread: \(budget.postsToday) posts today, \(budget.postsThisMonth) this month (\(money(budget.monthCostUSD)) "
        text +=
            "at \(String(format: "$%.4g", budget.usdPerPost)) a post; projected \(money(budget.projectedMonthCostUSD)) for the month)\n"
        if let paused = budget.pausedUntil {
            text += "X asked to wait: no feed asks before \(InstantFormat.string(from: paused))\n"
        }
        return text
    }
}

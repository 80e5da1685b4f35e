import ArgumentParser
import Foundation
import KFeed
import KFeedBase
import KFeedServe

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
        let devices = DeviceLogBook.read(from: feeds.root)
        if json {
            FileHandle.standardOutput.write(try Self.json(status, devices: devices) + Data("\n".utf8))
        } else {
            print(Self.table(status) + Self.deviceLines(devices), terminator: "")
        }
    }

    /// The status's JSON with `devices`: what `kfeed serve` keeps of each TRMNL device (`DIR/trmnl-devices.json`).
    static func json(_ status: FeedsStatus, devices: [DeviceLogBook.Record]) throws -> Data {
        let data = try status.jsonData()
        guard !devices.isEmpty, var object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            return data
        }
        object["devices"] = try JSONSerialization.jsonObject(with: InstantFormat.jsonEncoder().encode(devices))
        return try JSONSerialization.data(
            withJSONObject: object,
            options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        )
    }

    /// The TRMNL devices `kfeed serve` saw, the most recent first: one line each (when, what it is, what it was
    /// shown), then its last log messages (at most three, the newest last).
    static func deviceLines(_ devices: [DeviceLogBook.Record]) -> String {
        guard !devices.isEmpty else { return "" }
        var text = "\nTRMNL devices:\n"
        for device in devices {
            var parts = [device.id, "seen \(InstantFormat.string(from: device.lastSeen))"]
            if let model = device.model { parts.append("model \(model)") }
            if let width = device.width, let height = device.height { parts.append("\(width)x\(height)") }
            if let firmware = device.firmware { parts.append("firmware \(firmware)") }
            if let battery = device.battery { parts.append("battery \(battery) V") }
            if let signal = device.signal { parts.append("RSSI \(signal)") }
            if let profile = device.profile { parts.append("shown \(profile)") }
            text += parts.joined(separator: "  ") + "\n"
            for entry in device.logs.suffix(3) {
                text += "  log \(InstantFormat.string(from: entry.received)): \(entry.message)\n"
            }
        }
        return text
    }

    /// The status as aligned columns, then the budget's line.
    static func table(_ status: FeedsStatus) -> String {
        let instant = { (date: Date?) in date.map(InstantFormat.string) ?? "-" }
        var rows = [["feed", "last refresh", "next due", "posts today", "this month", "note"]]
        for feed in status.feeds {
            let note =
                feed.lastError.map { "failed: \($0)" }
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

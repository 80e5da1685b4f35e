import ArgumentParser
import Foundation
import KFeed
import KFeedBase
import KFeedHTTP
import KFeedServe

/// `kfeed status`: per feed of the feeds file, the last refresh, the next due, the posts read today and this month;
/// the budget left and the month's cost (posts and users); and, when a token is there, X's own count of the posts
/// read (`GET /2/usage/tweets`) beside the ledger's, a difference flagged. Without a token, with `--replay`, or when
/// X does not answer, one line says so and the command still exits 0.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Print each feed's last refresh, next due, posts read and the budget left (--json for scripts).",
        discussion: """
            Without a feeds file, the one feed of the flags and environment, named default (its ledger, \
            DIR/ledger.json, counts what X billed since this version). A feed is due when its settings differ from \
            its timeline's: give status the flags the refresh is given. With a token (X_BEARER_TOKEN or \
            --token-file), X's count of the posts read (GET /2/usage/tweets, one request, not billed as a read) is \
            printed beside the ledger's.
            """
    )

    @OptionGroup var selection: FeedSelection
    @OptionGroup var cache: CacheLocation
    // A feed is due when its settings changed: status compares them as refresh would.
    @OptionGroup var search: SearchOptions
    @OptionGroup var timeline: TimelineOptions
    @OptionGroup var clock: ClockOption
    @OptionGroup var source: SourceOptions

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    func run() async throws {
        let feeds = try Invocation(
            selection: selection,
            cache: cache,
            clock: clock,
            source: source,
            search: search,
            timeline: timeline
        ).feeds()
        let refresh = feeds.refresh(named: selection.names)
        var status = FeedsStatus(of: refresh, at: feeds.now)
        let (report, note) = await Self.usage(feeds)
        status.reconcile(with: report, ledger: refresh.ledger(), note: note)
        let devices = DeviceLogBook.read(from: feeds.root)
        if json {
            FileHandle.standardOutput.write(try Self.json(status, devices: devices) + Data("\n".utf8))
        } else {
            print(Self.table(status) + Self.deviceLines(devices), terminator: "")
        }
    }

    /// X's count of the project's posts read this month (and the days before, up to 31), or why there is none.
    static func usage(_ feeds: Feeds) async -> (UsageReport?, String?) {
        guard feeds.replay == nil else { return (nil, "not asked: --replay stands for X") }
        guard
            let token = try? TokenSource.token(
                tokenFile: feeds.tokenFile,
                environment: feeds.environment,
                warn: { _ in }
            )
        else { return (nil, "not asked: no token (X_BEARER_TOKEN or --token-file)") }
        do {
            let configuration = XClient.Configuration(
                baseURL: feeds.apiBase,
                bearerToken: token,
                maxTries: 1,
                requestTimeout: .seconds(15)
            )
            let client = XClient(configuration: configuration, transport: try CurlTransport(), logger: feeds.logger)
            let day = Ledger.utc.component(.day, from: feeds.now)
            return (try await client.usage(days: day), nil)
        } catch let error as KFeedError {
            return (nil, "X did not answer (\(error.message))")
        } catch {
            return (nil, "X did not answer (\(error))")
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
            "\nread: \(budget.postsToday) posts today (\(budget.lookupsToday) looked up), \(budget.usersToday) users; "
            + "this month \(budget.postsThisMonth) posts (\(budget.lookupsThisMonth) looked up), "
            + "\(budget.usersThisMonth) users: \(money(budget.monthCostUSD)) at "
            + "\(String(format: "$%.4g", budget.usdPerPost)) a post and \(String(format: "$%.4g", budget.usdPerUser)) a user; "
            + "projected \(money(budget.projectedMonthCostUSD)) for the month\n"
        if let count = status.xCount {
            if let today = count.postsToday, let month = count.postsThisMonth {
                text +=
                    "X's count: \(today) posts today, \(month) this month; the ledger's: \(count.ledgerToday) today, "
                    + "\(count.ledgerThisMonth) this month"
                text +=
                    count.differs
                    ? " — DIFFERS on \(count.differingDays.joined(separator: ", ")) (\(count.note ?? ""))\n"
                    : " — matches\n"
            } else {
                text += "X's count: \(count.note ?? "not asked")\n"
            }
        }
        if let paused = budget.pausedUntil {
            text += "X asked to wait: no feed asks before \(InstantFormat.string(from: paused))\n"
        }
        return text
    }
}

import ArgumentParser
import Foundation
import KFeed

/// `kfeed refresh`: the cron job. Quiet on success; one line on stderr and the contract's exit code on failure.
struct RefreshCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh",
        abstract: "Update the cache when due (the cron job); --force ignores due-ness and back-off.",
        discussion: """
            Not due: exits 0 at once without any request. Details of every run go to DIR/kfeed.log.
            """
    )

    @OptionGroup var options: RefreshingOptions

    @Flag(help: "Refresh now, ignoring the reload date and any back-off.")
    var force = false

    func run() async throws {
        let feeds = try options.invocation.feeds()
        try await refresh(feeds)
    }

    /// Every due feed (or those `--feed` names) under the budget: one line per feed with `-v`, one line when the
    /// budget is spent, and the worst feed's error (its exit code) when any failed.
    private func refresh(_ feeds: Feeds) async throws {
        let now = feeds.now
        let results = try await feeds.refresh(named: options.selection.names).refresh(now: now, force: force)
        var failures: [(name: String, error: KFeedError)] = []
        var spentUntil: Date?
        for (name, result) in results {
            switch result {
            case .done(let outcome):
                if case .notDue = outcome {
                } else if let until = try feeds.member(named: name).store.state()?.budgetSpentUntil, until > now {
                    spentUntil = until
                }
                if feeds.verbosity == .verbose {
                    let settings = try feeds.member(named: name).settings
                    if case .notDue = outcome,
                        let end = settings.quietHours?.end(ofQuietAt: now, in: settings.timeZone)
                    {
                        Console.info(
                            feeds.about(name, "quiet until \(QuietHours.clockTime(end, in: settings.timeZone))")
                        )
                    } else {
                        Self.report(outcome, feed: feeds.isFromFile ? name : nil)
                    }
                }
            case .paused(let until, let reason):
                if feeds.verbosity == .verbose {
                    Console.info(feeds.about(name, "not asked until \(InstantFormat.string(from: until)) (\(reason))"))
                }
            case .failed(let error):
                failures.append((name, error))
            }
        }
        if let spentUntil, feeds.verbosity != .quiet {
            Console.info(
                "budget spent until \(InstantFormat.string(from: spentUntil)): feeds read what it allowed and keep their pictures"
            )
        }
        guard let worst = failures.max(by: { $0.error.code.exitCode < $1.error.code.exitCode }) else { return }
        for failure in failures where failure.name != worst.name {
            Console.error("feed \(failure.name): \(failure.error.message)")
        }
        guard feeds.isFromFile else { throw worst.error }
        throw KFeedError(worst.error.code, "feed \(worst.name): \(worst.error.message)")
    }

    /// The `-v` line for one refresh's outcome.
    private static func report(_ outcome: Refresher.Outcome, feed: String? = nil) {
        let prefix = feed.map { "\($0): " } ?? ""
        switch outcome {
        case .notDue(let until):
            Console.info("\(prefix)not due until \(until.map(InstantFormat.string) ?? "--force")")
        case .refreshed(let manifest, let summary):
            Console.info(prefix + Console.refreshed(manifest, summary))
        case .noUsablePost(let retry):
            Console.info(
                "\(prefix)no usable post; kept the last timeline; retry after \(retry.map(InstantFormat.string) ?? "-")"
            )
        }
    }
}

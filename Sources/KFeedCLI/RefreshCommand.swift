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

    @OptionGroup var options: GlobalOptions

    @Flag(help: "Refresh now, ignoring the reload date and any back-off.")
    var force = false

    func run() async throws {
        let feed = try options.feed()
        let settings = feed.settings
        let outcome = try await feed.refresher().refresh(now: settings.now, force: force)
        guard settings.verbosity == .verbose else { return }
        switch outcome {
        case .notDue(let until):
            Console.info("not due until \(until.map(InstantFormat.string) ?? "--force")")
        case .refreshed(let manifest, let summary):
            Console.info(
                "refreshed \(manifest.entries.count) entries: \(summary.fetched) images fetched, "
                    + "\(summary.reused) reused, \(summary.placeholders) placeholders"
            )
        case .noUsablePost(let retry):
            Console.info(
                "no usable post; kept the last timeline; retry after \(retry.map(InstantFormat.string) ?? "-")"
            )
        }
    }
}

import ArgumentParser
import Foundation
import KFeed
import KFeedBase

/// `kfeed timeline`: prints the hourly schedule from the cache, refreshing first when there is none yet.
struct TimelineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline",
        abstract: "Print the hourly schedule from the cache (--json: the manifest).",
        discussion: """
            With no timeline in the cache yet, or with --refresh, refreshes first (and says so on stderr). \
            With --replay, the recorded responses are the source: it always refreshes, into a cache directory \
            of its own unless --cache is given.
            """
    )

    @OptionGroup var options: GlobalOptions

    @Flag(help: "Print the manifest (timeline.json) instead of the table.")
    var json = false

    @Flag(help: "Refresh before printing, even when the cache has a timeline.")
    var refresh = false

    func run() async throws {
        let target = try options.target()
        let feed = try target.feed(named: options.feedNames.first)
        let settings = feed.settings
        var manifest = try feed.store.manifest()
        if manifest == nil || refresh || settings.replay != nil {
            if manifest == nil && settings.replay == nil && settings.verbosity != .quiet {
                Console.info("no timeline in \(feed.cacheDirectory.path) yet; refreshing first")
            }
            // Through the feeds' refresh with a feeds file, so that what it reads counts against the budget.
            let outcome =
                switch target {
                case .feeds(let feeds): try await feeds.refreshOne(named: options.feedNames.first, force: true)
                case .one: try await feed.refresher().refresh(now: settings.now, force: true)
                }
            if case .refreshed(let committed, _) = outcome {
                manifest = committed
            } else {
                manifest = try feed.store.manifest()  // no usable post: the last good timeline, or an empty one
            }
        }
        guard let manifest else {
            throw KFeedError(.cacheUnwritable, "no timeline could be written to \(feed.cacheDirectory.path)")
        }
        if json {
            FileHandle.standardOutput.write(try manifest.jsonData())
            print()
        } else {
            for line in ScheduleText.systemLocal(now: settings.now).lines(for: manifest) { print(line) }
        }
    }
}

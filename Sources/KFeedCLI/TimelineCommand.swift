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

    @OptionGroup var options: RefreshingOptions

    @Flag(help: "Print the manifest (timeline.json) instead of the table.")
    var json = false

    @Flag(help: "Refresh before printing, even when the cache has a timeline.")
    var refresh = false

    func run() async throws {
        let feeds = try options.invocation.feeds()
        let feed = try feeds.member(named: options.selection.names.first)
        var manifest = try feed.store.manifest()
        if manifest == nil || refresh || feeds.replay != nil {
            if manifest == nil && feeds.replay == nil && feeds.verbosity != .quiet {
                Console.info("no timeline in \(feed.directory.path) yet; refreshing first")
            }
            // Through the feeds' refresh, so that what it reads counts against the budget.
            if case .refreshed(let committed, _) = try await feeds.refreshOne(feed, force: true) {
                manifest = committed
            } else {
                manifest = try feed.store.manifest()  // no usable post: the last good timeline, or an empty one
            }
        }
        guard let manifest else {
            throw KFeedError(.cacheUnwritable, "no timeline could be written to \(feed.directory.path)")
        }
        if json {
            FileHandle.standardOutput.write(try manifest.jsonData())
            print()
        } else {
            for line in ScheduleText.systemLocal(now: feeds.now).lines(for: manifest) { print(line) }
        }
    }
}

import ArgumentParser
import Foundation
import KFeed

/// `kfeed preview`: writes `DIR/preview.html`, the timeline as widget-sized cards, and prints its path.
struct PreviewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Write DIR/preview.html, the timeline as widget-sized cards, and print its path.",
        discussion: """
            The page works offline from the cache directory alone and shows times in the local zone. \
            Exits 69 when the cache holds no timeline yet.
            """
    )

    @OptionGroup var selection: FeedSelection
    @OptionGroup var cache: CacheLocation
    @OptionGroup var clock: ClockOption

    func run() async throws {
        let feeds = try Invocation(selection: selection, cache: cache, clock: clock).feeds()
        let feed = try feeds.member(named: selection.names.first)
        let page = PreviewPage(manifest: try feed.committedManifest(), now: feeds.now, timeZone: .current)
        print(try page.write(to: feed.store).path)
    }
}

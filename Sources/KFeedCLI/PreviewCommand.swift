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

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let environment = try SettingsEnvironment.load()
        let settings = try options.settings(environment: environment)
        let reader = Feed(settings: settings, environment: environment).reader()
        guard let manifest = try reader.manifest() else {
            throw KFeedError(.noEntry, "no timeline in \(reader.directory.path) yet: run kfeed refresh")
        }
        let page = PreviewPage(manifest: manifest, now: settings.now, timeZone: .current)
        print(try reader.writePreview(page).path)
    }
}

import ArgumentParser
import Foundation
import KFeed

/// `kfeed current`: the entry whose hour covers now, as JSON with absolute paths (WidgetKit's snapshot).
struct CurrentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "current",
        abstract: "Print the entry that covers now as JSON with absolute paths (--field: one value).",
        discussion: "Exits 69 with a message when no entry covers the time (for example a stale timeline)."
    )

    enum Field: String, ExpressibleByArgument, CaseIterable {
        case image, avatar, text, url, username, date
    }

    @OptionGroup var options: GlobalOptions

    @Option(
        help: ArgumentHelp(
            "Print only this field: \(Field.allCases.map(\.rawValue).joined(separator: ", ")).",
            valueName: "name"
        )
    )
    var field: Field?

    func run() async throws {
        let feed = try options.feed()
        let settings = feed.settings
        let store = feed.store
        let manifest = try feed.committedManifest()
        guard let index = manifest.currentEntryIndex(at: settings.now) else {
            throw KFeedError(
                .noEntry,
                "no entry covers \(InstantFormat.string(from: settings.now)): the timeline runs "
                    + "\(manifest.entries.first.map { InstantFormat.string(from: $0.date) } ?? "-") to "
                    + "\(manifest.entries.last.map { InstantFormat.string(from: $0.date.addingTimeInterval(manifest.interval.seconds)) } ?? "-"); run kfeed refresh"
            )
        }
        var entry = manifest.entries[index]
        entry.image = entry.image.map(store.absolutePath)
        entry.author.avatar = entry.author.avatar.map(store.absolutePath)
        switch field {
        case .none:
            FileHandle.standardOutput.write(try InstantFormat.jsonEncoder().encode(entry))
            print()
        case .image: print(entry.image ?? "")
        case .avatar: print(entry.author.avatar ?? "")
        case .text: print(entry.text)
        case .url: print(entry.url.absoluteString)
        case .username: print(entry.author.username)
        case .date: print(InstantFormat.string(from: entry.date))
        }
    }
}

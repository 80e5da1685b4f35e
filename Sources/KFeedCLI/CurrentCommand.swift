import ArgumentParser
import Foundation
import KFeed
import KFeedBase

/// `kfeed current`: the entry whose hour covers now, as JSON with absolute paths (WidgetKit's snapshot).
struct CurrentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "current",
        abstract: "Print the entry that covers now as JSON with absolute paths (--field: one value).",
        discussion: """
            Exits 69 with a message when no entry covers the time (for example a stale timeline); with --or-last it \
            prints the timeline's last entry whose hour has passed instead, with "stale": true, as kfeed serve does.
            """
    )

    enum Field: ExpressibleByArgument, Equatable {
        case image, avatar, text, url, username, date
        /// `render.P`: the entry's display render for profile P.
        case render(String)

        static let names = ["image", "avatar", "text", "url", "username", "date", "render.P"]

        init?(argument: String) {
            switch argument {
            case "image": self = .image
            case "avatar": self = .avatar
            case "text": self = .text
            case "url": self = .url
            case "username": self = .username
            case "date": self = .date
            default:
                guard argument.hasPrefix("render."), argument.count > "render.".count else { return nil }
                self = .render(String(argument.dropFirst("render.".count)))
            }
        }
    }

    @OptionGroup var selection: FeedSelection
    @OptionGroup var cache: CacheLocation
    @OptionGroup var clock: ClockOption

    @Option(
        help: ArgumentHelp(
            "Print only this field: \(Field.names.joined(separator: ", ")) (P a --profile of the refresh).",
            valueName: "name"
        )
    )
    var field: Field?

    @Flag(
        name: .customLong("or-last"),
        help: "When no entry covers now, print the last one whose hour has passed (marked \"stale\": true), exit 0."
    )
    var orLast = false

    func run() async throws {
        let feeds = try Invocation(selection: selection, cache: cache, clock: clock).feeds()
        let now = feeds.now
        let feed = try feeds.member(named: selection.names.first)
        let store = feed.store
        let manifest = try feed.committedManifest()
        var isStale = false
        var index = manifest.currentEntryIndex(at: now)
        if index == nil, orLast, let last = manifest.lastEntryIndex(at: now) {
            index = last
            isStale = true
        }
        guard let index else {
            throw KFeedError(
                .noEntry,
                "no entry covers \(InstantFormat.string(from: now)): the timeline runs "
                    + "\(manifest.entries.first.map { InstantFormat.string(from: $0.date) } ?? "-") to "
                    + "\(manifest.entries.last.map { InstantFormat.string(from: $0.date.addingTimeInterval(manifest.interval.seconds)) } ?? "-"); run kfeed refresh (or add --or-last)"
            )
        }
        var entry = manifest.entries[index]
        entry.image = entry.image.map(store.absolutePath)
        entry.author.avatar = entry.author.avatar.map(store.absolutePath)
        entry.renders = entry.renders?.mapValues(store.absolutePath)
        switch field {
        case .none:
            FileHandle.standardOutput.write(
                try InstantFormat.jsonEncoder().encode(Printed(entry: entry, isStale: isStale))
            )
            print()
        case .image: print(entry.image ?? "")
        case .avatar: print(entry.author.avatar ?? "")
        case .text: print(entry.text)
        case .url: print(entry.url.absoluteString)
        case .username: print(entry.author.username)
        case .date: print(InstantFormat.string(from: entry.date))
        case .render(let profile):
            guard let path = entry.renders?[profile] else {
                let made = (entry.renders ?? [:]).keys.sorted().joined(separator: ", ")
                throw KFeedError(
                    .noEntry,
                    "the entry has no render for profile \(profile) (\(made.isEmpty ? "none made" : "made: \(made)")); "
                        + "run kfeed refresh --profile \(profile)"
                )
            }
            print(path)
        }
    }

    /// The entry as printed: the manifest's keys, plus `"stale": true` when it no longer covers now (`--or-last`).
    struct Printed: Encodable {
        var entry: Manifest.Entry
        var isStale: Bool

        private enum CodingKeys: String, CodingKey {
            case isStale = "stale"
        }

        func encode(to encoder: any Encoder) throws {
            try entry.encode(to: encoder)
            guard isStale else { return }
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(true, forKey: .isStale)
        }
    }
}

import ArgumentParser
import Foundation
import KFeed
import KFeedBase

/// `kfeed hide` and `kfeed unhide`: the owner's say over what a feed shows. A hidden post or account leaves the
/// current timeline at once and is never shown again; the decision lives in each feed's cache directory
/// (`hidden.json`), across refreshes. Needs no token and sends nothing.
struct HideCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hide",
        abstract: "Never show a post or an account again (without one: list what is hidden).",
        discussion: """
            Give a post id, its URL (https://x.com/USER/status/ID) or @username, several at once. The post leaves \
            the current timeline at once (the screen moves to the next picture) and no refresh shows it again. With \
            a feeds file, every feed unless --feed names some.
            """
    )

    @OptionGroup var arguments: HidingArguments

    func run() async throws { try arguments.change(hiding: true) }
}

/// `kfeed unhide`: lets a hidden post or account be shown again by later refreshes.
struct UnhideCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unhide",
        abstract: "Let a hidden post or account be shown again by later refreshes.",
        discussion:
            "Give what `kfeed hide` was given. The current timeline is not changed: the next refresh may use it."
    )

    @OptionGroup var arguments: HidingArguments

    func run() async throws { try arguments.change(hiding: false) }
}

/// What `hide` and `unhide` take: the posts and accounts, and which feeds' caches.
struct HidingArguments: ParsableArguments {
    @OptionGroup var selection: FeedSelection
    @OptionGroup var cache: CacheLocation
    @OptionGroup var clock: ClockOption

    @Argument(help: ArgumentHelp("A post id, a post's URL, or @username.", valueName: "post|url|@user"))
    var targets: [String] = []

    func validate() throws {
        for target in targets {
            do { _ = try HideTarget(parsing: target) } catch { throw ValidationError(error.message) }
        }
    }

    /// Hides (or unhides) the targets in every feed selected and says what changed, or lists what is hidden when no
    /// target is given.
    func change(hiding: Bool) throws {
        let feeds = try Invocation(selection: selection, cache: cache, clock: clock).feeds()
        let targets = try self.targets.map { try HideTarget(parsing: $0) }
        for member in feeds.members(named: selection.names) {
            let store = member.store
            guard !targets.isEmpty else {
                let hidden = try store.hidden()
                let names =
                    hidden.postIDs.sorted().map { "post \($0)" } + hidden.usernames.sorted().map { "@\($0)" }
                print(feeds.about(member.name, names.isEmpty ? "nothing hidden" : names.joined(separator: ", ")))
                continue
            }
            var changed: [HideTarget] = []
            let result = try store.changeHidden(now: feeds.now) { hidden in
                for target in targets where hiding ? hidden.insert(target) : hidden.remove(target) {
                    changed.append(target)
                }
            }
            let verb = hiding ? "hidden" : "shown again"
            var message =
                changed.isEmpty
                ? "nothing changed (\(hiding ? "already hidden" : "not hidden"))"
                : "\(changed.map(\.description).joined(separator: ", ")) \(verb)"
            if !result.removed.isEmpty {
                let count = result.removed.count
                message += "; \(count) \(count == 1 ? "entry" : "entries") left the timeline"
            }
            Console.info(feeds.about(member.name, message))
        }
    }
}

package import Foundation
import KFeedBase

extension CacheStore {
    /// The hidden posts' and accounts' name (`kfeed hide`).
    package static let hiddenName = "hidden.json"

    /// What the owner hid; empty when nothing is.
    /// - Throws: `KFeedError` `.apiResponse` when `hidden.json` is not kfeed's (a refresh then keeps the last
    ///   timeline rather than show what may be hidden).
    package func hidden() throws -> Hidden {
        guard let data = files.read(Self.hiddenName) else { return Hidden() }
        do {
            return try JSONDecoder().decode(Hidden.self, from: data)
        } catch {
            throw KFeedError(
                .apiResponse,
                "\(files.path(Self.hiddenName)) is not kfeed's list of hidden posts; fix it or remove it",
                underlying: error
            )
        }
    }

    /// Changes what is hidden and takes every entry it now hides out of the current timeline at once (the screen
    /// moves to the next picture), under the refresh lock so that no refresh in progress commits over it.
    /// - Parameters:
    ///   - now: the instant of the change.
    ///   - change: edits the hidden posts and accounts.
    /// - Returns: what is hidden now, and the entries taken out of the timeline.
    /// - Throws: `KFeedError` `.lockHeld` while a refresh runs, `.cacheUnwritable`/`.io` when writing fails,
    ///   `.apiResponse` for an unreadable `hidden.json` or timeline.
    package func changeHidden(
        now: Date,
        _ change: (inout Hidden) -> Void
    ) throws -> (hidden: Hidden, removed: [Manifest.Entry]) {
        try prepare()
        let lock = try lock()
        defer { withExtendedLifetime(lock) {} }
        var hidden = try hidden()
        change(&hidden)
        try files.write(try JSONEncoder().encode(hidden), to: Self.hiddenName)
        guard let manifest = try manifest(),
            let changed = manifest.removing(now: now, reason: "every post was hidden (kfeed hide)", where: hidden.hides)
        else { return (hidden, []) }
        try commit(changed.manifest)
        log("hid \(changed.removed.count) entries (kfeed hide)", at: now)
        return (hidden, changed.removed)
    }
}

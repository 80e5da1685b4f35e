package import Foundation
import KFeedBase

/// The root of a cache that holds several feeds (a feeds file, `docs/feeds.md`), and the one owner of every name at
/// its top, as ``CacheStore`` is of the names inside one feed's directory.
///
/// ```
/// DIR/feeds/NAME/    one feed's directory, laid out as a single feed's cache (CacheStore)
/// DIR/ledger.json    what X billed for all the feeds together (Ledger)
/// DIR/ledger.lock    held by the run that is spending for them (FeedsRefresh)
/// ```
///
/// Nothing is read or created until asked; the ledger is written only under the spending lock.
package struct CacheRoot: Sendable {
    /// The cache root, as given (each feed's ``CacheStore`` is made from ``feedDirectory(named:)``).
    package let directory: URL
    private let files: CacheDirectory

    /// The folder of the feeds' directories.
    package static let feedsName = "feeds"
    /// The ledger's name.
    package static let ledgerName = "ledger.json"
    /// The spending lock's name.
    package static let ledgerLockName = "ledger.lock"

    /// Creates the owner of the root `directory` (nothing is read or created yet).
    package init(directory: URL) {
        self.directory = directory
        self.files = CacheDirectory(url: directory)
    }

    // MARK: - Feeds

    /// The directory of the feed named `name` (`[feeds.NAME]` of the feeds file): `DIR/feeds/NAME/`.
    package func feedDirectory(named name: String) -> URL {
        directory.appendingPathComponent("\(Self.feedsName)/\(name)", isDirectory: true)
    }

    /// The store of the feed named `name`, over ``feedDirectory(named:)``.
    package func store(forFeed name: String) -> CacheStore {
        CacheStore(directory: feedDirectory(named: name))
    }

    // MARK: - The ledger

    /// The ledger as last written (a fresh one when there is none or it cannot be read).
    package func ledger() -> Ledger {
        files.read(Self.ledgerName).flatMap { try? InstantFormat.jsonDecoder().decode(Ledger.self, from: $0) }
            ?? Ledger()
    }

    /// Creates the root if needed and takes the spending lock without waiting; the lock holds while the returned
    /// value lives.
    /// - Throws: `KFeedError` `.lockHeld` when another run is spending, `.cacheUnwritable` for the root.
    func lockSpending() throws -> CacheLock {
        try files.prepare(subdirectories: [])
        return try files.lock(Self.ledgerLockName)
    }

    /// Replaces `ledger.json` atomically; call it holding ``lockSpending()``'s lock.
    /// - Throws: `KFeedError` `.io` or `.cacheUnwritable` when the file cannot be written.
    func write(_ ledger: Ledger) throws {
        try files.write(InstantFormat.jsonEncoder().encode(ledger), to: Self.ledgerName)
    }
}

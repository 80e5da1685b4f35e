import Foundation
import Synchronization

/// The ledger's writes during one run of ``FeedsRefresh``: each as soon as a search's posts are counted, on a serial
/// queue of its own, beside the refresh (a feed's pictures are fetched while its bill is made durable, rather than
/// the bill after its timeline), and once more after each feed only when the ledger changed since the last write.
///
/// Writes happen in the order they are asked for; ``finish(_:)`` waits for those in flight. Call both holding the
/// spending lock (``CacheRoot/lockSpending()``), and ``finish(_:)`` before releasing it.
final class LedgerWrites: Sendable {
    private let cache: CacheRoot
    private let queue = DispatchQueue(label: "kfeed.ledger-writes")
    /// The ledger last written by this run (nil: none yet), and the first write that failed.
    private let state = Mutex<(written: Ledger?, failure: (any Error)?)>((nil, nil))

    /// Writes to `cache`'s `ledger.json`.
    init(_ cache: CacheRoot) {
        self.cache = cache
    }

    /// Writes `ledger` soon, on the queue, and returns at once (a failure is thrown by ``finish(_:)``).
    func write(_ ledger: Ledger) {
        queue.async { self.writeNow(ledger) }
    }

    /// Waits for the writes asked for, then writes `ledger` unless it is the one this run wrote last.
    /// - Throws: the first error a write of this run met (`KFeedError` `.io` or `.cacheUnwritable`), as
    ///   ``CacheRoot``'s write throws it.
    func finish(_ ledger: Ledger) throws {
        queue.sync { writeNow(ledger) }
        if let failure = state.withLock({ $0.failure }) { throw failure }
    }

    /// Waits for the writes asked for (a failure is kept for ``finish(_:)``): when a run ends, so that none outlives
    /// the spending lock. (A sweep running beside one passes over its temp file: ``CacheDirectory/isBeingWritten(_:)``.)
    func wait() {
        queue.sync {}
    }

    /// Writes `ledger` unless it is the one written last; runs on the queue.
    private func writeNow(_ ledger: Ledger) {
        guard state.withLock({ $0.written != ledger && $0.failure == nil }) else { return }
        do {
            try cache.write(ledger)
            state.withLock { $0.written = ledger }
        } catch {
            state.withLock { $0.failure = error }
        }
    }
}

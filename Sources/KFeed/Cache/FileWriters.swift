import Foundation
import Synchronization

/// Blocking file work (a file written and fsynced, a directory fsynced) run off Swift's cooperative pool: on that
/// pool (two threads on a 2-core machine) an fsync's wait (0.4 ms typically, a few ms at worst) would hold one of
/// its threads, and with it the downloads finishing and the decodes waiting to start.
enum FileWriters {
    /// Runs `work` on one of ``queues`` in turn and returns once it has run, with its error.
    static func run(_ work: @escaping @Sendable () throws -> Void) async throws {
        let queue = queues[next.add(1, ordering: .relaxed).oldValue % queues.count]
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }

    /// Four serial queues, each a thread of its own (serial queues get threads apart from the pool that runs Swift's
    /// tasks, which a concurrent queue would share), reused from one piece of work to the next rather than started
    /// for each (a refresh writes 56 images); four writes, mostly fsyncs' waits, at once.
    private static let queues = (0..<4).map { DispatchQueue(label: "kfeed.file-writes.\($0)") }
    private static let next = Atomic<Int>(0)
}

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

    /// Starts `work` on one of ``queues`` in turn and returns at once.
    static func start(_ work: @escaping @Sendable () -> Void) {
        queues[next.add(1, ordering: .relaxed).oldValue % queues.count].async(execute: work)
    }

    /// Twelve serial queues, each a thread of its own (serial queues get threads apart from the pool that runs
    /// Swift's tasks, which a concurrent queue would share), reused from one piece of work to the next rather than
    /// started for each (a refresh writes 56 images): twelve writes, mostly fsyncs' waits, at once. fsyncs at once
    /// share the disk's flushes: where a flush takes about 3.5 ms (the shared test machine, 2026-11-27), 56 small
    /// files written and fsynced took about 210 ms one at a time, 32–44 ms four at a time, 16–23 ms eight and
    /// 12–15 ms twelve at a time.
    private static let queues = (0..<12).map { DispatchQueue(label: "kfeed.file-writes.\($0)") }
    private static let next = Atomic<Int>(0)
}

/// Blocking writes started on ``FileWriters``' queues and not awaited one by one: a refresh hands each picture over
/// as soon as it is made and goes on (its identity, the next decode, the pictures' comparisons) while the file is
/// written and fsynced; ``wait()`` returns once every write started has run.
package final class PendingWrites: Sendable {
    private struct State {
        var running = 0
        var failure: (any Error)?
        var waiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Mutex(State())

    /// Creates an empty set of writes.
    package init() {}

    /// Starts `work` on one of ``FileWriters``' queues and returns at once; its error, if any, is kept for
    /// ``failure`` and ``wait()``.
    package func start(_ work: @escaping @Sendable () throws -> Void) {
        state.withLock { $0.running += 1 }
        FileWriters.start {
            let error: (any Error)?
            do {
                try work()
                error = nil
            } catch let caught {
                error = caught
            }
            let waiters = self.state.withLock { state -> [CheckedContinuation<Void, Never>] in
                if state.failure == nil { state.failure = error }
                state.running -= 1
                guard state.running == 0 else { return [] }
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    /// The first error a finished write met, if any (writes still running may meet others).
    package var failure: (any Error)? { state.withLock { $0.failure } }

    /// Waits until every write started so far has run (whatever the task's cancellation: a write under way is never
    /// abandoned), then throws the first error one met.
    package func wait() async throws {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state -> Bool in
                guard state.running > 0 else { return true }
                state.waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
        if let failure { throw failure }
    }
}

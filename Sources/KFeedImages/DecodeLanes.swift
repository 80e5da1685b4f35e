import Foundation
import Synchronization

/// A fixed number of threads for CPU-bound work (a refresh's decodes, then its pictures' comparisons), taking the
/// pieces of work from one queue in the order they are handed over: a thread that finishes one piece starts the next
/// one waiting at once, itself, rather than after the finished piece's task has hopped through Swift's cooperative
/// pool to let the next one in (on a 2-core machine that pool's two threads wait for a core while both decode, and
/// each hop then waits with them).
///
/// The threads start with the first pieces of work, at most ``count``, and end once the lanes are released and
/// their queue is empty.
package final class DecodeLanes: Sendable {
    /// The queue the threads share, and whether they should end once it is empty; `condition` guards both.
    private final class Queue: @unchecked Sendable {
        let condition = NSCondition()
        /// Work handed over; a slot is emptied when its work is taken, so that it holds nothing of it while it runs.
        var items: [(@Sendable () -> Void)?] = []
        var first = 0
        var threads = 0
        var isStopping = false
    }

    /// The most pieces of work that run at once: the number of threads.
    package let count: Int
    private let queue = Queue()

    /// Creates lanes for `count` pieces of work at once (at least one).
    package init(count: Int) {
        self.count = max(1, count)
    }

    deinit {
        let queue = self.queue
        queue.condition.lock()
        queue.isStopping = true
        queue.condition.broadcast()
        queue.condition.unlock()
    }

    /// Runs `work` on one of the lanes' threads, after the work handed over before it has started, and returns its
    /// value.
    package func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            enqueue { continuation.resume(returning: work()) }
        }
    }

    /// Runs `body` for each of `0..<iterations`, taken in order by every lane (each takes the next iteration as it
    /// finishes one, so uneven iterations even out), after the work handed over before has started; returns once
    /// every one has run.
    package func forEach(_ iterations: Int, _ body: @escaping @Sendable (Int) -> Void) async {
        let next = Counter()
        let lane: @Sendable () -> Void = {
            while case let iteration = next.value.add(1, ordering: .relaxed).oldValue, iteration < iterations {
                body(iteration)
            }
        }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<min(count, iterations) { group.addTask { await self.run(lane) } }
        }
    }

    /// The next iteration of ``forEach(_:_:)``, shared by the lanes.
    private final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    /// Hands `item` over: it runs on a lane's thread after the work handed over before it has started.
    func enqueue(_ item: @escaping @Sendable () -> Void) {
        let queue = self.queue
        queue.condition.lock()
        queue.items.append(item)
        let startsThread = queue.threads < count
        if startsThread { queue.threads += 1 }
        queue.condition.signal()
        queue.condition.unlock()
        guard startsThread else { return }
        let thread = Thread { Self.drain(queue) }
        thread.name = "kfeed.decode"
        thread.start()
    }

    /// A thread's life: the next piece of work as soon as there is one, until the lanes are released and the queue
    /// is empty.
    private static func drain(_ queue: Queue) {
        queue.condition.lock()
        while true {
            if queue.first < queue.items.count {
                let item = queue.items[queue.first]
                queue.items[queue.first] = nil
                queue.first += 1
                if queue.first == queue.items.count {
                    queue.items.removeAll(keepingCapacity: true)
                    queue.first = 0
                }
                queue.condition.unlock()
                item?()
                queue.condition.lock()
            } else if queue.isStopping {
                break
            } else {
                queue.condition.wait()
            }
        }
        queue.condition.unlock()
    }
}

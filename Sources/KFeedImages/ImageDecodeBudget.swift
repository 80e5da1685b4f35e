import Foundation

/// A gate for decodes: each decode reserves its share of a capacity before it starts — its estimated working memory
/// against a byte budget, or one slot against a count of decodes at once.
///
/// Baseline JPEGs need about 2 MiB each; a progressive one that libjpeg decodes at full size holds every DCT
/// coefficient (a 4096×4096 4:4:4 photo about 98 MiB), so two of those must not run at once. (At reduced scales
/// progressive JPEGs go to `ProgressiveFirstPassDecoder`, which needs 8–68 bytes a block.) When bytes are released,
/// waiters are admitted in arrival order, skipping any that do not fit yet (so small decodes can run beside a large
/// one); a batch is finite, so a large waiter is admitted once the decodes ahead of it finish. A reservation larger
/// than ``capacity`` is clamped to it: that decode runs alone.
package actor ImageDecodeBudget {
    /// Total bytes that decodes may hold at once.
    package let capacity: Int
    private var reserved = 0
    private var waiters: [(bytes: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Creates a budget of `capacity` bytes (default 96 MiB: with a Swift process's ~25 MiB of code and the
    /// inputs, a batch peaks near 128 MiB).
    package init(capacity: Int = 96 << 20) {
        self.capacity = max(capacity, 1)
    }

    /// Bytes currently reserved.
    package var reservedBytes: Int { reserved }

    /// Waits until `bytes` fit, then reserves them. Pair with ``release(_:)``.
    package func reserve(_ bytes: Int) async {
        let bytes = min(max(bytes, 0), capacity)
        if reserved + bytes <= capacity {
            reserved += bytes
            return
        }
        await withCheckedContinuation { waiters.append((bytes, $0)) }
    }

    /// Returns `bytes` reserved by ``reserve(_:)`` and wakes the waiters that now fit, in order.
    package func release(_ bytes: Int) {
        reserved -= min(max(bytes, 0), capacity)
        var index = 0
        while index < waiters.count {
            let waiter = waiters[index]
            guard reserved + waiter.bytes <= capacity else {
                index += 1
                continue
            }
            waiters.remove(at: index)
            reserved += waiter.bytes
            waiter.continuation.resume()
        }
    }
}

extension ImageDecodeBudget {
    /// Runs `work` while `amount` of the capacity is reserved (bytes of memory, or slots), released when it returns.
    package nonisolated func holding<T: Sendable>(_ amount: Int, _ work: () async -> T) async -> T {
        await reserve(amount)
        let value = await work()
        await release(amount)
        return value
    }

    /// Runs CPU-bound `work` off Swift's cooperative pool (which it would otherwise block) while `bytes` of the budget
    /// are reserved: the one way a decode or a render runs. With `lanes` (a refresh's decodes), on one of their
    /// threads, as soon as one ends the work handed over before. Without, on a thread of Dispatch's: a serial queue
    /// of its own for each piece of work gets one from the pool that serial queues share (not the pool Swift's tasks
    /// run on), idle there after earlier work rather than started for this one.
    package nonisolated func detached<T: Sendable, Failure: Error>(
        reserving bytes: Int,
        on lanes: DecodeLanes? = nil,
        _ work: @escaping @Sendable () -> Result<T, Failure>
    ) async -> Result<T, Failure> {
        await holding(bytes) {
            if let lanes { return await lanes.run(work) }
            return await withCheckedContinuation { continuation in
                DispatchQueue(label: "kfeed.decode").async { continuation.resume(returning: work()) }
            }
        }
    }
}

import Foundation

/// Work a test would otherwise do on Swift's cooperative pool, run on a thread of its own.
///
/// Swift Testing runs every test at once on the cooperative pool, which has one thread per core (two on the test
/// machine). A synchronous test that computes for seconds holds one of them; two such tests hold both, and every
/// other test waits for a thread: one awaiting a loopback server's answer, a process's end or Chromium's reply cannot
/// go on until they finish, and its time limit passes (most likely what failed 37 tests beside two busy loops on
/// 2026-11-27: the photo families' pair check, 15 families of 72 members at about 5 s each, ran then, and the suites
/// that compute ended together after the limits had passed). On its own thread the work shares the cores through the
/// kernel's scheduler instead, and the pool stays free for the tests that wait.
package enum OwnThread {
    /// Runs `work` on a new thread and returns its result, without holding a thread of the pool meanwhile; at most
    /// one such work a core runs at once (the others' threads wait), so that the memory they hold stays bounded.
    /// Expectations belong in the test, on what this returns: the thread is outside the test's task.
    package static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                running.wait()
                let result = work()
                running.signal()
                continuation.resume(returning: result)
            }
        }
    }

    private static let running = DispatchSemaphore(value: ProcessInfo.processInfo.activeProcessorCount)
}

import Foundation
import Synchronization
import Testing

@testable import KFeed

struct FileWritersTests {
    struct WriteFailed: Error, Equatable {}

    /// The calling thread, read outside the async context.
    static func currentThread() -> pthread_t { pthread_self() }

    @Test func blockingWorkRunsOnAThreadOfItsOwnAndItsErrorComesBack() async throws {
        let caller = Self.currentThread()
        let worker = Mutex<pthread_t?>(nil)
        try await FileWriters.run { worker.withLock { $0 = pthread_self() } }
        let ran = try #require(worker.withLock { $0 })
        #expect(pthread_equal(ran, caller) == 0)
        await #expect(throws: WriteFailed()) { try await FileWriters.run { throw WriteFailed() } }
    }
}

struct PendingWritesTests {
    struct WriteFailed: Error, Equatable { var index: Int }

    @Test func waitReturnsOnceEveryWriteStartedHasRun() async throws {
        let writes = PendingWrites()
        let done = Mutex<Set<Int>>([])
        // More writes than writer threads, each a little blocking work.
        for index in 0..<40 {
            writes.start {
                usleep(1_000)
                done.withLock { _ = $0.insert(index) }
            }
        }
        try await writes.wait()
        #expect(done.withLock { $0 } == Set(0..<40))
        #expect(writes.failure == nil)
        // Nothing running: waiting again returns at once.
        try await writes.wait()
    }

    @Test func theFirstErrorIsKeptAndThrownOnceTheOthersHaveRun() async throws {
        let writes = PendingWrites()
        let gate = DispatchSemaphore(value: 0)
        let ran = Mutex(0)
        writes.start { throw WriteFailed(index: 0) }
        // A write still running when the failure is known is waited for.
        writes.start {
            gate.wait()
            ran.withLock { $0 += 1 }
        }
        while writes.failure == nil { await Task.yield() }
        #expect(writes.failure as? WriteFailed == WriteFailed(index: 0))
        gate.signal()
        await #expect(throws: WriteFailed(index: 0)) { try await writes.wait() }
        #expect(ran.withLock { $0 } == 1)
    }
}

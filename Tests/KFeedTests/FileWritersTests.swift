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

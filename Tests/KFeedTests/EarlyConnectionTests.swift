import Foundation
import KFeedBase
import KFeedTestSupport
import Synchronization
import Testing

@testable import KFeed

/// A connection begun ahead of a refresh (``Refresher/beginConnecting()``): made once, taken by the next refresh.
struct EarlyConnectionTests {
    /// How often a connection was asked for.
    final class Calls: Sendable {
        let count = Mutex(0)
        var value: Int { count.withLock { $0 } }
    }

    /// A refresher whose connection never comes (no token), counting how often it is asked for.
    static func refresher(in directory: URL, counting calls: Calls) -> Refresher {
        Refresher(store: CacheStore(directory: directory), settings: FeedSettings()) {
            calls.count.withLock { $0 += 1 }
            throw KFeedError(.configuration, "no token for this test")
        }
    }

    static func refreshError(_ refresher: Refresher) async -> KFeedError? {
        do {
            _ = try await refresher.refresh(now: Date(timeIntervalSince1970: 1_800_000_000), force: true)
            return nil
        } catch {
            return error as? KFeedError
        }
    }

    @Test func aConnectionBegunEarlyIsTheOneTheRefreshTakesAndItsErrorComesFirst() async throws {
        let calls = Calls()
        try await TemporaryDirectory.withAsync { directory in
            let refresher = Self.refresher(in: directory.appendingPathComponent("cache"), counting: calls)
            refresher.beginConnecting()
            refresher.beginConnecting()
            let error = await Self.refreshError(refresher)
            #expect(error?.code == .configuration && error?.message == "no token for this test")
            #expect(calls.value == 1)
            // Taken: the next refresh makes its own.
            _ = await Self.refreshError(refresher)
            #expect(calls.value == 2)
        }
    }

    @Test func aConnectionBegunIsTakenOnceOrDiscarded() {
        let early = EarlyConnection()
        #expect(early.take() == nil)
        early.begin { throw KFeedError(.configuration, "no token for this test") }
        #expect(early.take() != nil)
        #expect(early.take() == nil)
    }

    @Test func thePendingResultIsTheConnectionsOutcome() async {
        for message in ["first", "second"] {
            let pending = EarlyConnection.Pending { throw KFeedError(.configuration, message) }
            switch await pending.result() {
            case .success: Issue.record("no connection can be made here")
            case .failure(let error): #expect((error as? KFeedError)?.message == message)
            }
        }
    }
}

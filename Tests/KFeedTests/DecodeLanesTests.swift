import Foundation
import KFeedTestSupport
import Synchronization
import Testing

@testable import KFeedImages

@Suite(.timeLimit(.minutes(1)))
struct DecodeLanesTests {
    @Test func everyPieceOfWorkRunsOnceAndReturnsItsValue() async {
        let lanes = DecodeLanes(count: 2)
        let values = await withTaskGroup(of: Int.self) { group in
            for index in 0..<200 { group.addTask { await lanes.run { index * 3 } } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(values.sorted() == (0..<200).map { $0 * 3 })
    }

    @Test func noMoreThanCountPiecesRunAtOnce() async {
        let lanes = DecodeLanes(count: 2)
        let running = Shared((now: 0, most: 0))
        await withTaskGroup(of: Int.self) { group in
            for _ in 0..<64 {
                group.addTask {
                    await lanes.run {
                        running.value.withLock {
                            $0.now += 1
                            $0.most = max($0.most, $0.now)
                        }
                        // Some work, so that pieces overlap when more than two run.
                        var sum = 0
                        for value in 0..<20_000 { sum &+= value &* value }
                        running.value.withLock { $0.now -= 1 }
                        return sum
                    }
                }
            }
            await group.waitForAll()
        }
        #expect(running.value.withLock { $0.most } <= 2)
        #expect(running.value.withLock { $0.now } == 0)
    }

    @Test(arguments: [0, 1, 2, 28, 500])
    func forEachRunsEveryIterationOnceOnTheLanes(iterations: Int) async {
        let lanes = DecodeLanes(count: 2)
        let runs = Shared([Int](repeating: 0, count: iterations))
        let threads = Shared<Set<UInt>>([])
        await lanes.forEach(iterations) { iteration in
            runs.value.withLock { $0[iteration] += 1 }
            threads.value.withLock { _ = $0.insert(pthread_self()) }
        }
        #expect(runs.value.withLock { $0 } == [Int](repeating: 1, count: iterations))
        #expect(threads.value.withLock { $0.count } <= 2)
        #expect(threads.value.withLock { $0.isEmpty } == (iterations == 0))
    }

    @Test func oneLaneRunsThePiecesInTheOrderTheyWereHandedOver() {
        let lanes = DecodeLanes(count: 1)
        let order = Shared<[Int]>([])
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        // The lane's thread is held by the first piece while the others are handed over behind it.
        lanes.enqueue { release.wait() }
        for index in 0..<50 {
            lanes.enqueue {
                order.value.withLock { $0.append(index) }
                done.signal()
            }
        }
        release.signal()
        for _ in 0..<50 { done.wait() }
        #expect(order.value.withLock { $0 } == Array(0..<50))
    }

    @Test func aLanesThumbnailIsTheSameAsOneMadeInPlace() async throws {
        let jpeg = try TestJPEG.jpeg(TestJPEG.gradient(width: 640, height: 480), width: 640, height: 480)
        let thumbnailer = JPEGThumbnailer()
        let inPlace = try thumbnailer.thumbnail(of: jpeg, size: .small)
        let lanes = DecodeLanes(count: 2)
        let budget = ImageDecodeBudget()
        let onLanes = try await thumbnailer.thumbnail(of: jpeg, size: .small, budget: budget, lanes: lanes) { $0.jpeg }
        #expect(onLanes == inPlace)
        #expect(await budget.reservedBytes == 0)
    }
}

/// A value behind a lock that closures on other threads can share.
private final class Shared<Value: Sendable>: Sendable {
    let value: Mutex<Value>

    init(_ value: Value) { self.value = Mutex(value) }
}

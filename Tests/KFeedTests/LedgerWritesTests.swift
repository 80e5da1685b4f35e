import Foundation
import KFeedBase
import KFeedTestSupport
import Testing

@testable import KFeed

/// `LedgerWrites`: the ledger written beside a refresh, in the order asked, not again when unchanged, and a failed
/// write reported when the run finishes with it.
struct LedgerWritesTests {
    private static let t0 = Date(timeIntervalSince1970: 1_795_338_000)  // 2026-11-22T09:00:00Z

    @Test func writesInOrderAndNotAgainWhenUnchanged() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = CacheRoot(directory: directory.url)
        let file = directory.url.appendingPathComponent(CacheRoot.ledgerName)
        let writes = LedgerWrites(root)
        var ledger = Ledger()
        ledger.record(["1", "2"], by: "pets", at: Self.t0)
        writes.write(ledger)
        ledger.record(["3"], by: "pets", at: Self.t0)
        writes.write(ledger)
        writes.wait()
        #expect(root.ledger() == ledger)
        // The ledger written last is not written again: the file removed stays removed.
        try FileManager.default.removeItem(at: file)
        try writes.finish(ledger)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        ledger.record(["4"], by: "news", at: Self.t0)
        try writes.finish(ledger)
        #expect(root.ledger() == ledger)
    }

    @Test func theFirstRunWritesEvenAnUnchangedLedger() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = CacheRoot(directory: directory.url)
        try LedgerWrites(root).finish(Ledger())
        #expect(FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("ledger.json").path))
    }

    @Test func aFailedWriteIsThrownByFinish() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let writes = LedgerWrites(CacheRoot(directory: directory.url.appendingPathComponent("missing")))
        var ledger = Ledger()
        ledger.record(["1"], by: "pets", at: Self.t0)
        writes.write(ledger)
        let error = #expect(throws: KFeedError.self) { try writes.finish(ledger) }
        #expect(error?.code == .io)
    }
}

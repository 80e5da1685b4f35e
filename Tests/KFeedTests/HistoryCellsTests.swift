import Foundation
import KFeedTestSupport
import Testing

@testable import KFeed
@testable import KFeedImages

/// `history-cells.bin`: the history's finer cells, read whole or not at all, and through the cache store.
struct HistoryCellsTests {
    private static func cells(_ seed: UInt8) -> [UInt8] {
        (0..<HistoryCells.cellCount).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
    }

    @Test func theCellsRoundTripByMediaKey() {
        let data = HistoryCells.encode([("3_1", Self.cells(1)), ("7_한국", Self.cells(2)), ("3_1", Self.cells(3))])
        #expect(data.starts(with: Array("kfeed history cells 1\n".utf8)))
        // The later entry of a key replaces the earlier one.
        #expect(HistoryCells.decode(data) == ["3_1": Self.cells(3), "7_한국": Self.cells(2)])
        #expect(HistoryCells.decode(HistoryCells.encode([])) == [:])
    }

    @Test func entriesThatCannotBeReadBackAreNotWritten() {
        let long = String(repeating: "k", count: 256)
        let data = HistoryCells.encode([
            ("", Self.cells(1)), (long, Self.cells(2)), ("3_2", [1, 2, 3]), ("3_3", Self.cells(4)),
        ])
        #expect(HistoryCells.decode(data) == ["3_3": Self.cells(4)])
    }

    @Test func aFileThatDoesNotParseToItsLastByteGivesNoCells() {
        let good = HistoryCells.encode([("3_1", Self.cells(1)), ("3_2", Self.cells(2))])
        var zeroKey = good
        zeroKey[HistoryCells.header.count] = 0
        var badUTF8 = good
        badUTF8[HistoryCells.header.count + 1] = 0xFF
        var otherHeader = good
        otherHeader[6] = UInt8(ascii: "H")
        for data in [
            good.dropLast(), good + Data([3]), zeroKey, badUTF8, otherHeader, Data(HistoryCells.header.dropLast()),
            Data(),
        ] {
            #expect(HistoryCells.decode(Data(data)) == [:])
        }
    }

    @Test func theStoreReadsTheCellsBesideTheHistoryAndAHistoryWithoutThem() throws {
        try TemporaryDirectory.with { directory in try Self.storeRoundTrip(in: directory) }
    }

    private static func storeRoundTrip(in directory: URL) throws {
        let store = CacheStore(directory: directory)
        try store.prepare()
        var history = History()
        history.records = [
            History.Record(
                postID: "1",
                mediaKey: "3_1",
                hash: nil,
                shownAt: Date(timeIntervalSince1970: 0),
                generation: Date(timeIntervalSince1970: 0)
            )
        ]
        // Cells of a key no record names are not written.
        history.finer = ["3_1": cells(1), "3_9": cells(9)]
        try store.write(history)
        #expect(store.history()?.finer == ["3_1": cells(1)])
        // A damaged cells file, or none: the records load, without cells.
        let path = directory.appendingPathComponent(CacheStore.historyCellsName)
        try Data("kfeed history cells 1\n\u{3}3_1".utf8).write(to: path)
        #expect(store.history()?.records.count == 1)
        #expect(store.history()?.finer == [:])
        try FileManager.default.removeItem(at: path)
        #expect(store.history()?.finer == [:])
    }
}

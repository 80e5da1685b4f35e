import Foundation
import KFeedBase
import KFeedTestSupport
import Testing

@testable import KFeed

/// The names `CacheRoot` gives the top of a cache of several feeds (widgets and scripts read them: not a byte may
/// change), and the ledger it reads and writes there under the spending lock.
struct CacheRootTests {
    private static let t0 = Date(timeIntervalSince1970: 1_795_338_000)  // 2026-11-22T09:00:00Z

    @Test func eachFeedHasItsDirectoryUnderFeeds() {
        let root = CacheRoot(directory: URL(fileURLWithPath: "/var/cache/kfeed"))
        #expect(root.feedDirectory(named: "pets").path == "/var/cache/kfeed/feeds/pets")
        #expect(root.feedDirectory(named: "pets").hasDirectoryPath)
        #expect(root.store(forFeed: "news").directory.path == "/var/cache/kfeed/feeds/news")
        #expect(
            root.store(forFeed: "news").absolutePath(CacheStore.manifestName)
                == "/var/cache/kfeed/feeds/news/timeline.json"
        )
    }

    @Test func theLedgerIsWrittenBesideTheFeedsUnderItsLock() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = CacheRoot(directory: directory.url.appendingPathComponent("cache"))
        #expect(root.ledger() == Ledger())
        var ledger = Ledger()
        ledger.record(["1", "2"], by: "pets", at: Self.t0)
        try withExtendedLifetime(try root.lockSpending()) {
            let error = #expect(throws: KFeedError.self) { try root.lockSpending() }
            #expect(error?.code == .lockHeld)
            try root.write(ledger)
        }
        #expect(root.ledger() == ledger)
        let names = try FileManager.default.contentsOfDirectory(atPath: root.directory.path).sorted()
        #expect(names == ["ledger.json", "ledger.lock"])
        let written = try Data(contentsOf: root.directory.appendingPathComponent("ledger.json"))
        #expect(try InstantFormat.jsonDecoder().decode(Ledger.self, from: written) == ledger)
    }
}

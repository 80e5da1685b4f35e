import Foundation
import KFeedTestSupport
import Logging
import Testing

@testable import KFeed

/// `DIR/kfeed.log` written through swift-log: a `Logger` whose handler is ``EventLogHandler``.
struct EventLogHandlerTests {
    @Test func aRecordIsOneLineDatedByItsInstant() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent("kfeed.log").path
        let events = Logger(label: "kfeed.events") { _ in EventLogHandler(path: path) }
        events.notice("refreshed\n6 entries", metadata: [EventLogHandler.instantKey: "2026-11-22T09:00:00Z"])
        events.notice("no search", metadata: [EventLogHandler.instantKey: "2026-11-22T10:00:00Z"])
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == "2026-11-22T09:00:00Z refreshed 6 entries\n2026-11-22T10:00:00Z no search\n")
    }
}

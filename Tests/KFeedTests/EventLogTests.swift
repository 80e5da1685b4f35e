import Foundation
import KFeedBase
import KFeedTestSupport
import Testing

@testable import KFeed
@testable import KFeedImages

/// `DIR/kfeed.log`: one line per event, no control characters, rotated once it passes its limit.
struct EventLogTests {
    private static let now = Date(timeIntervalSince1970: 1_795_338_000)  // 2026-11-22T09:00:00Z

    @Test func eachEventIsOneLineWithoutControlCharacters() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = EventLog(path: directory.url.appendingPathComponent("kfeed.log").path)
        log.append("post text\nwith a newline\u{1B}[31m and \u{202E}bidi", at: Self.now)
        let text = try String(contentsOf: directory.url.appendingPathComponent("kfeed.log"), encoding: .utf8)
        #expect(text == "2026-11-22T09:00:00Z post text with a newline [31m and bidi\n")
    }

    @Test func theLogRotatesPastItsLimitAndKeepsOneOldFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var log = EventLog(path: directory.url.appendingPathComponent("kfeed.log").path)
        log.limit = 1_000
        for index in 0..<100 { log.append("event \(index) " + String(repeating: "x", count: 40), at: Self.now) }
        let current = try Data(contentsOf: directory.url.appendingPathComponent("kfeed.log"))
        let previous = try Data(contentsOf: directory.url.appendingPathComponent("kfeed.log.1"))
        #expect(current.count < 1_100)
        #expect(previous.count >= 1_000 && previous.count < 1_100)
        #expect(
            String(decoding: current, as: UTF8.self).hasSuffix("event 99 " + String(repeating: "x", count: 40) + "\n")
        )
    }
}

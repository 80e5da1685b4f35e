import Foundation
import KFeedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Headless Chromium driven over the DevTools protocol, for what `--dump-dom` cannot show: a page as it changes in
/// real time (`--virtual-time-budget` runs the page's timers ahead of every server's clock). One tab, on the real
/// clock; what the page logs (`Log.entryAdded`, which carries Content-Security-Policy refusals) and throws is kept.
///
/// The protocol runs over `--remote-debugging-pipe`: JSON messages ending in a NUL byte, read by Chromium on its fd 3
/// and written on its fd 4, here its standard input and output moved there by the shell that starts it.
///
/// `@unchecked Sendable`: the received messages are guarded by `lock`; `process` is only started in `start` and
/// signalled or waited on afterwards, which `Process` allows from any thread; `input` is written by one caller at a
/// time (the tests send one command, then wait for its answer).
final class ChromiumSession: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let process: Process
    private let input: FileHandle
    private let profile: TemporaryDirectory
    private let lock = NSLock()
    /// Answers by command id, and events in the order they came (each a JSON object as received).
    private var answers: [Int: Data] = [:]
    private var events: [Data] = []
    private var nextID = 0
    /// The tab's session, once attached.
    private var session = ""

    private init(process: Process, input: FileHandle, profile: TemporaryDirectory) {
        self.process = process
        self.input = input
        self.profile = profile
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        profile.remove()
    }

    /// Starts Chromium with one blank tab attached, its console, log and page events on.
    static func start() async throws -> ChromiumSession {
        let executable = try #require(Chromium.executable)
        let profile = try TemporaryDirectory()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c", #"exec "$0" "$@" 3<&0 4>&1 </dev/null >/dev/null"#, executable, "--headless", "--disable-gpu",
            "--no-sandbox", "--hide-scrollbars", "--no-first-run", "--user-data-dir=\(profile.url.path)",
            "--remote-debugging-pipe", "about:blank",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = profile.url.path
        process.environment = environment
        let toChromium = Pipe()
        let fromChromium = Pipe()
        process.standardInput = toChromium
        process.standardOutput = fromChromium
        process.standardError = FileHandle.nullDevice
        try process.run()
        let chromium = ChromiumSession(process: process, input: toChromium.fileHandleForWriting, profile: profile)
        let output = fromChromium.fileHandleForReading
        Thread.detachNewThread { [weak chromium] in
            var pending = Data()
            while true {
                let chunk = output.availableData
                if chunk.isEmpty { return }
                pending += chunk
                while let end = pending.firstIndex(of: 0) {
                    let message = pending[pending.startIndex..<end]
                    pending = Data(pending[(end + 1)...])
                    guard let chromium else { return }
                    chromium.received(Data(message))
                }
            }
        }
        let target = try await chromium.send("Target.createTarget", ["url": "about:blank"])
        let targetID = try #require(target["targetId"] as? String)
        let attached = try await chromium.send("Target.attachToTarget", ["targetId": targetID, "flatten": true])
        chromium.session = try #require(attached["sessionId"] as? String)
        for domain in ["Runtime", "Log", "Page"] { _ = try await chromium.send("\(domain).enable") }
        return chromium
    }

    private func received(_ message: Data) {
        guard let object = try? JSONSerialization.jsonObject(with: message) as? [String: Any] else { return }
        lock.withLock {
            if let id = object["id"] as? Int { answers[id] = message } else { events.append(message) }
        }
    }

    /// Sends `method` with `params` to the tab (or to the browser before one is attached) and returns its result.
    /// - Throws: when Chromium answers with an error or not within 30 s.
    @discardableResult
    func send(_ method: String, _ params: [String: Any] = [:]) async throws -> [String: Any] {
        let (id, session) = lock.withLock {
            nextID += 1
            return (nextID, self.session)
        }
        var command: [String: Any] = ["id": id, "method": method, "params": params]
        if !session.isEmpty { command["sessionId"] = session }
        try input.write(contentsOf: try JSONSerialization.data(withJSONObject: command) + [0])
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let answer = lock.withLock({ answers.removeValue(forKey: id) }) {
                let object = try #require(try JSONSerialization.jsonObject(with: answer) as? [String: Any])
                if let error = object["error"] { throw Failure(description: "\(method): \(error)") }
                return object["result"] as? [String: Any] ?? [:]
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw Failure(description: "\(method): no answer within 30 s")
    }

    /// Loads `url` in the tab.
    func navigate(to url: String) async throws {
        try await send("Page.navigate", ["url": url])
    }

    /// The value of `expression` (which must give a string) evaluated in the tab's page.
    func evaluate(_ expression: String) async throws -> String {
        let result = try await send("Runtime.evaluate", ["expression": expression, "returnByValue": true])
        if let exception = result["exceptionDetails"] { throw Failure(description: "\(expression): \(exception)") }
        return try #require((result["result"] as? [String: Any])?["value"] as? String, "\(result)")
    }

    /// What the page logged (`Log.entryAdded`, e.g. a Content-Security-Policy refusal) or threw
    /// (`Runtime.exceptionThrown`), and its console calls, as text.
    var messages: [String] {
        let events = lock.withLock { self.events }
        return events.compactMap { data in
            guard let event = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let method = event["method"] as? String,
                ["Log.entryAdded", "Runtime.exceptionThrown", "Runtime.consoleAPICalled"].contains(method)
            else { return nil }
            return "\(method): \(String(decoding: data, as: UTF8.self))"
        }
    }

    /// Ends Chromium and waits for it (≤ 10 s).
    func stop() async {
        try? input.close()
        let process = self.process
        kill(process.processIdentifier, SIGTERM)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                let deadline = Date().addingTimeInterval(10)
                while process.isRunning && Date() < deadline { usleep(20_000) }
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                process.waitUntilExit()
                continuation.resume()
            }
        }
    }
}

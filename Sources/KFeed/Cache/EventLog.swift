import Foundation
import KFeedBase
package import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// `DIR/kfeed.log`: one line per event, no control characters, rotated to `kfeed.log.1` past about 1 MiB.
struct EventLog: Sendable {
    /// The log file's path.
    let path: String
    var limit = 1 << 20

    /// Appends `2026-11-22T09:00:00Z <event>`; failures to log are ignored (the log is never worth a failed refresh).
    func append(_ event: String, at now: Date) {
        var info = stat()
        if lstat(path, &info) == 0 && Int(info.st_size) >= limit {
            rename(path, path + ".1")
        }
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        fchmod(descriptor, 0o644)
        let line = "\(InstantFormat.string(from: now)) \(Sanitized.excerpt(event, limit: 2_000))\n"
        _ = line.utf8CString.withUnsafeBufferPointer { buffer in
            write(descriptor, buffer.baseAddress, buffer.count - 1)
        }
    }
}

/// A swift-log handler that writes `DIR/kfeed.log` (``EventLog``): each record one line, dated by its
/// ``instantKey`` metadata (the refresh's instant, which `--now` sets), else the time it is written.
package struct EventLogHandler: LogHandler {
    /// The metadata key whose value (an instant as `InstantFormat` writes it) dates a line.
    package static let instantKey = "at"

    private let file: EventLog
    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level = .info

    /// A handler appending to the log file at `path`.
    package init(path: String) {
        file = EventLog(path: path)
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        let instant = event.metadata?[Self.instantKey] ?? metadata[Self.instantKey]
        file.append("\(event.message)", at: instant.flatMap { InstantFormat.date(from: "\($0)") } ?? Date())
    }
}

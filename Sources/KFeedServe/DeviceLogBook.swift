package import Foundation
import KFeedBase

/// What kfeed keeps of the TRMNL devices that call it: per device (its `ID`), when it last asked for a picture, what
/// it said about itself then (model, size, firmware, battery, signal), the render it was shown, and the last
/// ``maxEntries`` messages of its `/api/log` posts, each cut to ``maxMessage`` characters. At most ``maxDevices``
/// devices, the least recently seen forgotten first: a client inventing IDs cannot grow it.
///
/// Kept in a file, `DIR/trmnl-devices.json` (written whole, atomically, after each change: a few kilobytes), not only
/// in memory: `kfeed status` is another process and reads it there, and a restart keeps it. Without a directory
/// (in-process tests) it stays in memory.
///
/// `@unchecked Sendable`: `records` is guarded by `lock`, and the file is written under it.
package final class DeviceLogBook: @unchecked Sendable {
    /// The file's name in the cache directory.
    package static let fileName = "trmnl-devices.json"
    /// The most devices kept.
    static let maxDevices = 32
    /// The most log messages kept per device.
    static let maxEntries = 20
    /// The longest message kept, in characters.
    static let maxMessage = 240

    /// One device as kept.
    package struct Record: Codable, Sendable, Equatable {
        package var id: String
        package var lastSeen: Date
        package var model: String?
        package var width: Int?
        package var height: Int?
        package var firmware: String?
        package var battery: String?
        package var signal: String?
        /// The render it was last shown (a profile's name).
        package var profile: String?
        /// Its last log messages, oldest first.
        package var logs: [Entry] = []

        /// One log message, with when kfeed received it.
        package struct Entry: Codable, Sendable, Equatable {
            package var received: Date
            package var message: String
        }

        enum CodingKeys: String, CodingKey {
            case id, model, width, height, firmware, battery, signal, profile, logs
            case lastSeen = "last_seen"
        }
    }

    private let file: URL?
    private let lock = NSLock()
    private var records: [String: Record]

    /// A book kept in `directory` (read from it when it holds one), or in memory when nil.
    init(directory: URL?) {
        file = directory?.appendingPathComponent(Self.fileName)
        records = Dictionary((directory.map(Self.read) ?? []).map { ($0.id, $0) }, uniquingKeysWith: { $1 })
    }

    /// The devices kept in `directory`, the most recently seen first; empty when there is no readable file.
    package static func read(from directory: URL) -> [Record] {
        let url = directory.appendingPathComponent(fileName)
        guard let data = try? Data(contentsOf: url), data.count <= 1 << 20,
            let records = try? InstantFormat.jsonDecoder().decode([Record].self, from: data)
        else { return [] }
        return records.sorted { ($0.lastSeen, $0.id) > ($1.lastSeen, $1.id) }
    }

    /// The devices, the most recently seen first.
    var all: [Record] {
        lock.withLock { records.values.sorted { ($0.lastSeen, $0.id) > ($1.lastSeen, $1.id) } }
    }

    /// Notes a picture request from `device`, shown `profile`.
    func saw(_ device: TRMNLDevice, profile: String?, at now: Date) {
        update(device, at: now) { record in
            if let profile { record.profile = profile }
        }
    }

    /// Notes `messages` posted by `device` to `/api/log`.
    func logged(_ messages: [String], by device: TRMNLDevice, at now: Date) {
        update(device, at: now) { record in
            record.logs += messages.map { Record.Entry(received: now, message: String($0.prefix(Self.maxMessage))) }
            if record.logs.count > Self.maxEntries { record.logs.removeFirst(record.logs.count - Self.maxEntries) }
        }
    }

    private func update(_ device: TRMNLDevice, at now: Date, _ change: (inout Record) -> Void) {
        lock.withLock {
            var record = records[device.id] ?? Record(id: device.id, lastSeen: now)
            record.lastSeen = max(record.lastSeen, now)
            record.model = device.model ?? record.model
            if let size = device.size { (record.width, record.height) = (size.width, size.height) }
            record.firmware = device.firmware ?? record.firmware
            record.battery = device.battery ?? record.battery
            record.signal = device.signal ?? record.signal
            change(&record)
            records[device.id] = record
            if records.count > Self.maxDevices,
                let oldest = records.values.min(by: { ($0.lastSeen, $0.id) < ($1.lastSeen, $1.id) })
            {
                records[oldest.id] = nil
            }
            guard let file else { return }
            let sorted = records.values.sorted { $0.id < $1.id }
            if let data = try? InstantFormat.jsonEncoder().encode(sorted) {
                try? data.write(to: file, options: .atomic)
            }
        }
    }

    /// The messages of a `/api/log` body (``TRMNLLog``), at most ``maxEntries``, each at most ``maxMessage``
    /// characters.
    static func messages(in body: [UInt8]) -> [String] {
        TRMNLLog.messages(in: body, limit: maxEntries, length: maxMessage)
    }
}

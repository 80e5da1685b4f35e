package import Foundation

/// A fresh, UUID-named directory under the system's temporary directory, removed by `remove()`.
package struct TemporaryDirectory: Sendable {
    /// The directory.
    package let url: URL

    /// Creates the directory.
    package init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("kfeed-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Removes the directory and everything in it.
    package func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

extension TemporaryDirectory {
    /// Runs `body` with a fresh directory that is removed afterwards.
    package static func with<T>(_ body: (URL) throws -> T) throws -> T {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        return try body(directory.url)
    }

    /// Runs `body` with a fresh directory that is removed afterwards.
    package static func withAsync<T>(_ body: (URL) async throws -> T) async throws -> T {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        return try await body(directory.url)
    }
}

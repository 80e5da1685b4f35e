package import Foundation

/// Locates the recorded responses in the repository's `Fixtures/` folder.
package enum Fixture {
    /// The `Fixtures/` directory of this checkout.
    package static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // KFeedTestSupport
        .deletingLastPathComponent()  // Sources
        .deletingLastPathComponent()  // repository root
        .appendingPathComponent("Fixtures", isDirectory: true)

    /// The bytes of `Fixtures/<name>`.
    package static func data(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(name))
    }
}

extension Fixture {
    /// The replay directory `Fixtures/replay/<scenario>`.
    package static func replay(_ scenario: String) -> URL {
        directory.appendingPathComponent("replay/\(scenario)", isDirectory: true)
    }
}

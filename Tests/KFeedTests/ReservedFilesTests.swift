import Foundation
import KFeedTestSupport
import Testing

@testable import KFeed

struct ReservedFilesTests {
    /// The names in `subdirectory` of `directory`, hidden ones included.
    static func names(_ directory: URL, _ subdirectory: String) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(subdirectory).path))
    }

    @Test func imagesWriteIntoTheFilesMadeAheadAndTheUnusedOnesAreRemoved() throws {
        try TemporaryDirectory.with { directory in
            let store = CacheStore(directory: directory)
            try store.prepare()
            let paths = ["images/a-340x340.jpg", "images/b-340x340.jpg", "avatars/c-96x96.jpg"]
            let reserved = ReservedFiles(in: store)
            reserved.make(paths)
            // Once every file is made, each is a hidden temp file beside its final name.
            reserved.waitUntilMade()
            #expect(try Self.names(directory, "images").count == 2)
            #expect(try Self.names(directory, "avatars").count == 1)
            #expect(try Self.names(directory, "avatars").allSatisfy { $0.hasPrefix(".tmp-") })
            let first = try #require(reserved.take(paths[0]))
            let third = try #require(reserved.take(paths[2]))
            #expect(reserved.take(paths[0]) == nil)  // taken once
            try store.store(Data("a".utf8), at: paths[0], reserved: first)
            try store.store(Data("c".utf8), at: paths[2], reserved: third)
            // No file made ahead for it: written as any other.
            try store.store(Data("d".utf8), at: "images/d-340x340.jpg", reserved: nil)
            reserved.releaseUnused()
            #expect(try Self.names(directory, "images") == ["a-340x340.jpg", "d-340x340.jpg"])
            #expect(try Self.names(directory, "avatars") == ["c-96x96.jpg"])
            #expect(try Data(contentsOf: directory.appendingPathComponent(paths[0])) == Data("a".utf8))
            #expect(try Data(contentsOf: directory.appendingPathComponent(paths[2])) == Data("c".utf8))
            #expect(reserved.take(paths[1]) == nil)
        }
    }
}

import Foundation
import Synchronization

/// The temp files of a batch of images, created ahead of their data on a writer thread (``FileWriters``) while the
/// downloads are in flight: the cores are idle then, and creating a file is the costly part of writing a thumbnail
/// where ext4 runs without a journal (its inode allocator skips, one block read at a time, inodes freed in the
/// last 30 s: up to a tenth of a refresh's CPU after other files were deleted nearby), which would otherwise fall
/// among the decodes.
///
/// ``take(_:)`` never waits: an image whose file is not made yet (or could not be) is written as any other.
/// ``releaseUnused()`` removes the files no image took.
final class ReservedFiles: Sendable {
    private let store: CacheStore
    private let files = Mutex<[String: CacheDirectory.Reserved]>([:])
    private let making = DispatchGroup()

    /// No file yet: ``make(_:)`` starts them.
    init(in store: CacheStore) {
        self.store = store
    }

    /// Starts creating one temp file for each of `paths` (relative to the store's directory), in order.
    func make(_ paths: [String]) {
        making.enter()
        FileWriters.start { [self] in
            for path in paths {
                guard let reserved = try? store.reserve(path) else { continue }
                files.withLock { $0[path] = reserved }
            }
            making.leave()
        }
    }

    /// The temp file made for `path`, if it is ready; it is the caller's from then on.
    func take(_ path: String) -> CacheDirectory.Reserved? {
        files.withLock { $0.removeValue(forKey: path) }
    }

    /// Waits until every file ``make(_:)`` started is made or could not be (blocking: off the cooperative pool).
    func waitUntilMade() {
        making.wait()
    }

    /// Waits until every file is made (blocking: call it off the cooperative pool), then removes those no image
    /// took. Call it once, after every image's write has run.
    func releaseUnused() {
        waitUntilMade()
        let unused = files.withLock { files in
            defer { files = [:] }
            return Array(files.values)
        }
        for reserved in unused { store.release(reserved) }
    }
}

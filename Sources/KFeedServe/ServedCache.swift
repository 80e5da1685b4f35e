import Foundation
import KFeed
import KFeedBase

/// The server's only reader of the cache directory: it loads each newly committed manifest (`timeline.json`) and
/// every file that manifest names into memory (a ``Generation``), and keeps the current and the previous one. The
/// layout (names, paths, the state's format) is ``CacheStore``'s; the reading here is the server's own, because a
/// generation needs each file's identity and date as well as its bytes.
///
/// Every call first compares `timeline.json`'s identity (device, inode, size, mtime: one `lstat`) with the loaded
/// one and loads the new generation when it changed, so each request sees the newest committed manifest. Files are
/// opened without following symlinks and must be regular. A refresh sweeps files that neither its manifest nor the
/// previous one names; holding them in memory means a client that read generation N can still fetch what N names.
///
/// `@unchecked Sendable`: the generations and the error are guarded by `lock`; loading is serialized by
/// `loadLock` so that a change is loaded once while other requests keep answering from the old snapshot.
final class ServedCache: @unchecked Sendable {
    /// The largest file the server loads (images are tens of kilobytes; renders at most a few hundred).
    static let fileLimit: Int64 = 16 << 20

    /// The current and the previous generation.
    struct Snapshot: Sendable {
        /// The newest loaded generation; nil before the cache holds a timeline.
        var current: Generation?
        /// The one before it.
        var previous: Generation?

        /// A file named by the current generation, else by the previous one.
        func file(_ path: String) -> ServedFile? {
            current?.files[path] ?? previous?.files[path]
        }
    }

    /// The cache directory's owner, for its layout.
    private let store: CacheStore
    /// The directory's path, for ``NoFollowFile``.
    private let path: String
    /// The manifest's absolute path (checked on every request, so made once).
    private let manifestPath: String
    private let log: @Sendable (String) -> Void
    private let lock = NSLock()
    private let loadLock = NSLock()
    private var snapshot = Snapshot()
    private var failedIdentity: NoFollowFile.Identity?
    private var failedAt = Date.distantPast
    private var loadError: String?

    /// Creates the adapter; nothing is read until the first call.
    init(directory: URL, log: @escaping @Sendable (String) -> Void) {
        self.store = CacheStore(directory: directory)
        self.path = store.directory.path
        self.manifestPath = store.absolutePath(CacheStore.manifestName)
        self.log = log
    }

    /// The generations, after loading `timeline.json` if it changed since the last call.
    func current() -> Snapshot {
        let identity = NoFollowFile.identity(of: manifestPath)
        let loaded = lock.withLock { snapshot }
        if identity == nil || identity == loaded.current?.identity { return loaded }
        loadLock.lock()
        defer { loadLock.unlock() }
        let (latest, failed, failedAt) = lock.withLock { (snapshot, failedIdentity, self.failedAt) }
        if identity == latest.current?.identity { return latest }
        if identity == failed, Date().timeIntervalSince(failedAt) < 1 { return latest }
        do {
            let generation = try load()
            return lock.withLock {
                if generation.identity != snapshot.current?.identity {
                    snapshot = Snapshot(current: generation, previous: snapshot.current)
                }
                loadError = nil
                return snapshot
            }
        } catch {
            log("cannot load \(CacheStore.manifestName): \(error); still serving the last timeline loaded")
            return lock.withLock {
                failedIdentity = identity
                self.failedAt = Date()
                loadError = "\(error)"
                return snapshot
            }
        }
    }

    /// Why the last load failed, if it did.
    var lastLoadError: String? {
        lock.withLock { loadError }
    }

    /// `text` (an error message for `/healthz`) without the server's paths: the cache directory's path becomes
    /// `DIR`, so that `DIR/state.json` still says which file.
    func withoutPaths(_ text: String) -> String {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return text.replacingOccurrences(of: path, with: "DIR").replacingOccurrences(of: resolved, with: "DIR")
    }

    /// The refresh state (`state.json`), when there is a readable one (read without following a symlink).
    func refreshState() -> RefreshState? {
        store.state()
    }

    /// Reads `timeline.json` and every file it names. When a named file is missing because a newer manifest has
    /// been committed (and a later refresh swept it), starts again with the newer manifest (a few times).
    private func load() throws -> Generation {
        var attempt = 0
        while true {
            attempt += 1
            let manifestContents: NoFollowFile.Contents
            do {
                manifestContents = try NoFollowFile.read(CacheStore.manifestName, in: path, limit: Self.fileLimit)
            } catch {
                throw KFeedError(.io, "\(manifestPath) is \(error)")
            }
            let manifest: Manifest
            do {
                manifest = try Manifest.decode(Data(manifestContents.data))
            } catch {
                throw KFeedError(.apiResponse, "\(manifestPath) is not a kfeed timeline")
            }
            var files: [String: ServedFile] = [:]
            var missing: [String] = []
            for relative in Generation.servablePaths(of: manifest) {
                do {
                    let contents = try NoFollowFile.read(relative, in: path, limit: Self.fileLimit)
                    files[relative] = ServedFile(bytes: contents.data, path: relative, modified: contents.modified)
                } catch .missing where CacheStore.isPlaceholderPath(relative) {
                    continue  // only served when the refresh made one
                } catch {
                    missing.append("\(relative) (\(error))")
                }
            }
            if !missing.isEmpty {
                let now = NoFollowFile.identity(of: manifestPath)
                if now != manifestContents.identity && attempt < 5 { continue }
                log("the timeline names files that cannot be served: \(missing.sorted().joined(separator: ", "))")
            }
            let manifestFile = ServedFile(
                bytes: manifestContents.data,
                path: CacheStore.manifestName,
                modified: manifestContents.modified
            )
            return Generation(
                manifest: manifest,
                manifestFile: manifestFile,
                files: files,
                identity: manifestContents.identity
            )
        }
    }
}

import Foundation
import KFeed
import KFeedBase
import Logging

/// The server's holder of the cache: it keeps each newly committed generation (`timeline.json` and every file it
/// names) in memory (a ``Generation``), the current and the previous one. ``CacheStore`` reads them
/// (``CacheStore/loadGeneration(limit:)``: without following symlinks, each file with its identity and date), as it
/// reads the cache for the CLI; this decides when, and what is served meanwhile.
///
/// Every call first compares `timeline.json`'s identity (device, inode, size, mtime: one `lstat`) with the loaded
/// one and loads the new generation when it changed, so each request sees the newest committed manifest. A refresh
/// sweeps files that neither its manifest nor the previous one names; holding them in memory means a client that
/// read generation N can still fetch what N names.
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
        /// Media keys the previous generation showed whose files the refresh removed (a post gone from X): nothing
        /// of theirs is served any more, renders made on demand included.
        var withdrawn: Set<String> = []

        /// A file named by the current generation, else by the previous one.
        func file(_ path: String) -> ServedFile? {
            current?.files[path] ?? previous?.files[path]
        }

        /// Whether `path` (`renders/<key>-…`) belongs to a withdrawn media key.
        func isWithdrawn(_ path: String) -> Bool {
            !withdrawn.isEmpty
                && withdrawn.contains { path.hasPrefix("renders/\($0)-") || path.hasPrefix("images/\($0)-") }
        }
    }

    /// The cache directory's owner and reader.
    private let store: CacheStore
    /// The directory's path, kept out of error messages.
    private let path: String
    /// The wall clock, for the pause after a load that failed.
    private let now: @Sendable () -> Date
    private let logger: Logger
    /// What each line logged starts with: the feed's name with a feeds file.
    private let prefix: String
    private let lock = NSLock()
    private let loadLock = NSLock()
    private var snapshot = Snapshot()
    private var failedIdentity: CacheStore.FileIdentity?
    private var failedAt = Date.distantPast
    private var loadError: String?

    /// Creates the adapter; nothing is read until the first call. A timeline that cannot be loaded is logged as a
    /// warning, its line starting with `prefix`.
    init(directory: URL, now: @escaping @Sendable () -> Date, logger: Logger, prefix: String = "") {
        self.store = CacheStore(directory: directory)
        self.path = store.directory.path
        self.now = now
        self.logger = logger
        self.prefix = prefix
    }

    /// The generations, after loading `timeline.json` if it changed since the last call.
    func current() -> Snapshot {
        let identity = store.manifestIdentity()
        let loaded = lock.withLock { snapshot }
        if identity == nil || identity == loaded.current?.identity { return loaded }
        loadLock.lock()
        defer { loadLock.unlock() }
        let (latest, failed, failedAt) = lock.withLock { (snapshot, failedIdentity, self.failedAt) }
        if identity == latest.current?.identity { return latest }
        if identity == failed, abs(now().timeIntervalSince(failedAt)) < 1 { return latest }
        do {
            let generation = try load()
            return lock.withLock {
                if generation.identity != snapshot.current?.identity {
                    snapshot = withoutRemovedFiles(Snapshot(current: generation, previous: snapshot.current))
                }
                loadError = nil
                return snapshot
            }
        } catch {
            logger.warning(
                "\(prefix)cannot load \(CacheStore.manifestName): \(error); still serving the last timeline loaded"
            )
            return lock.withLock {
                failedIdentity = identity
                self.failedAt = now()
                loadError = "\(error)"
                return snapshot
            }
        }
    }

    /// `snapshot` with the previous generation's files that are no longer in the cache directory left out: a
    /// refresh removes the files of a post gone from X before it commits the timeline without it, and the server
    /// stops answering for them as soon as it loads that timeline.
    private func withoutRemovedFiles(_ snapshot: Snapshot) -> Snapshot {
        guard var previous = snapshot.previous, let current = snapshot.current else { return snapshot }
        var result = snapshot
        let removed = previous.files.keys.filter { path in
            current.files[path] == nil && !FileManager.default.fileExists(atPath: store.absolutePath(path))
        }
        guard !removed.isEmpty else { return snapshot }
        for path in removed { previous.files[path] = nil }
        let shown = Set(current.manifest.entries.map(\.media.key))
        result.withdrawn = Set(
            previous.manifest.entries.filter { entry in
                !shown.contains(entry.media.key) && entry.image.map(removed.contains) == true
            }.map(\.media.key)
        )
        result.previous = previous
        return result
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

    /// The committed generation, read by the store; the files it names that cannot be served are logged.
    private func load() throws -> Generation {
        let loaded = try store.loadGeneration(limit: Self.fileLimit)
        if !loaded.unreadable.isEmpty {
            logger.warning(
                "\(prefix)the timeline names files that cannot be served: \(loaded.unreadable.joined(separator: ", "))"
            )
        }
        return Generation(
            manifest: loaded.manifest,
            manifestFile: ServedFile(loaded.manifestFile, path: CacheStore.manifestName),
            files: Dictionary(uniqueKeysWithValues: loaded.files.map { ($0, ServedFile($1, path: $0)) }),
            identity: loaded.identity
        )
    }
}

extension ServedFile {
    /// Wraps a file of a generation the store read.
    fileprivate init(_ file: CacheStore.GenerationFile, path: String) {
        self.init(bytes: file.bytes, path: path, modified: file.modified)
    }
}

import Foundation
import KFeedBase
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file-system mechanics under ``CacheStore``: a directory created without group/other write bits, files read
/// and written never through a symlink, every file replaced atomically (temp file in the same directory, fsync,
/// rename, fsync of the directory), an advisory lock. Which files exist is ``CacheStore``'s business.
struct CacheDirectory: Sendable {
    /// The directory.
    let url: URL

    /// The prefix of the probe file ``prepare(subdirectories:)`` writes and removes.
    static let probePrefix = ".write-probe-"

    /// The temp files this process is writing, by path, from ``stage(_:to:)`` until they are installed or removed:
    /// the sweep of leftovers passes over them, so that a write running beside it (the ledger's) keeps its file.
    private static let inFlight = Mutex<Set<String>>([])

    /// Whether `relative` is a temp file this process is still writing.
    func isBeingWritten(_ relative: String) -> Bool {
        let path = path(relative)
        return Self.inFlight.withLock { $0.contains(path) }
    }

    private static let directoryMode: mode_t = 0o755
    private static let fileMode: mode_t = 0o644

    init(url: URL) {
        self.url = url.standardizedFileURL
    }

    func path(_ relative: String) -> String {
        url.appendingPathComponent(relative).path
    }

    // MARK: - Creating

    /// Creates the directory and `subdirectories` (modes 0755 whatever the umask) and checks it can be written.
    /// - Throws: `KFeedError` `.cacheUnwritable` when it cannot be created or written, or a symlink stands in
    ///   place of a subdirectory.
    func prepare(subdirectories: [String]) throws {
        try makeDirectory(url.path, parents: true)
        for name in subdirectories { try makeDirectory(path(name), parents: false) }
        let probe = path("\(Self.probePrefix)\(UUID().uuidString)")
        let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, Self.fileMode)
        guard descriptor >= 0 else { throw unwritable(url.path, errno) }
        close(descriptor)
        unlink(probe)
    }

    private func makeDirectory(_ path: String, parents: Bool) throws {
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                let what = info.st_mode & S_IFMT == S_IFLNK ? "a symbolic link" : "not a directory"
                throw KFeedError(.cacheUnwritable, "\(path) is \(what): remove it, or choose another --cache")
            }
            if info.st_mode & 0o022 != 0 { chmod(path, info.st_mode & 0o755) }
            return
        }
        if parents {
            let parent = (path as NSString).deletingLastPathComponent
            if !parent.isEmpty && parent != path && parent != "/" { try makeDirectory(parent, parents: true) }
        }
        guard mkdir(path, Self.directoryMode) == 0 || errno == EEXIST else { throw unwritable(path, errno) }
        chmod(path, Self.directoryMode)
    }

    // MARK: - Lock

    /// Takes the refresh lock (`DIR/<name>`, flock) without waiting. The kernel releases it when the process ends,
    /// however it ends, so a killed run never blocks the next.
    /// - Returns: the open descriptor; closing it releases the lock.
    /// - Throws: `KFeedError` `.lockHeld` when another process holds it.
    /// How many times, 20 ms apart, a held lock is tried again.
    static let lockAttempts = 100

    func lock(_ name: String) throws -> CacheLock {
        let lockPath = path(name)
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, Self.fileMode)
        guard descriptor >= 0 else { throw unwritable(lockPath, errno) }
        fchmod(descriptor, Self.fileMode)  // explicit, whatever the umask (like every file kfeed creates)
        // A lock this process has just released can linger while a child it forks still holds the inherited
        // descriptor (until its exec: milliseconds, or longer on a busy machine): look again for up to two seconds
        // before calling it held.
        var attempts = 0
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK && attempts < Self.lockAttempts {
            attempts += 1
            usleep(20_000)
        }
        guard attempts < Self.lockAttempts || flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(descriptor)
            if code == EWOULDBLOCK {
                throw KFeedError(.lockHeld, "another kfeed refresh holds the lock on \(url.path); try again later")
            }
            throw unwritable(lockPath, code)
        }
        return CacheLock(descriptor: descriptor)
    }

    // MARK: - Reading

    /// The bytes of a regular file (never through a symlink), at most `limit` bytes; nil when absent or unusable.
    func read(_ relative: String, limit: Int = 16 << 20) -> Data? {
        let descriptor = open(path(relative), O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) <= limit else {
            return nil
        }
        var data = Data(count: Int(info.st_size))
        let count = data.withUnsafeMutableBytes { buffer -> Int in
            var done = 0
            while done < buffer.count {
                let result = Glibc.read(descriptor, buffer.baseAddress.map { $0 + done }, buffer.count - done)
                if result < 0 && errno == EINTR { continue }
                guard result > 0 else { break }
                done += result
            }
            return done
        }
        return count == data.count ? data : nil
    }

    // MARK: - Writing

    /// Writes `data` to a new temp file beside `relative`, syncs it, and renames it into place; a symlink at
    /// `relative` is replaced, never followed.
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - relative: the path below the cache directory.
    ///   - syncDirectory: fsync the containing directory after the rename (make the new name durable).
    /// - Throws: `KFeedError` `.io` for a full disk or an I/O error, `.cacheUnwritable` when permission is lacking.
    func write(_ data: Data, to relative: String, syncDirectory: Bool = true) throws {
        try install(try stage(data, to: relative), syncDirectory: syncDirectory)
    }

    /// A file written and synced under a temp name beside the name it is meant for, not yet in place.
    struct Staged: Sendable {
        /// The temp file's path.
        let temporary: String
        /// The path it is renamed to.
        let final: String
    }

    /// The first half of ``write(_:to:syncDirectory:)``: writes `data` to a new temp file beside `relative` and
    /// syncs it; ``install(_:syncDirectory:)`` renames it into place. A temp file never installed is removed by
    /// ``discard(_:)``, or else by the next sweep.
    /// - Throws: as ``write(_:to:syncDirectory:)``; nothing is left behind.
    func stage(_ data: Data, to relative: String) throws -> Staged {
        try stage(data, into: try reserve(relative))
    }

    /// A new, empty temp file made ahead of its data (``reserve(_:)``): creating a file is the costly part of writing
    /// a small one on some file systems (ext4 without a journal looks for an inode not freed in the last 30 s), so a
    /// batch can create its files while it waits for something else.
    struct Reserved: Sendable {
        /// The temp file's path.
        let temporary: String
        /// The path it is to be renamed to.
        let final: String
        /// Open for writing.
        let descriptor: Int32
    }

    /// Creates an empty temp file beside `relative`, open for ``stage(_:into:)``; ``release(_:)`` removes one that
    /// will not be written (else the next sweep does).
    /// - Throws: as ``write(_:to:syncDirectory:)``; nothing is left behind.
    func reserve(_ relative: String) throws -> Reserved {
        let final = path(relative)
        let directory = (final as NSString).deletingLastPathComponent
        let temporary = "\(directory)/.tmp-\(UUID().uuidString)"
        Self.inFlight.withLock { _ = $0.insert(temporary) }
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, Self.fileMode)
        guard descriptor >= 0 else {
            let failure = errno
            Self.inFlight.withLock { _ = $0.remove(temporary) }
            throw writeError(final, failure)
        }
        fchmod(descriptor, Self.fileMode)
        return Reserved(temporary: temporary, final: final, descriptor: descriptor)
    }

    /// Closes and removes a reserved temp file that will not be written.
    func release(_ reserved: Reserved) {
        close(reserved.descriptor)
        unlink(reserved.temporary)
        Self.inFlight.withLock { _ = $0.remove(reserved.temporary) }
    }

    /// Writes `data` to a reserved temp file, syncs and closes it: ``stage(_:to:)`` with the file made beforehand.
    /// - Throws: as ``write(_:to:syncDirectory:)``; the temp file is removed.
    func stage(_ data: Data, into reserved: Reserved) throws -> Staged {
        let (temporary, final, descriptor) = (reserved.temporary, reserved.final, reserved.descriptor)
        var failure: Int32 = 0
        data.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let result = Glibc.write(descriptor, buffer.baseAddress.map { $0 + done }, buffer.count - done)
                if result < 0 && errno == EINTR { continue }
                guard result > 0 else {
                    failure = result < 0 ? errno : EIO
                    return
                }
                done += result
            }
        }
        if failure == 0 && fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0 && failure == 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            Self.inFlight.withLock { _ = $0.remove(temporary) }
            throw writeError(final, failure)
        }
        return Staged(temporary: temporary, final: final)
    }

    /// The second half of ``write(_:to:syncDirectory:)``: renames a staged file into place, then (with
    /// `syncDirectory`) fsyncs its directory.
    /// - Throws: as ``write(_:to:syncDirectory:)``; a temp file that could not be renamed is removed.
    func install(_ staged: Staged, syncDirectory: Bool = true) throws {
        defer { Self.inFlight.withLock { _ = $0.remove(staged.temporary) } }
        guard rename(staged.temporary, staged.final) == 0 else {
            let failure = errno
            unlink(staged.temporary)
            throw writeError(staged.final, failure)
        }
        if syncDirectory { try sync(directory: (staged.final as NSString).deletingLastPathComponent) }
    }

    /// Removes a staged file that will not be installed.
    func discard(_ staged: Staged) {
        unlink(staged.temporary)
        Self.inFlight.withLock { _ = $0.remove(staged.temporary) }
    }

    /// fsyncs a directory so renames in it survive a crash.
    func sync(directory: String) throws {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw writeError(directory, errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw writeError(directory, errno) }
    }

    // MARK: - Listing and removing

    /// The names in `subdirectory` (nil: the directory itself); empty when it is missing or a symlink.
    func names(in subdirectory: String?) -> [String] {
        let directory = subdirectory.map(path) ?? url.path
        var info = stat()
        guard lstat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return [] }
        return (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    }

    /// Unlinks `relative` (a symlink itself, never its target). - Returns: whether something was removed.
    func remove(_ relative: String) -> Bool {
        unlink(path(relative)) == 0
    }

    // MARK: - Errors

    private func unwritable(_ path: String, _ code: Int32) -> KFeedError {
        KFeedError(
            .cacheUnwritable,
            "cannot create or write the cache directory \(path): \(String(cString: strerror(code))); check --cache"
        )
    }

    private func writeError(_ path: String, _ code: Int32) -> KFeedError {
        switch code {
        case EACCES, EPERM, EROFS, ENOTDIR, ELOOP:
            return unwritable(path, code)
        default:
            return KFeedError(
                .io,
                "writing \(path) failed: \(String(cString: strerror(code))); the previous timeline is intact, free space and retry"
            )
        }
    }
}

/// The held refresh lock; released when closed or when the process ends.
final class CacheLock: Sendable {
    private let descriptor: Int32

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }
}

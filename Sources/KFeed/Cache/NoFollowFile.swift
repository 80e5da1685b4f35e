import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a file under a directory without following a symlink at any step: each path component is opened with
/// `openat(…, O_NOFOLLOW)`, and the last one must be a regular file (checked with `fstat` on the open descriptor).
/// ``CacheStore`` reads a generation with it (``CacheStore/loadGeneration(limit:)``).
struct NoFollowFile {
    /// What was read.
    struct Contents {
        /// The bytes.
        var data: [UInt8]
        /// The file's modification time.
        var modified: Date
        /// Device, inode, size and modification time in nanoseconds: changes whenever the file is replaced.
        var identity: CacheStore.FileIdentity
    }

    /// Why a read failed.
    enum Failure: Error, CustomStringConvertible {
        /// No such file (or a component is missing).
        case missing
        /// A symlink, a directory, a device or anything else that is not a regular file.
        case notRegular
        /// Larger than the limit.
        case tooLarge(Int64)
        /// The path is not a plain relative path.
        case badPath
        /// Any other `errno`.
        case system(Int32)

        var description: String {
            switch self {
            case .missing: "missing"
            case .notRegular: "not a regular file"
            case .tooLarge(let size): "too large (\(size) bytes)"
            case .badPath: "not a plain relative path"
            case .system(let code): String(cString: strerror(code))
            }
        }
    }

    /// Reads `relative` (components separated by `/`, none empty, `.` or `..`) under `directory`.
    /// - Parameters:
    ///   - relative: the path inside `directory`.
    ///   - directory: the directory (itself may be reached through a symlink: it is the user's choice).
    ///   - limit: the largest size accepted, in bytes.
    /// - Returns: the bytes, modification time and identity of the file.
    /// - Throws: `Failure`.
    static func read(_ relative: String, in directory: String, limit: Int64) throws(Failure) -> Contents {
        let components = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard !components.isEmpty, components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else {
            throw .badPath
        }
        var descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(errno) }
        for (index, component) in components.enumerated() {
            let isLast = index == components.count - 1
            let flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC | (isLast ? O_NONBLOCK : O_DIRECTORY)
            let next = openat(descriptor, String(component), flags)
            let error = errno
            close(descriptor)
            guard next >= 0 else { throw failure(error) }
            descriptor = next
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure(errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notRegular }
        let size = Int64(info.st_size)
        guard size <= limit else { throw .tooLarge(size) }
        var data = [UInt8](repeating: 0, count: Int(size))
        var filled = 0
        while filled < data.count {
            let count = data.withUnsafeMutableBytes { buffer in
                systemRead(descriptor, buffer.baseAddress.map { $0 + filled }, buffer.count - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(errno)
            }
            if count == 0 { break }  // truncated under us: keep what is there; the identity check catches it
            filled += count
        }
        data.removeSubrange(filled...)
        return Contents(data: data, modified: modified(info), identity: identity(info))
    }

    /// The identity of the file at `path` without following a symlink at its last component (`lstat`), or nil
    /// when it cannot be read.
    static func identity(of path: String) -> CacheStore.FileIdentity? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return identity(info)
    }

    private static func identity(_ info: stat) -> CacheStore.FileIdentity {
        let time = modificationTime(info)
        return CacheStore.FileIdentity(
            device: UInt64(info.st_dev),
            inode: UInt64(info.st_ino),
            size: Int64(info.st_size),
            modifiedNanoseconds: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
        )
    }

    private static func modified(_ info: stat) -> Date {
        Date(timeIntervalSince1970: Double(modificationTime(info).tv_sec))
    }

    private static func modificationTime(_ info: stat) -> timespec {
        #if canImport(Darwin)
            info.st_mtimespec
        #else
            info.st_mtim
        #endif
    }

    private static func failure(_ code: Int32) -> Failure {
        switch code {
        case ENOENT, ENOTDIR: .missing
        case ELOOP: .notRegular
        default: .system(code)
        }
    }
}

/// `read(2)`, under a name that the static `read` above does not shadow.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Darwin)
        Darwin.read(descriptor, buffer, count)
    #else
        Glibc.read(descriptor, buffer, count)
    #endif
}

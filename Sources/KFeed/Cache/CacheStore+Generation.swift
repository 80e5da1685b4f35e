package import Foundation
import KFeedBase

/// Reading a committed generation whole: `timeline.json` and every file it names, each with what tells one version of
/// it from another, for a reader that keeps a generation in memory (`kfeed serve`).
extension CacheStore {
    /// Device, inode, size and modification time in nanoseconds: what tells one version of a file from another
    /// without reading it (a commit or a write replaces the file, so every one of them changes).
    package struct FileIdentity: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modifiedNanoseconds: Int64
    }

    /// One file of a generation as read.
    package struct GenerationFile: Sendable {
        /// The bytes.
        package var bytes: [UInt8]
        /// The file's modification time, to the second.
        package var modified: Date
        /// Which version of the file this is.
        package var identity: FileIdentity
    }

    /// A committed generation as read: the manifest, its file, and the files it names.
    package struct LoadedGeneration: Sendable {
        /// The manifest.
        package var manifest: Manifest
        /// `timeline.json` as on disk.
        package var manifestFile: GenerationFile
        /// The files the manifest names that could be read, by their path relative to the directory.
        package var files: [String: GenerationFile]
        /// The files the manifest names that could not be read, each with why (`images/….jpg (missing)`), sorted;
        /// a placeholder that was never made is not among them.
        package var unreadable: [String]

        /// Which `timeline.json` this is.
        package var identity: FileIdentity { manifestFile.identity }
    }

    /// The paths a manifest names that belong to its generation: images, avatars, renders and the placeholder of
    /// its size, each passing ``isGenerationFile(_:)`` (nothing else in the cache directory).
    package static func generationFiles(of manifest: Manifest) -> Set<String> {
        files(of: manifest).union([placeholderPath(size: manifest.size)]).filter(isGenerationFile)
    }

    /// Whether `path` can name a file of a generation: a plain relative path (ASCII letters, digits, `._-`, no `..`)
    /// under one of ``subdirectories`` (`images/`, `avatars/`, `renders/`), or a top-level `placeholder-WxH.jpg`.
    package static func isGenerationFile(_ path: String) -> Bool {
        guard !path.isEmpty, path.utf8.count <= 255,
            path.utf8.allSatisfy({ byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
                    || byte == UInt8(ascii: "/")
            })
        else { return false }
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        guard components.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") }) else { return false }
        switch components.count {
        case 1: return isPlaceholderPath(path)
        case 2: return subdirectories.contains(String(components[0]))
        default: return false
        }
    }

    /// The identity of `timeline.json` (one `lstat`, not following a symlink); nil when there is none or it cannot
    /// be read. Comparing it with a loaded generation's tells whether a newer one was committed.
    package func manifestIdentity() -> FileIdentity? {
        NoFollowFile.identity(of: manifestPath)
    }

    /// Reads `timeline.json` and every file it names (``generationFiles(of:)``), none through a symlink at any step
    /// and each a regular file of at most `limit` bytes. When a named file cannot be read because a newer manifest
    /// has been committed since (and a later refresh swept it), starts again with the newer manifest (a few times).
    /// - Parameter limit: the largest file read, in bytes.
    /// - Returns: the generation; the files it names that could still not be read are in `unreadable`.
    /// - Throws: `KFeedError` `.io` when `timeline.json` cannot be read, `.apiResponse` when it is not a manifest.
    package func loadGeneration(limit: Int64) throws -> LoadedGeneration {
        let manifestPath = self.manifestPath
        var attempt = 0
        while true {
            attempt += 1
            let manifestFile: NoFollowFile.Contents
            do {
                manifestFile = try NoFollowFile.read(Self.manifestName, in: directory.path, limit: limit)
            } catch {
                throw KFeedError(.io, "\(manifestPath) is \(error)")
            }
            let manifest: Manifest
            do {
                manifest = try Manifest.decode(Data(manifestFile.data))
            } catch {
                throw KFeedError(.apiResponse, "\(manifestPath) is not a kfeed timeline")
            }
            var files: [String: GenerationFile] = [:]
            var unreadable: [String] = []
            for relative in Self.generationFiles(of: manifest) {
                do {
                    files[relative] = GenerationFile(try NoFollowFile.read(relative, in: directory.path, limit: limit))
                } catch .missing where Self.isPlaceholderPath(relative) {
                    continue  // there only when the refresh made one
                } catch {
                    unreadable.append("\(relative) (\(error))")
                }
            }
            if !unreadable.isEmpty, manifestIdentity() != manifestFile.identity, attempt < 5 { continue }
            return LoadedGeneration(
                manifest: manifest,
                manifestFile: GenerationFile(manifestFile),
                files: files,
                unreadable: unreadable.sorted()
            )
        }
    }
}

extension CacheStore.GenerationFile {
    fileprivate init(_ contents: NoFollowFile.Contents) {
        self.init(bytes: contents.data, modified: contents.modified, identity: contents.identity)
    }
}

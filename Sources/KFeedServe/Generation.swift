import Foundation
import Hummingbird
import KFeed

/// One committed timeline as the server loaded it: the manifest, its bytes as on disk, and every file it names,
/// in memory. Answers built from one generation never mix two timelines, and a refresh that sweeps files later
/// cannot take a file away from a client that read this manifest.
struct Generation: Sendable {
    /// The manifest.
    var manifest: Manifest
    /// `timeline.json` as on disk.
    var manifestFile: ServedFile
    /// The files the manifest names, by their path relative to the cache directory (`images/….jpg`).
    var files: [String: ServedFile]
    /// Which `timeline.json` this is.
    var identity: NoFollowFile.Identity

    /// The paths a manifest names that the server may serve: images, avatars, renders and the placeholder of
    /// its size; each a plain relative path under one of those places (nothing else in the cache directory).
    static func servablePaths(of manifest: Manifest) -> Set<String> {
        CacheStore.files(of: manifest).union([CacheStore.placeholderPath(size: manifest.size)]).filter(isServable)
    }

    /// Whether `path` is a plain relative path (ASCII letters, digits, `._-`, no `..`) under one of
    /// ``CacheStore``'s subdirectories (`images/`, `avatars/`, `renders/`), or a top-level `placeholder-WxH.jpg`.
    static func isServable(_ path: String) -> Bool {
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
        case 1: return CacheStore.isPlaceholderPath(path)
        case 2: return CacheStore.subdirectories.contains(String(components[0]))
        default: return false
        }
    }
}

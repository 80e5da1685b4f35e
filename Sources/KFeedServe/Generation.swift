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
    var identity: CacheStore.FileIdentity
}

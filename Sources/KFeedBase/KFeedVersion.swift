import CKFeedBuildInfo

/// The library's version, as sent in the `User-Agent` header (`kfeed/<version>`), and the build's commit.
package enum KFeedVersion {
    /// The semantic version of this build of kfeed.
    package static let version = "0.1.0"

    /// The abbreviated commit this build was made from (`81db986`, with `-dirty` when the tree had changes), or nil
    /// when it was built outside a git checkout. Package.swift reads it from git when SwiftPM reads the manifest.
    package static let commit: String? = {
        let commit = String(cString: kfeed_build_commit())
        return commit.isEmpty ? nil : commit
    }()

    /// What `kfeed --version` prints: `kfeed 0.1.0 (commit 81db986)`, or `(commit unknown)`.
    package static let description = "kfeed \(version) (commit \(commit ?? "unknown"))"
}

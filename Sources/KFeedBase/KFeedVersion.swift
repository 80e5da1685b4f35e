/// The library's version, as sent in the `User-Agent` header (`kfeed/<version>`).
package enum KFeedVersion {
    /// The semantic version of this build of kfeed.
    package static let version = "0.1.0"
}

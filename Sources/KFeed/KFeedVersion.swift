/// The library's version, as sent in the `User-Agent` header (`kfeed/<version>`).
public enum KFeedVersion {
    /// The semantic version of this build of kfeed.
    public static let version = "0.1.0"
}

public import Foundation

/// Reads what a refresh committed, without a token or a transport (for `kfeed current`, `timeline`, widgets).
public struct CacheReader: Sendable {
    /// The cache directory.
    public let directory: URL
    private let cache: CacheDirectory

    /// Creates a reader.
    public init(directory: URL) {
        self.directory = directory.standardizedFileURL
        self.cache = CacheDirectory(url: directory)
    }

    /// The committed manifest; nil when there is none yet.
    /// - Throws: `KFeedError` `.apiResponse` when `timeline.json` exists but is not a schema-1 manifest.
    public func manifest() throws -> Manifest? {
        guard let data = cache.read("timeline.json") else { return nil }
        do {
            return try Manifest.decode(data)
        } catch {
            throw KFeedError(
                .apiResponse,
                "\(cache.path("timeline.json")) is not a kfeed timeline; run kfeed refresh --force",
                underlying: error
            )
        }
    }

    /// The absolute path of a file a manifest names.
    public func absolutePath(_ relative: String) -> String {
        cache.path(relative)
    }
}

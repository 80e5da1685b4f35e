public import Foundation

extension CacheReader {
    /// The preview page's name in the cache directory.
    public static let previewFileName = "preview.html"

    /// Writes `page` to `DIR/preview.html` atomically (temp file in DIR, fsync, rename), mode 0644, replacing a
    /// symlink rather than following it.
    /// - Parameter page: the page to write.
    /// - Returns: the file's URL.
    /// - Throws: `KFeedError` `.cacheUnwritable` when the directory cannot be written, `.io` for a full disk.
    public func writePreview(_ page: PreviewPage) throws -> URL {
        let cache = CacheDirectory(url: directory)
        try cache.write(Data(page.html.utf8), to: Self.previewFileName)
        return directory.appendingPathComponent(Self.previewFileName)
    }
}

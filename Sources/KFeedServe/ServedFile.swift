import Foundation
import HTTPTypes
import Hummingbird
import KFeed
import KFeedBase

/// One file of a generation, read into memory when the generation was loaded, with its validators.
struct ServedFile: Sendable {
    /// The bytes.
    var bytes: ByteBuffer
    /// The media type, from the extension.
    var contentType: String
    /// A strong entity tag: a 64-bit FNV-1a hash of the bytes and their length, quoted.
    var etag: String
    /// The entity tag without its quotes: the `?v=` that makes the file's URL content-addressed.
    var version: String
    /// The file's modification time.
    var modified: Date
    /// `Content-Type`, `ETag` and `Last-Modified`, made once when the file is loaded.
    var headers: HTTPFields

    /// Wraps bytes read from the cache.
    init(bytes: [UInt8], path: String, modified: Date) {
        self.bytes = ByteBuffer(bytes: bytes)
        self.contentType = Self.contentType(forPath: path)
        self.etag = Self.etag(for: bytes)
        self.version = String(etag.dropFirst().dropLast())
        self.modified = modified
        self.headers = [
            .contentType: contentType, .eTag: etag, .lastModified: InstantFormat.httpDate(from: modified),
        ]
    }

    /// The query parameter that names a file's version: a URL with the right one always answers the same bytes.
    static let versionParameter = "v"

    /// A strong entity tag for `bytes`.
    static func etag(for bytes: some Sequence<UInt8>) -> String {
        var hash = FNV1a()
        var count = 0
        for byte in bytes {
            hash.add(byte)
            count += 1
        }
        return "\"\(String(hash.value, radix: 16))-\(String(count, radix: 16))\""
    }

    /// The media type of a file the cache holds, by its extension.
    static func contentType(forPath path: String) -> String {
        switch path.split(separator: ".").last?.lowercased() {
        case "jpg", "jpeg": "image/jpeg"
        case "png": "image/png"
        case "bmp": "image/bmp"
        case "json": "application/json"
        default: "application/octet-stream"
        }
    }
}

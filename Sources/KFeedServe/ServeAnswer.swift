import Foundation
import HTTPTypes
import Hummingbird
import KFeed

/// One answer before it becomes a `Response`: status, headers, the whole body (every answer is in memory), and how
/// caches may keep it.
struct ServeAnswer: Sendable {
    var status: HTTPResponse.Status
    var headers: HTTPFields = [:]
    var body: ByteBuffer = ByteBuffer()
    /// How long caches may keep it: never, unless the route says otherwise.
    var caching = CachePolicy.noStore
    /// Whether the request needed the key (so no shared cache may keep the answer).
    var isPrivate = false

    /// A JSON answer from an `Encodable`, with the manifest's encoder (sorted keys, UTC instants).
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> ServeAnswer {
        let data = (try? InstantFormat.jsonEncoder().encode(value)) ?? Data("{}".utf8)
        return bytes(Array(data) + [UInt8(ascii: "\n")], type: "application/json", status: status)
    }

    /// `{"error": message}` with `status`, never cached.
    static func error(_ status: HTTPResponse.Status, _ message: String) -> ServeAnswer {
        json(["error": message], status: status)
    }

    /// An answer with `bytes` of media type `type`.
    static func bytes(_ bytes: [UInt8], type: String, status: HTTPResponse.Status = .ok) -> ServeAnswer {
        var answer = ServeAnswer(status: status, body: ByteBuffer(bytes: bytes))
        answer.headers[.contentType] = type
        return answer
    }

    /// A `200` answer with a file's bytes and validators.
    static func file(_ file: ServedFile) -> ServeAnswer {
        ServeAnswer(status: .ok, headers: file.headers, body: file.bytes)
    }

    /// Adds a strong `ETag` computed from the body (for answers built per request), and `Last-Modified`.
    mutating func validate(modified: Date) {
        headers[.eTag] = ServedFile.etag(for: body.readableBytesView)
        headers[.lastModified] = InstantFormat.httpDate(from: modified)
    }

    /// The response: `304` when `If-None-Match` names this answer's `ETag`; headers without a body for `HEAD`.
    func response(to request: Request) -> Response {
        let (status, headers, body) = parts(isHead: request.method == .head, ifNoneMatch: request.headers[.ifNoneMatch])
        return Response(
            status: status,
            headers: headers,
            body: body.map { ResponseBody(byteBuffer: $0) } ?? ResponseBody()
        )
    }

    /// Status, headers (with `Content-Length` and the caching headers) and the body to send (nil for `HEAD` and
    /// `304`).
    func parts(isHead: Bool, ifNoneMatch: String?) -> (HTTPResponse.Status, HTTPFields, ByteBuffer?) {
        var headers = self.headers
        headers[.contentLength] = String(body.readableBytes)
        caching.apply(to: &headers, isPrivate: isPrivate)
        if status == .ok, let etag = headers[.eTag], let ifNoneMatch, Self.matches(ifNoneMatch, etag) {
            // What RFC 9110 §15.4.5 asks a 304 to repeat, so that a cache updates its copy's freshness.
            var notModified = HTTPFields()
            for name in [HTTPField.Name.eTag, .lastModified, .cacheControl, .expires, .vary] {
                if let value = headers[name] { notModified[name] = value }
            }
            return (.notModified, notModified, nil)
        }
        return (status, headers, isHead ? nil : body)
    }

    /// Whether an `If-None-Match` value (`*` or a list of tags, weak or strong) names `etag` (weak comparison,
    /// as RFC 9110 asks for `If-None-Match`).
    static func matches(_ header: String, _ etag: String) -> Bool {
        if header.trimmingCharacters(in: .whitespaces) == "*" { return true }
        return header.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == etag
        }
    }
}

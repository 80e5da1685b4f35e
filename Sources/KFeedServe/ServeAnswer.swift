import Foundation
import HTTPTypes
import Hummingbird
import KFeed

/// One answer before it becomes a `Response`: status, headers and the whole body (every answer is in memory).
struct ServeAnswer: Sendable {
    var status: HTTPResponse.Status
    var headers: HTTPFields = [:]
    var body: ByteBuffer = ByteBuffer()

    /// A JSON answer from an `Encodable`, with the manifest's encoder (sorted keys, UTC instants).
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> ServeAnswer {
        let data = (try? InstantFormat.jsonEncoder().encode(value)) ?? Data("{}".utf8)
        return bytes(Array(data) + [UInt8(ascii: "\n")], type: "application/json", status: status)
    }

    /// `{"error": message}` with `status`, never cached.
    static func error(_ status: HTTPResponse.Status, _ message: String) -> ServeAnswer {
        var answer = json(["error": message], status: status)
        answer.headers[.cacheControl] = "no-store"
        return answer
    }

    /// An answer with `bytes` of media type `type`.
    static func bytes(_ bytes: [UInt8], type: String, status: HTTPResponse.Status = .ok) -> ServeAnswer {
        var answer = ServeAnswer(status: status, body: ByteBuffer(bytes: bytes))
        answer.headers[.contentType] = type
        return answer
    }

    /// A `200` answer with a file's bytes and validators.
    static func file(_ file: ServedFile) -> ServeAnswer {
        var answer = ServeAnswer(status: .ok, body: file.bytes)
        answer.headers[.contentType] = file.contentType
        answer.headers[.eTag] = file.etag
        answer.headers[.lastModified] = HTTPDate.string(from: file.modified)
        return answer
    }

    /// Adds a strong `ETag` computed from the body (for answers built per request), and `Last-Modified`.
    mutating func validate(modified: Date) {
        headers[.eTag] = ServedFile.etag(for: body.readableBytesView)
        headers[.lastModified] = HTTPDate.string(from: modified)
    }

    /// The response: `304` when `If-None-Match` names this answer's `ETag`; headers without a body for `HEAD`.
    func response(to request: Request) -> Response {
        var headers = self.headers
        headers[.contentLength] = String(body.readableBytes)
        if status == .ok, let etag = headers[.eTag], let match = request.headers[.ifNoneMatch],
            Self.matches(match, etag)
        {
            var notModified = HTTPFields()
            for name in [HTTPField.Name.eTag, .lastModified, .cacheControl] {
                if let value = headers[name] { notModified[name] = value }
            }
            return Response(status: .notModified, headers: notModified, body: ResponseBody())
        }
        if request.method == .head {
            return Response(status: status, headers: headers, body: ResponseBody())
        }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: body))
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

package import Foundation
import KFeed
import KFeedHTTP

extension LoopbackServer {
    /// A handler that answers X's recent search with `search` (a recorded answer whose picture URLs it points at
    /// this server) and every other path with `picture`, a JPEG.
    package static func searching(_ search: Data, pictures picture: Data) -> @Sendable (Request) -> Response {
        searching(search) { _ in picture }
    }

    /// A handler that answers X's recent search with `search` (its picture URLs pointed at this server) and every
    /// other path with the JPEG `picture` makes for the path: distinct pictures for a test where the same photo
    /// under two posts would count as one.
    package static func searching(
        _ search: Data,
        picture: @escaping @Sendable (_ path: String) -> Data
    ) -> @Sendable (Request) -> Response {
        { request in
            guard request.path == RecentSearchRequest.path else {
                return Response(headers: [HTTPHeader("Content-Type", "image/jpeg")], body: picture(request.path))
            }
            let host = request[header: "Host"] ?? "127.0.0.1"
            let body = String(decoding: search, as: UTF8.self)
                .replacingOccurrences(of: "https://pbs.twimg.com", with: "http://\(host)")
            return Response(headers: [HTTPHeader("Content-Type", "application/json")], body: Data(body.utf8))
        }
    }
}

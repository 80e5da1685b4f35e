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
            if request.path == PostLookupRequest.path { return everyPostPresent(request) }
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

extension LoopbackServer {
    /// X's answer to a post lookup (`GET /2/tweets?ids=…`) when every post asked about is still there: each id in
    /// `data` with X's default fields.
    package static func everyPostPresent(_ request: Request) -> Response {
        let query = request.target.split(separator: "?", maxSplits: 1).last.map(String.init) ?? ""
        let ids = query.split(separator: "&").first { $0.hasPrefix("ids=") }.map { $0.dropFirst(4) } ?? ""
        let posts = ids.split(separator: ",").filter { $0.allSatisfy(\.isNumber) }.map {
            #"{"id":"\#($0)","text":"","edit_history_tweet_ids":["\#($0)"]}"#
        }
        let body = posts.isEmpty ? #"{"errors":[]}"# : #"{"data":["# + posts.joined(separator: ",") + "]}"
        return Response(headers: [HTTPHeader("Content-Type", "application/json")], body: Data(body.utf8))
    }

    /// A handler that answers as `x` does (search, post lookup, usage, pictures and avatars), its picture URLs
    /// pointed at this server: a simulated X that the built binary reaches over the network.
    package static func simulating(_ x: SimulatedX) -> @Sendable (Request) -> Response {
        { request in
            let host = request[header: "Host"] ?? "127.0.0.1"
            guard let url = URL(string: "http://\(host)\(request.target)"),
                let response = try? x.respond(HTTPRequest(url: url, headers: request.headers))
            else { return .text("simulation failed", status: 500) }
            var body = response.body
            if response.headers.contains(where: { $0.value.contains("json") }) {
                body = Data(
                    String(decoding: body, as: UTF8.self)
                        .replacingOccurrences(of: "https://pbs.twimg.com", with: "http://\(host)")
                        .replacingOccurrences(of: #"https:\/\/pbs.twimg.com"#, with: #"http:\/\/\#(host)"#).utf8
                )
            }
            return Response(status: response.status, headers: response.headers, body: body)
        }
    }
}

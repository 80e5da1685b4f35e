package import Foundation
import KFeed
import KFeedImages

/// Writes replay directories for tests: one search answer and one small JPEG for every image URL it names.
package enum ReplayDirectory {
    /// Creates `directory/routes.json` answering the search with `searchBody` (a fixture name, copied in) and every
    /// photo, preview and avatar URL of that body with `image` (or with `imageStatus` and no body).
    package static func make(
        at directory: URL,
        searchFixture: String,
        image: Data,
        imageStatus: Int = 200
    ) throws {
        let body = try Fixture.data(searchFixture)
        try body.write(to: directory.appendingPathComponent("search.json"))
        try image.write(to: directory.appendingPathComponent("image.jpg"))
        var routes: [[String: Any]] = [["path": RecentSearchRequest.path, "body": "search.json"]]
        let object = try JSONSerialization.jsonObject(with: body) as? [String: Any]
        let includes = object?["includes"] as? [String: Any]
        let media = includes?["media"] as? [[String: Any]] ?? []
        let users = includes?["users"] as? [[String: Any]] ?? []
        var urls = media.compactMap { ($0["url"] ?? $0["preview_image_url"]) as? String }
        urls += users.compactMap { $0["profile_image_url"] as? String }
        var seen: Set<String> = []
        for text in urls {
            guard let url = URL(string: text) else { continue }
            for candidate in ImageRendition.photoCandidates(for: url, width: nil, height: nil, target: .small)
                + ImageRendition.avatarCandidates(for: url)
            where seen.insert(candidate.path).inserted {
                routes.append([
                    "host": candidate.host ?? "", "path": candidate.path, "status": imageStatus,
                    "body": imageStatus == 200 ? "image.jpg" : "",
                ])
            }
        }
        let data = try JSONSerialization.data(withJSONObject: ["routes": routes], options: [.prettyPrinted])
        try data.write(to: directory.appendingPathComponent("routes.json"))
    }
}

import Foundation
import KFeed

/// `/current.json`: the entry as in the manifest (paths relative to the cache directory, never the server's own),
/// plus `image_url` and `avatar_url` on this server, `until` (the next entry's date), `refresh_rate` (seconds until
/// then) and `stale` (the timeline ran out and this is its last entry; `until` is then at most 15 minutes on).
///
/// The attribution a client shows with the picture is all there: `author` (`name`, `username`, and `url`, the
/// profile on X), `text` as X sent it, `post_url` (the post on X, the manifest's `url`) and `created_at` (the
/// post's time; for a timeline written before `created_at` was kept, the time the post's id carries).
struct CurrentEntry: Encodable {
    var entry: Manifest.Entry
    var imageURL: String?
    var avatarURL: String?
    var until: Date
    var refreshRate: Int
    var isStale: Bool

    private enum CodingKeys: String, CodingKey {
        case until
        case imageURL = "image_url"
        case avatarURL = "avatar_url"
        case refreshRate = "refresh_rate"
        case isStale = "stale"
        case postURL = "post_url"
        case createdAt = "created_at"
    }

    func encode(to encoder: any Encoder) throws {
        try entry.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(imageURL, forKey: .imageURL)
        try container.encode(avatarURL, forKey: .avatarURL)
        try container.encode(until, forKey: .until)
        try container.encode(refreshRate, forKey: .refreshRate)
        try container.encode(isStale, forKey: .isStale)
        try container.encode(entry.url, forKey: .postURL)
        if entry.createdAt == nil { try container.encodeIfPresent(entry.postedAt, forKey: .createdAt) }
    }
}

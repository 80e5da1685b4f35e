import Foundation
import KFeed

/// `/current.json`: the entry as `kfeed current` prints it (absolute paths), plus `image_url` and `avatar_url` on
/// this server, `until` (the next entry's date) and `refresh_rate` (seconds until then).
struct CurrentEntry: Encodable {
    var entry: Manifest.Entry
    var imageURL: String?
    var avatarURL: String?
    var until: Date
    var refreshRate: Int

    private enum CodingKeys: String, CodingKey {
        case until
        case imageURL = "image_url"
        case avatarURL = "avatar_url"
        case refreshRate = "refresh_rate"
    }

    func encode(to encoder: any Encoder) throws {
        try entry.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(imageURL, forKey: .imageURL)
        try container.encode(avatarURL, forKey: .avatarURL)
        try container.encode(until, forKey: .until)
        try container.encode(refreshRate, forKey: .refreshRate)
    }
}

public import Foundation

extension Manifest.Author {
    /// The author's profile on X, `https://x.com/USERNAME` (written as `author.url`); nil when the username is not
    /// one X gives (1 to 15 letters, digits or `_`).
    public var profileURL: URL? {
        let allowed = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"
        guard (1...15).contains(username.count), username.allSatisfy(allowed.contains) else { return nil }
        return URL(string: "https://x.com/\(username)")
    }
}

extension Manifest.Entry {
    /// When the post was made: `created_at`, or for a timeline written before it was kept, the instant X's post
    /// ids carry (milliseconds since 2010-11-04 01:42:54.657 UTC in the bits above the lowest 22); nil when
    /// neither is there.
    public var postedAt: Date? {
        if let createdAt { return createdAt }
        // Ids from before X put the time in them (November 2010) are smaller than this.
        guard let id = UInt64(tweetID), id > 29_700_859_247 else { return nil }
        let milliseconds = (id >> 22) + 1_288_834_974_657
        return Date(timeIntervalSince1970: Double(milliseconds) / 1_000)
    }
}

public import Foundation
public import KFeedImages
package import KFeedX

/// `timeline.json`, schema 1: what widgets, displays and scripts read. Keys are the contract's
/// (`docs/cache.md`); readers must ignore keys they do not know. Paths are relative to the cache directory.
public struct Manifest: Codable, Sendable, Hashable {
    /// The schema version this type writes.
    public static let currentSchema = 1

    /// The schema version.
    public var schema: Int
    /// When the timeline was made (the first entry's date).
    public var generatedAt: Date
    /// The query the posts came from.
    public var query: String
    /// When a reader should ask for a new timeline.
    public var policy: ReloadPolicy
    /// The instant after which a new timeline is due (nil for `never`).
    public var reloadAfter: Date?
    /// The size the images are made for.
    public var size: ImageSize
    /// The time between entries.
    public var interval: Interval
    /// The entries, first (current) first.
    public var entries: [Entry]
    /// Why the timeline is empty, when it is.
    public var emptyReason: String?
    /// Digests of the feed settings the timeline was made with (`settings` in the file): a change of any of them
    /// makes the feed due (`docs/timeline.md`). Nil in a timeline written before they were recorded.
    package var fingerprints: Fingerprints?

    /// The feed settings a timeline was made with, as digests (``FeedSettings/timelineFingerprint`` and
    /// ``FeedSettings/renderFingerprint``).
    package struct Fingerprints: Codable, Sendable, Hashable {
        /// What shapes the posts and the schedule: a change makes a new timeline.
        package var timeline: String
        /// What the display renders show besides the picture: a change re-renders, with no search.
        package var renders: String

        package init(timeline: String, renders: String) {
            self.timeline = timeline
            self.renders = renders
        }
    }

    /// Creates a manifest.
    public init(
        generatedAt: Date,
        query: String,
        policy: ReloadPolicy,
        reloadAfter: Date?,
        size: ImageSize,
        interval: Interval,
        entries: [Entry],
        emptyReason: String? = nil
    ) {
        self.schema = Self.currentSchema
        self.generatedAt = generatedAt
        self.query = query
        self.policy = policy
        self.reloadAfter = reloadAfter
        self.size = size
        self.interval = interval
        self.entries = entries
        self.emptyReason = emptyReason
    }

    /// One hour of the timeline.
    public struct Entry: Codable, Sendable, Hashable {
        /// When this entry becomes current.
        public var date: Date
        /// The post's id.
        public var tweetID: String
        /// The post's text, as X sent it.
        public var text: String
        /// When the post was made (X's `created_at`); nil in a timeline written before it was kept, or when X did
        /// not send it (``postedAt`` then reads it from the post's id).
        public var createdAt: Date?
        /// The post's public URL.
        public var url: URL
        /// The author.
        public var author: Author
        /// The media the entry shows.
        public var media: MediaInfo
        /// The downscaled image, relative to the cache directory (nil until images are fetched).
        public var image: String?
        /// Whether `image` is the placeholder.
        public var placeholder: Bool
        /// Why the placeholder is shown (e.g. "download failed", "image too large").
        public var placeholderReason: String?
        /// The display renders of this entry by profile name (`trmnl` → `renders/<key>-trmnl.png`), relative to
        /// the cache directory; nil (and omitted from the JSON) when no display profile was asked for.
        public var renders: [String: String]?
        /// Whether this post was shown within the no-repeat window and fills a slot that no unshown post could
        /// (`docs/timeline.md`, "Repeats"); written as `"repeat": true`, and omitted otherwise.
        public var isRepeat: Bool {
            get { repeatMark ?? false }
            set { repeatMark = newValue ? true : nil }
        }
        /// `repeat` as the JSON has it: true, or absent.
        private var repeatMark: Bool?

        /// Creates an entry for a chosen post; image paths are set when images are fetched.
        package init(date: Date, item: FeedItem, media: Media) {
            self.date = date
            self.tweetID = item.post.id
            self.text = item.post.text
            self.createdAt = item.post.createdAt
            self.url = item.url
            let user = item.author ?? User(id: item.post.authorID ?? "", name: "", username: "")
            self.author = Author(
                id: user.id,
                name: user.name,
                username: user.username,
                profileImageURL: user.profileImageURL
            )
            self.media = MediaInfo(
                key: media.key,
                type: media.kind.description,
                altText: media.altText,
                width: media.width,
                height: media.height,
                sourceURL: media.kind == .photo ? media.url : media.previewImageURL
            )
            self.image = nil
            self.placeholder = false
            self.placeholderReason = nil
            self.renders = nil
        }

        private enum CodingKeys: String, CodingKey {
            case date, text, url, author, media, image, placeholder, renders
            case tweetID = "tweet_id"
            case createdAt = "created_at"
            case placeholderReason = "placeholder_reason"
            case repeatMark = "repeat"
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(date, forKey: .date)
            try container.encode(tweetID, forKey: .tweetID)
            try container.encode(text, forKey: .text)
            try container.encodeIfPresent(createdAt, forKey: .createdAt)
            try container.encode(url, forKey: .url)
            try container.encode(author, forKey: .author)
            try container.encode(media, forKey: .media)
            try container.encode(image, forKey: .image)
            try container.encode(placeholder, forKey: .placeholder)
            try container.encode(placeholderReason, forKey: .placeholderReason)
            try container.encodeIfPresent(renders, forKey: .renders)
            try container.encodeIfPresent(repeatMark, forKey: .repeatMark)
        }
    }

    /// An entry's author.
    public struct Author: Codable, Sendable, Hashable {
        /// The user id.
        public var id: String
        /// The display name.
        public var name: String
        /// The handle without `@`.
        public var username: String
        /// The downscaled avatar, relative to the cache directory (nil until images are fetched).
        public var avatar: String?
        /// Where the avatar came from (X's `profile_image_url`).
        public var profileImageURL: URL?

        private enum CodingKeys: String, CodingKey {
            case id, name, username, avatar
            case profileImageURL = "profile_image_url"
        }

        /// Keys written beside the stored ones, derived from them (a reader decodes none of them).
        private enum DerivedKeys: String, CodingKey {
            case url
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(username, forKey: .username)
            try container.encode(avatar, forKey: .avatar)
            try container.encode(profileImageURL, forKey: .profileImageURL)
            var derived = encoder.container(keyedBy: DerivedKeys.self)
            try derived.encodeIfPresent(profileURL, forKey: .url)
        }
    }

    /// An entry's media.
    public struct MediaInfo: Codable, Sendable, Hashable {
        /// The media key.
        public var key: String
        /// X's type: `photo`, `video`, `animated_gif`.
        public var type: String
        /// The alt text, or nil.
        public var altText: String?
        /// The original width in pixels, when known.
        public var width: Int?
        /// The original height in pixels, when known.
        public var height: Int?
        /// The image kfeed downloads: the photo, or the still preview of a video or GIF.
        public var sourceURL: URL?

        private enum CodingKeys: String, CodingKey {
            case key, type, width, height
            case altText = "alt_text"
            case sourceURL = "source_url"
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(key, forKey: .key)
            try container.encode(type, forKey: .type)
            try container.encode(altText, forKey: .altText)
            try container.encode(width, forKey: .width)
            try container.encode(height, forKey: .height)
            try container.encode(sourceURL, forKey: .sourceURL)
        }
    }

    // MARK: - Coding

    private enum CodingKeys: String, CodingKey {
        case schema, query, policy, size, entries
        case generatedAt = "generated_at"
        case reloadAfter = "reload_after"
        case interval = "interval_seconds"
        case emptyReason = "empty_reason"
        case fingerprints = "settings"
    }

    private struct SizeValue: Codable {
        var width: Int
        var height: Int
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schema = try container.decode(Int.self, forKey: .schema)
        generatedAt = try container.decode(Date.self, forKey: .generatedAt)
        query = try container.decode(String.self, forKey: .query)
        reloadAfter = try container.decodeIfPresent(Date.self, forKey: .reloadAfter)
        switch try container.decode(String.self, forKey: .policy) {
        case "never": policy = .never
        case "after": policy = .after(reloadAfter ?? generatedAt)
        default: policy = .atEnd
        }
        let size = try container.decode(SizeValue.self, forKey: .size)
        self.size = ImageSize(width: size.width, height: size.height)
        // Whole seconds, as written; anything else (1e300, negative) would trap where the interval becomes an Int.
        let seconds = try container.decodeIfPresent(Double.self, forKey: .interval) ?? 3_600
        guard (1...Double(Int32.max)).contains(seconds) else {
            throw DecodingError.dataCorruptedError(
                forKey: .interval,
                in: container,
                debugDescription: "interval_seconds \(seconds) is out of range"
            )
        }
        interval = Interval(seconds: seconds)
        entries = try container.decode([Entry].self, forKey: .entries)
        emptyReason = try container.decodeIfPresent(String.self, forKey: .emptyReason)
        fingerprints = try? container.decodeIfPresent(Fingerprints.self, forKey: .fingerprints)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(schema, forKey: .schema)
        try container.encode(generatedAt, forKey: .generatedAt)
        try container.encode(query, forKey: .query)
        try container.encode(policy.name, forKey: .policy)
        try container.encode(reloadAfter, forKey: .reloadAfter)
        try container.encode(SizeValue(width: size.width, height: size.height), forKey: .size)
        try container.encode(Int(interval.seconds), forKey: .interval)
        try container.encode(entries, forKey: .entries)
        if let emptyReason { try container.encode(emptyReason, forKey: .emptyReason) }
        try container.encodeIfPresent(fingerprints, forKey: .fingerprints)
    }

    /// The manifest as pretty-printed JSON with UTC instants.
    public func jsonData() throws -> Data {
        try InstantFormat.jsonEncoder().encode(self)
    }

    /// Reads a manifest.
    /// - Throws: `DecodingError` when the data is not a schema-1 manifest.
    public static func decode(_ data: Data) throws -> Manifest {
        try InstantFormat.jsonDecoder().decode(Manifest.self, from: data)
    }
}

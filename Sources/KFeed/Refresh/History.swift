public import Foundation

/// `history.json`: what the feed has shown, so that a post, its media or the same photo reposted under another
/// media key is not shown again within the no-repeat window (`--no-repeat-days`, `DESIGN.md` §7).
///
/// A record is made for every entry a committed timeline schedules. When a timeline is replaced before all of its
/// entries came up (a forced refresh), the entries whose hour had not begun are forgotten again: they were never
/// shown. The history is written just before the manifest that it describes, and records of a generation newer
/// than the committed manifest (a run killed between the two writes) are ignored, so it always matches what was
/// committed.
public struct History: Codable, Sendable, Hashable {
    /// One shown entry.
    public struct Record: Codable, Sendable, Hashable {
        /// The post's id.
        public var postID: String
        /// The media key it showed.
        public var mediaKey: String
        /// The perceptual hash of its thumbnail (16 hex digits), nil for a placeholder.
        public var hash: String?
        /// When the entry became current.
        public var shownAt: Date
        /// The `generated_at` of the timeline that scheduled it.
        public var generation: Date

        private enum CodingKeys: String, CodingKey {
            case hash
            case postID = "post_id"
            case mediaKey = "media_key"
            case shownAt = "shown_at"
            case generation
        }
    }

    /// The schema version.
    public var schema = 1
    /// The records, oldest first.
    public var records: [Record] = []

    /// The most records kept (100 entries a day for a week, with room to spare).
    public static let maxRecords = 2_000

    /// An empty history.
    public init() {}

    /// The history as it stands for a refresh at `now` that replaces `previous`: records of generations newer
    /// than `previous` (never committed) and records of `previous` whose hour had not begun (never shown) are
    /// dropped, and so is everything shown before the window.
    /// - Parameters:
    ///   - previous: the committed manifest this refresh replaces, if any.
    ///   - now: the refresh's instant.
    ///   - window: how long a shown entry stays unusable.
    /// - Returns: the records that still count.
    public func current(replacing previous: Manifest?, at now: Date, window: TimeInterval) -> History {
        var history = self
        history.records.removeAll { record in
            if record.shownAt < now.addingTimeInterval(-window) { return true }
            guard let previous else { return false }
            return record.generation > previous.generatedAt
                || (record.generation == previous.generatedAt && record.shownAt >= now)
        }
        return history
    }

    /// Post ids shown in the window.
    public var postIDs: Set<String> { Set(records.map(\.postID)) }
    /// Media keys shown in the window.
    public var mediaKeys: Set<String> { Set(records.map(\.mediaKey)) }
    /// The perceptual hashes of the pictures shown in the window.
    package var hashes: [PerceptualHash] { records.compactMap { $0.hash.flatMap(PerceptualHash.init) } }

    /// Adds a record for every entry of `manifest`, with the hashes of their thumbnails by media key, keeping at most
    /// ``maxRecords``.
    package mutating func record(_ manifest: Manifest, hashes: [String: PerceptualHash]) {
        for entry in manifest.entries {
            records.append(
                Record(
                    postID: entry.tweetID,
                    mediaKey: entry.media.key,
                    hash: entry.placeholder ? nil : hashes[entry.media.key]?.description,
                    shownAt: entry.date,
                    generation: manifest.generatedAt
                )
            )
        }
        if records.count > Self.maxRecords { records.removeFirst(records.count - Self.maxRecords) }
    }
}

package import Foundation
package import KFeedImages
import KFeedX

/// `history.json`: what the feed has shown, so that a post, its media or the same photo reposted under another
/// media key is not shown again within the no-repeat window (`--no-repeat-days`, `docs/timeline.md`).
///
/// A record is made for every entry a committed timeline schedules. When a timeline is replaced before all of its
/// entries came up (a forced refresh), the entries whose hour had not begun are forgotten again: they were never
/// shown. The history is written just before the manifest that it describes, and records of a generation newer
/// than the committed manifest (a run killed between the two writes) are ignored, so it always matches what was
/// committed.
package struct History: Codable, Sendable, Hashable {
    /// One shown entry.
    package struct Record: Codable, Sendable, Hashable {
        /// The post's id.
        package var postID: String
        /// The media key it showed.
        package var mediaKey: String
        /// The perceptual hash of its thumbnail (16 hex digits), nil for a placeholder.
        package var hash: String?
        /// The detail signature of its thumbnail (base64), nil for a placeholder. Records written before kfeed kept
        /// detail signatures (schema 1, which kept a coarser colour signature under `signature`) have none: their
        /// post ids and media keys still count, but their pictures are never called the same as a new one (a hash
        /// alone cannot tell a repost from a picture of the same layout). They are not recomputed: the thumbnails
        /// of pictures shown days ago are gone from the cache, and the window ages such records out within days.
        package var detail: String?
        /// The fine lightness cells of its thumbnail (``DetailSignature/fineBase64``), nil for a placeholder. Records
        /// written before kfeed kept them (schema 2) have none: their pictures are compared as before, without the
        /// fine test that tells apart two pictures at one scale that differ in small detail (other words over one
        /// photo); the window ages such records out within days.
        package var fine: String?
        /// When the entry became current.
        package var shownAt: Date
        /// The `generated_at` of the timeline that scheduled it.
        package var generation: Date

        private enum CodingKeys: String, CodingKey {
            case hash, detail, fine
            case postID = "post_id"
            case mediaKey = "media_key"
            case shownAt = "shown_at"
            case generation
        }
    }

    /// The schema version: 3 since records keep the fine cells of a ``DetailSignature`` (`fine`), 2 since they keep
    /// one (`detail`); a schema-2 file still loads, its records without fine cells, and a schema-1 file, its records
    /// without either.
    package var schema = 3
    /// The records, oldest first.
    package var records: [Record] = []
    /// The finer cells (``DetailSignature/finer``) of the records' pictures, by media key: kept beside the file, in
    /// `history-cells.bin` (``HistoryCells``), not in it. A picture without them (its thumbnail under 128 pixels a
    /// side, or recorded before kfeed kept them) is compared without the finer test.
    package var finer: [String: [UInt8]] = [:]

    private enum CodingKeys: String, CodingKey {
        case schema, records
    }

    /// The most records kept (100 entries a day for a week, with room to spare).
    package static let maxRecords = 2_000

    /// An empty history.
    package init() {}

    /// The history as it stands for a refresh at `now` that replaces `previous`: records of generations newer
    /// than `previous` (never committed) and records of `previous` whose hour had not begun (never shown) are
    /// dropped, and so is everything shown before the window.
    /// - Parameters:
    ///   - previous: the committed manifest this refresh replaces, if any.
    ///   - now: the refresh's instant.
    ///   - window: how long a shown entry stays unusable.
    /// - Returns: the records that still count.
    package func current(replacing previous: Manifest?, at now: Date, window: TimeInterval) -> History {
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
    package var postIDs: Set<String> { Set(records.map(\.postID)) }
    /// Media keys shown in the window.
    package var mediaKeys: Set<String> { Set(records.map(\.mediaKey)) }
    /// The pictures shown in the window, with when each was last shown, by media key.
    package var pictures: [String: (identity: PictureIdentity, shownAt: Date)] {
        var pictures: [String: (identity: PictureIdentity, shownAt: Date)] = [:]
        for record in records {
            guard let hash = record.hash.flatMap(PerceptualHash.init),
                let detail = record.detail.flatMap({
                    DetailSignature(base64: $0, fine: record.fine, finer: finer[record.mediaKey])
                })
            else { continue }
            pictures[record.mediaKey] = (PictureIdentity(hash: hash, detail: detail), record.shownAt)
        }
        return pictures
    }

    /// When each post was last shown in the window, by post id.
    package var lastShown: [String: Date] {
        records.reduce(into: [:]) { last, record in
            last[record.postID] = max(last[record.postID] ?? record.shownAt, record.shownAt)
        }
    }

    /// The finer cells of the records' pictures in the records' order, each media key once: what
    /// `history-cells.bin` keeps.
    package var recordedFiner: [(key: String, cells: [UInt8])] {
        var seen: Set<String> = []
        return records.compactMap { record in
            guard let cells = finer[record.mediaKey], seen.insert(record.mediaKey).inserted else { return nil }
            return (record.mediaKey, cells)
        }
    }

    /// Adds a record for every entry of `manifest`, with the identities of their thumbnails by media key (and their
    /// finer cells), keeping at most ``maxRecords``.
    package mutating func record(_ manifest: Manifest, identities: [String: PictureIdentity]) {
        for entry in manifest.entries {
            let identity = entry.placeholder ? nil : identities[entry.media.key]
            if let cells = identity?.detail.finer { finer[entry.media.key] = cells }
            records.append(
                Record(
                    postID: entry.tweetID,
                    mediaKey: entry.media.key,
                    hash: identity?.hash.description,
                    detail: identity?.detail.base64,
                    fine: identity?.detail.fineBase64,
                    shownAt: entry.date,
                    generation: manifest.generatedAt
                )
            )
        }
        if records.count > Self.maxRecords { records.removeFirst(records.count - Self.maxRecords) }
    }
}

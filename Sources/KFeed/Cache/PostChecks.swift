package import Foundation
package import KFeedX

/// `checks.json`: when kfeed last learned that each post it may show still exists (read by a search, or confirmed
/// by a post lookup), and the posts X said are gone. X's terms want a post deleted, made protected, withheld or
/// whose author is suspended off the screen within 24 hours: a post is looked up again once ``lookupAge`` has passed
/// since it was last confirmed, before it is shown again, and is never shown once ``expiryAge`` has passed
/// without a confirmation (`docs/timeline.md`, Deleted posts).
package struct PostChecks: Codable, Sendable, Hashable {
    /// A post X said is gone.
    package struct Gone: Codable, Sendable, Hashable {
        /// Why.
        package var reason: PostLookup.Gone
        /// When kfeed learned it.
        package var at: Date
    }

    /// The schema version.
    package var schema = 1
    /// When each post was last confirmed, by post id.
    package var confirmed: [String: Date] = [:]
    /// Posts gone, by post id, kept for the no-repeat window so that no earlier page or history brings them back.
    package var gone: [String: Gone] = [:]

    /// How long after a confirmation a post shown is asked about again.
    package static let lookupAge: TimeInterval = 20 * 3_600
    /// How long after its last confirmation a post that could not be checked is still shown: an hour short of X's
    /// 24, so that a cron run an hour late is still in time.
    package static let expiryAge: TimeInterval = 23 * 3_600
    /// How long a gone post is remembered.
    package static let goneKept: TimeInterval = 8 * 86_400

    /// None yet.
    package init() {}

    private enum CodingKeys: String, CodingKey { case schema, confirmed, gone }

    /// When `id` was last confirmed (the distant past when never).
    package func confirmedAt(_ id: String) -> Date {
        confirmed[id] ?? .distantPast
    }

    /// Records `ids` as confirmed at `now`.
    package mutating func confirm(_ ids: some Sequence<String>, at now: Date) {
        for id in ids where gone[id] == nil { confirmed[id] = max(confirmed[id] ?? now, now) }
    }

    /// Records a lookup's answer at `now`.
    package mutating func record(_ lookup: PostLookup, at now: Date) {
        confirm(lookup.present, at: now)
        for (id, reason) in lookup.gone {
            gone[id] = Gone(reason: reason, at: now)
            confirmed[id] = nil
        }
    }

    /// The checks still worth keeping at `now`: confirmations of the posts `manifest` names and those younger than
    /// ``lookupAge`` (an older one needs a lookup anyway), gone posts for ``goneKept``.
    package func trimmed(keeping manifest: Manifest?, at now: Date) -> PostChecks {
        var checks = self
        let named = Set(manifest?.entries.map(\.tweetID) ?? [])
        checks.confirmed = confirmed.filter {
            named.contains($0.key) || $0.value > now.addingTimeInterval(-Self.lookupAge)
        }
        checks.gone = gone.filter { $0.value.at > now.addingTimeInterval(-Self.goneKept) }
        return checks
    }

    /// The instant each entry of `manifest` stops being shown: the next entry's date; the last one stays on
    /// screen until another timeline replaces it.
    static func ends(of manifest: Manifest) -> [Date] {
        manifest.entries.indices.map { index in
            index + 1 < manifest.entries.count ? manifest.entries[index + 1].date : .distantFuture
        }
    }

    /// The post ids of `manifest` still to be shown at `now` that must be looked up now: confirmed ``lookupAge``
    /// ago or more (or never).
    package func needingLookup(in manifest: Manifest, at now: Date) -> [String] {
        zip(manifest.entries, Self.ends(of: manifest)).compactMap { entry, end in
            end > now && confirmedAt(entry.tweetID).addingTimeInterval(Self.lookupAge) <= now ? entry.tweetID : nil
        }
    }

    /// When the next lookup is due for `manifest`: the earliest instant an entry still shown then was confirmed
    /// ``lookupAge`` before (nil: never, no entry outlives its confirmation by that long).
    package func nextLookup(for manifest: Manifest) -> Date? {
        zip(manifest.entries, Self.ends(of: manifest)).compactMap { entry, end -> Date? in
            let due = confirmedAt(entry.tweetID).addingTimeInterval(Self.lookupAge)
            return end > due ? due : nil
        }.min()
    }
}

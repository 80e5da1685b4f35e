package import Foundation
package import KFeedX

/// `checks.json`: when kfeed last learned that each post it may show still exists (read by a search, or confirmed
/// by a post lookup), and the posts X said are gone. X's terms want a post deleted, made protected, withheld or
/// whose author is suspended off the screen within 24 hours: a post that would be shown past ``expiryAge`` after it was
/// last confirmed is looked up ``lookupAge`` after that confirmation (or before it is shown again), and is never shown
/// once ``expiryAge`` has passed without a confirmation (`docs/timeline.md`, Deleted posts).
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

    /// How long after a confirmation a post that needs it is asked about again: early enough for a few tries (cron
    /// runs every 15 minutes) before ``expiryAge``.
    package static let lookupAge: TimeInterval = 20 * 3_600
    /// X's bound: a post deleted on X leaves every screen within this long (its last confirmation is the latest
    /// instant it is known to have existed).
    package static let limit: TimeInterval = 24 * 3_600
    /// How late a replacement may come after the instant a refresh is due: the first cron run at or after it starts
    /// within 15 minutes, and a refresh gives up after 5 (`docs/timeline.md`, Deleted posts).
    package static let runLateness: TimeInterval = 20 * 60
    /// How long after its last confirmation a post is still shown without a lookup: half an hour short of X's 24,
    /// the cron run that takes it out may come ``runLateness`` later, and 10 minutes are left for clocks. A post
    /// shown past this, or a post that could not be checked by then, is not shown.
    package static let expiryAge: TimeInterval = limit - 30 * 60
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
    /// ``expiryAge`` (an older one needs a lookup anyway), gone posts for ``goneKept``.
    package func trimmed(keeping manifest: Manifest?, at now: Date) -> PostChecks {
        var checks = self
        let named = Set(manifest?.entries.map(\.tweetID) ?? [])
        checks.confirmed = confirmed.filter {
            named.contains($0.key) || $0.value > now.addingTimeInterval(-Self.expiryAge)
        }
        checks.gone = gone.filter { $0.value.at > now.addingTimeInterval(-Self.goneKept) }
        return checks
    }

    /// The instant each entry of `manifest` stops being shown: the next entry's date; the last one stays on
    /// screen until another timeline replaces it, at `lastEnd` (the distant future when nothing is sure to replace
    /// it), which takes every entry still to come off the screen too.
    static func ends(of manifest: Manifest, lastEnd: Date = .distantFuture) -> [Date] {
        manifest.entries.indices.map { index in
            index + 1 < manifest.entries.count ? min(manifest.entries[index + 1].date, lastEnd) : lastEnd
        }
    }

    /// Whether the post of an entry that ends at `end` must be confirmed again before then: it would still be shown
    /// ``expiryAge`` after its last confirmation.
    func needsLookup(_ id: String, endingAt end: Date) -> Bool {
        end > confirmedAt(id).addingTimeInterval(Self.expiryAge)
    }

    /// The post ids of `manifest` still to be shown at `now` that must be looked up now: shown past ``expiryAge``
    /// after their confirmation (the last entry until `lastEnd`), and confirmed ``lookupAge`` ago or more (or
    /// never); with `ahead`, however recently confirmed (a timeline about to be committed: its lookups are made
    /// with its search, and billed within its share).
    package func needingLookup(
        in manifest: Manifest,
        at now: Date,
        lastEnd: Date = .distantFuture,
        ahead: Bool = false
    ) -> [String] {
        zip(manifest.entries, Self.ends(of: manifest, lastEnd: lastEnd)).compactMap { entry, end in
            end > now && needsLookup(entry.tweetID, endingAt: end)
                && (ahead || confirmedAt(entry.tweetID).addingTimeInterval(Self.lookupAge) <= now)
                ? entry.tweetID : nil
        }
    }

    /// When the next lookup is due for `manifest`: ``lookupAge`` after the confirmation of the earliest-confirmed
    /// entry that would be shown past ``expiryAge`` after it (the last entry until `lastEnd`); nil: never, every
    /// entry leaves the screen in time.
    package func nextLookup(for manifest: Manifest, lastEnd: Date = .distantFuture) -> Date? {
        zip(manifest.entries, Self.ends(of: manifest, lastEnd: lastEnd)).compactMap { entry, end -> Date? in
            needsLookup(entry.tweetID, endingAt: end)
                ? confirmedAt(entry.tweetID).addingTimeInterval(Self.lookupAge) : nil
        }.min()
    }
}

import Foundation
import KFeed

/// One request's view of time: the generation it answers from, the entry covering `now`, and how long that lasts.
///
/// When no entry covers `now` (the timeline ran out: X out of credits, an outage, a laptop asleep), the moment is
/// *stale*: it shows the last entry whose hour has passed, and lasts ``staleSeconds`` at most, so that clients come
/// back soon for the new timeline (`docs/serve.md`: stale, never blank).
struct Moment {
    /// The longest a stale answer tells a client to wait before asking again, in seconds.
    static let staleSeconds = 900.0

    /// The generation the answer comes from; nil before the cache holds a timeline.
    var generation: Generation?
    /// The instant the answer is for.
    var now: Date
    /// The entry covering `now`, else (stale) the last one whose hour has passed; nil for an empty timeline.
    var entry: Manifest.Entry?
    /// When that entry ends (the next entry's date); stale, when clients should ask again (≤ 15 minutes on).
    var until: Date?
    /// Whether `entry` no longer covers `now`: the timeline ran out, and `entry` is its last hour that passed.
    var isStale = false

    /// The moment at `now` in `generation`.
    init(generation: Generation?, now: Date) {
        self.generation = generation
        self.now = now
        if let manifest = generation?.manifest, let index = manifest.currentEntryIndex(at: now) {
            entry = manifest.entries[index]
            until = manifest.entries[index].date.addingTimeInterval(manifest.interval.seconds)
        } else if let manifest = generation?.manifest, let index = manifest.lastEntryIndex(at: now) {
            entry = manifest.entries[index]
            until = now.addingTimeInterval(min(Self.staleSeconds, manifest.interval.seconds))
            isStale = true
        }
    }

    /// Whole seconds until the entry ends, rounded up, at least 1; 0 without an entry.
    var secondsLeft: Int {
        guard let until else { return 0 }
        return max(1, Int(until.timeIntervalSince(now).rounded(.up)))
    }

    /// For answers whose bytes change when the entry does (`/current.jpg`, `/`, `/widget`, which names its end as an
    /// instant): fresh until the entry ends (an instant, so that no cache can stretch it); revalidated without an
    /// entry.
    var untilEntryEnds: CachePolicy {
        guard let until else { return .revalidate }
        return .until(until, staleSeconds: CachePolicy.hourlyStaleSeconds)
    }

    /// For answers that count the seconds to the entry's end (`/current.json`'s `refresh_rate`), and stale ones
    /// (whose end is only when to look again): kept at most ``CachePolicy/countingSeconds`` and never past the end,
    /// so that what a client reads from a cached copy tells it to come back at most that late; revalidated without
    /// an entry.
    var counting: CachePolicy {
        guard let until else { return .revalidate }
        let expires = min(until, now.addingTimeInterval(CachePolicy.countingSeconds))
        return .until(expires, staleSeconds: CachePolicy.hourlyStaleSeconds)
    }

    /// For answers whose bytes do not change at the hour (`/timeline.json`, a file asked for without its version):
    /// one entry's interval, and as long again stale while it is fetched anew, so that a cache asks once per
    /// interval, never all at once at the hour.
    var lasting: CachePolicy {
        guard let manifest = generation?.manifest else { return .revalidate }
        let interval = manifest.interval.seconds
        return .until(now.addingTimeInterval(interval), staleSeconds: Int(interval))
    }

    /// For answers computed per request: the later of the manifest's mtime and the entry's start.
    var modified: Date {
        let written = generation?.manifestFile.modified ?? now
        guard let entry else { return written }
        return min(now, max(written, entry.date))
    }
}

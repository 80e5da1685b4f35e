import Foundation
import KFeed

/// One request's view of time: the generation it answers from, the entry covering `now`, and how long that lasts.
struct Moment {
    /// The generation the answer comes from; nil before the cache holds a timeline.
    var generation: Generation?
    /// The instant the answer is for.
    var now: Date
    /// The entry covering `now`, if any.
    var entry: Manifest.Entry?
    /// When that entry ends: the next entry's date.
    var until: Date?

    /// The moment at `now` in `generation`.
    init(generation: Generation?, now: Date) {
        self.generation = generation
        self.now = now
        if let manifest = generation?.manifest, let index = manifest.currentEntryIndex(at: now) {
            entry = manifest.entries[index]
            until = manifest.entries[index].date.addingTimeInterval(manifest.interval.seconds)
        }
    }

    /// Whole seconds until the entry ends, rounded up, at least 1; 0 without an entry.
    var secondsLeft: Int {
        guard let until else { return 0 }
        return max(1, Int(until.timeIntervalSince(now).rounded(.up)))
    }

    /// `max-age` = the seconds until the current entry ends; `no-cache` without one.
    var cacheControl: String {
        entry == nil ? "no-cache" : "max-age=\(secondsLeft)"
    }

    /// For answers computed per request: the later of the manifest's mtime and the entry's start.
    var modified: Date {
        let written = generation?.manifestFile.modified ?? now
        guard let entry else { return written }
        return min(now, max(written, entry.date))
    }
}

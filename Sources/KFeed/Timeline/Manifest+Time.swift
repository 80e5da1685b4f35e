public import Foundation

extension Manifest {
    /// The entry whose interval covers `date`: the last entry dated at or before it, if `date` is before that
    /// entry's end (its date plus the interval).
    public func currentEntryIndex(at date: Date) -> Int? {
        guard let index = entries.lastIndex(where: { $0.date <= date }) else { return nil }
        return date < entries[index].date.addingTimeInterval(interval.seconds) ? index : nil
    }

    /// The entry to show at `date` when none covers it (`docs/serve.md`: stale, never blank): the last entry whose
    /// hour has begun (the one whose hour passed most recently), else the first; nil for an empty timeline.
    public func lastEntryIndex(at date: Date) -> Int? {
        guard !entries.isEmpty else { return nil }
        return entries.lastIndex { $0.date <= date } ?? 0
    }

    /// Whether the timeline's reload policy asks for a new one at `date` (`reload_after` reached; never for
    /// `never`). The one reading of `reload_after`: the refresh's due-ness, the printed schedule and the preview.
    public func wantsReload(at date: Date) -> Bool {
        reloadAfter.map { date >= $0 } ?? false
    }
}

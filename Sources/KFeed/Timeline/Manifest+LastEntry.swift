public import Foundation

extension Manifest {
    /// The entry to show at `date` when none covers it (`DESIGN.md` §5: stale, never blank): the last entry whose
    /// hour has begun (the one whose hour passed most recently), else the first; nil for an empty timeline.
    public func lastEntryIndex(at date: Date) -> Int? {
        guard !entries.isEmpty else { return nil }
        return entries.lastIndex { $0.date <= date } ?? 0
    }
}

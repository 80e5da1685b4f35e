package import Foundation

extension Manifest {
    /// The timeline without the entries `isRemoved` picks, the rest moved up so that no hour is left empty: the
    /// entries before the current one keep their dates; from the current entry's date on, the remaining entries follow
    /// one per interval in their order (a removed current entry gives its hour to the next at once). An `atEnd`
    /// reload moves with the last entry (due at once when none is left from now on); other policies keep theirs.
    /// - Parameters:
    ///   - now: the instant the change is made.
    ///   - reason: why a timeline left with no entry is empty.
    ///   - isRemoved: picks the entries to take out.
    /// - Returns: the new timeline and the entries taken out; nil when `isRemoved` picks none.
    package func removing(
        now: Date,
        reason: String,
        where isRemoved: (Entry) -> Bool
    ) -> (manifest: Manifest, removed: [Entry])? {
        let removed = entries.filter(isRemoved)
        guard !removed.isEmpty else { return nil }
        let start = entries.lastIndex { $0.date <= now } ?? 0
        let earlier = entries[..<start].filter { !isRemoved($0) }
        var later = entries[start...].filter { !isRemoved($0) }
        let first = entries[start].date
        for index in later.indices { later[index].date = first.addingTimeInterval(Double(index) * interval.seconds) }
        var manifest = self
        manifest.entries = earlier + later
        if case .atEnd = policy { manifest.reloadAfter = later.last.map { max($0.date, now) } ?? now }
        if manifest.entries.isEmpty { manifest.emptyReason = reason }
        return (manifest, removed)
    }
}

import Foundation

extension QuietHours {
    /// How a feed's quiet hours change its due-ness (`docs/timeline.md`, "Quiet hours"):
    ///
    /// - inside them nothing is due, whatever the timeline says, until their end;
    /// - a refresh that falls due inside them waits until their end;
    /// - in the last interval before they begin, a timeline that would run out before the first interval after
    ///   their end (the morning's first picture) is due, once: made then, its entries cover the night and the
    ///   panel's wake, so that the picture at the end of the night does not wait for the first run after it.
    struct Night {
        var hours: QuietHours
        var zone: TimeZone

        init(_ hours: QuietHours, zone: TimeZone) {
            self.hours = hours
            self.zone = zone
        }

        /// `plain` (the due-ness without quiet hours) for a feed with these quiet hours.
        func dueness(_ plain: Refresher.Dueness, manifest: Manifest?, now: Date) -> Refresher.Dueness {
            if let end = hours.end(ofQuietAt: now, in: zone) { return Refresher.Dueness(isDue: false, until: end) }
            var due = plain
            if !due.isDue, let eve = eve(of: manifest, now: now) {
                if now >= eve { return Refresher.Dueness(isDue: true) }
                due.until = min(due.until ?? eve, eve)
            }
            if !due.isDue, let until = due.until, let end = hours.end(ofQuietAt: until, in: zone) {
                due.until = end
            }
            return due
        }

        /// The instant from which `manifest` is due before the coming night, when it needs to be: it reloads at all
        /// (not `never`), has entries, would run out before the night's end plus one interval, and was made before
        /// the last interval before the night (so that the rule refreshes once, however short the timeline).
        func eve(of manifest: Manifest?, now: Date) -> Date? {
            guard let manifest, manifest.reloadAfter != nil, let last = manifest.entries.last else { return nil }
            let interval = manifest.interval.seconds
            let start = hours.nextStart(after: now, in: zone)
            guard let end = hours.end(ofQuietAt: start, in: zone) else { return nil }
            let eve = start.addingTimeInterval(-interval)
            let coverage = last.date.addingTimeInterval(interval)
            guard coverage < end.addingTimeInterval(interval), manifest.generatedAt < eve else { return nil }
            return eve
        }
    }
}

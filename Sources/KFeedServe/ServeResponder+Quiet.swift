import Foundation
import KFeed

/// Quiet hours on the server's side: panels and clients that ask during a feed's quiet hours are told to come back
/// when they end (`docs/timeline.md`, "Quiet hours").
extension ServeResponder {
    /// The `refresh_rate` a client is told (`/api/display`, `/trmnl/redirect.json`, `/current.json`): during the
    /// feed's quiet hours the whole seconds until they end, rounded up (the panel sleeps through the night and
    /// wakes for the morning's picture); otherwise the seconds until the entry ends (``Moment/secondsLeft``).
    func refreshRate(_ moment: Moment, feed: ServedFeed) -> Int {
        guard let quiet = feed.quietHours, let end = quiet.end(ofQuietAt: moment.now, in: feed.timeZone) else {
            return moment.secondsLeft
        }
        return max(1, Int(end.timeIntervalSince(moment.now).rounded(.up)))
    }
}

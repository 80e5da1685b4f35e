public import Foundation
package import KFeedBase
package import KFeedX

/// `state.json`: what the next refresh needs to decide whether it may ask X again, and what went wrong last.
public struct RefreshState: Codable, Sendable, Hashable {
    /// The last failure.
    public struct Failure: Codable, Sendable, Hashable {
        /// The error's class (`rateLimited`, `transport`, …).
        public var kind: String
        /// Its one-line message (never a secret).
        public var message: String
        /// When it happened.
        public var at: Date

        private enum CodingKeys: String, CodingKey {
            case kind = "class"
            case message, at
        }
    }

    /// The schema version.
    public var schema = 1
    /// When the current timeline wants a reload (the manifest's, for readers that do not decode the manifest).
    public var reloadAfter: Date?
    /// No request before this instant (back-off, rate-limit reset, usage-cap period); `--force` ignores it.
    public var retryAfter: Date?
    /// The last failure, cleared by a success.
    public var lastError: Failure?
    /// The rate-limit figures of the last response.
    package var rateLimit: RateLimit?
    /// The newest post id the last successful search returned.
    public var sinceID: String?
    /// The `api-version` header of the last search response, when X sent one.
    public var apiVersion: String?
    /// Failures since the last success.
    public var consecutiveFailures = 0
    /// The spend cap (`[budget]` in the feeds file) left too few posts for the last refresh: it read what the cap
    /// allowed (or nothing) and made its timeline from the posts in hand; more are allowed from this instant.
    public var budgetSpentUntil: Date?
    /// When the timeline's posts are next asked about (a post lookup: is each still on X?), so that the cron run
    /// that decides due-ness reads this file alone (`checks.json` says which posts).
    public var lookupDue: Date?

    /// An empty state (no refresh yet).
    package init() {}

    private enum CodingKeys: String, CodingKey {
        case schema
        case reloadAfter = "reload_after"
        case sinceID = "since_id"
        case retryAfter = "retry_after"
        case lastError = "last_error"
        case rateLimit = "rate_limit"
        case apiVersion = "api_version"
        case consecutiveFailures = "consecutive_failures"
        case budgetSpentUntil = "budget_spent_until"
        case lookupDue = "lookup_due"
    }

    /// The longest wait kfeed ever schedules: the back-off's cap.
    public static let maxBackoff: TimeInterval = 6 * 3_600

    /// The back-off after `failures` consecutive failures: 15 minutes, doubling, at most ``maxBackoff``.
    package static func backoff(afterFailures failures: Int) -> TimeInterval {
        let exponent = min(max(failures, 1) - 1, 10)
        return min(15 * 60 * pow(2, Double(exponent)), maxBackoff)
    }

    /// Records a failure at `now` and when to ask again:
    /// - a usage cap: the start of the next UTC day;
    /// - no credits left: ``maxBackoff`` ahead (only a person adding credits helps; `--force` tries sooner);
    /// - a rate-limit reset still ahead: that reset, but never more than ``maxBackoff`` ahead (a wrong host clock
    ///   or a bogus header must not park the feed for years);
    /// - anything else, or a reset already past: the back-off;
    /// and never sooner than ``TimelineBuilder/minimumWait``.
    package mutating func recordFailure(_ error: KFeedError, now: Date) {
        consecutiveFailures += 1
        let backoff = now.addingTimeInterval(Self.backoff(afterFailures: consecutiveFailures))
        let cap = now.addingTimeInterval(Self.maxBackoff)
        var retry = backoff
        if error.code == .usageCapped {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC") ?? .gmt
            retry =
                calendar.nextDate(after: now, matching: DateComponents(hour: 0, minute: 0), matchingPolicy: .nextTime)
                ?? backoff
        } else if error.code == .creditsDepleted {
            retry = cap
        } else if let reset = error.retryNotBefore, reset > now {
            retry = min(reset, cap)
        }
        retryAfter = max(retry, now.addingTimeInterval(TimelineBuilder.minimumWait))
        lastError = Failure(kind: error.code.description, message: error.message, at: now)
    }

    /// Records a success: failures and the retry instant cleared, the manifest's reload date and the newest post
    /// id kept.
    package mutating func recordSuccess(_ manifest: Manifest, newestPostID: String?) {
        consecutiveFailures = 0
        retryAfter = nil
        lastError = nil
        reloadAfter = manifest.reloadAfter
        sinceID = newestPostID ?? sinceID
    }
}

public import Foundation

/// `state.json`: what the next refresh needs to decide whether it is due, and what went wrong last.
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
    /// When the current timeline wants a reload (copied from the manifest).
    public var reloadAfter: Date?
    /// No request before this instant (back-off, rate-limit reset, usage-cap period); `--force` ignores it.
    public var retryAfter: Date?
    /// The newest post id seen by the last successful search.
    public var sinceID: String?
    /// The last failure, cleared by a success.
    public var lastError: Failure?
    /// The rate-limit figures of the last response.
    public var rateLimit: RateLimit?
    /// Failures since the last success.
    public var consecutiveFailures = 0
    /// When the last refresh succeeded.
    public var lastSuccess: Date?

    /// An empty state (no refresh yet).
    public init() {}

    private enum CodingKeys: String, CodingKey {
        case schema
        case reloadAfter = "reload_after"
        case retryAfter = "retry_after"
        case sinceID = "since_id"
        case lastError = "last_error"
        case rateLimit = "rate_limit"
        case consecutiveFailures = "consecutive_failures"
        case lastSuccess = "last_success"
    }

    /// The back-off after `failures` consecutive failures: 15 minutes, doubling, at most 6 hours.
    public static func backoff(afterFailures failures: Int) -> TimeInterval {
        let exponent = min(max(failures, 1) - 1, 10)
        return min(15 * 60 * pow(2, Double(exponent)), 6 * 3_600)
    }

    /// Records a failure at `now`: the retry instant is the error's own (rate-limit reset), the start of the next
    /// UTC day for a usage cap, else the back-off — never earlier than the back-off.
    public mutating func recordFailure(_ error: KFeedError, now: Date) {
        consecutiveFailures += 1
        let backoff = now.addingTimeInterval(Self.backoff(afterFailures: consecutiveFailures))
        var retry = backoff
        if error.code == .usageCapped {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC") ?? .gmt
            retry =
                calendar.nextDate(after: now, matching: DateComponents(hour: 0, minute: 0), matchingPolicy: .nextTime)
                ?? backoff
        } else if let reset = error.retryNotBefore, reset > now {
            retry = reset
        }
        retryAfter = retry
        lastError = Failure(kind: error.code.description, message: error.message, at: now)
    }

    /// Records a success: failures cleared, the reload date kept.
    public mutating func recordSuccess(_ manifest: Manifest, sinceID: String?, rateLimit: RateLimit?, now: Date) {
        consecutiveFailures = 0
        retryAfter = nil
        lastError = nil
        reloadAfter = manifest.reloadAfter
        self.sinceID = sinceID ?? self.sinceID
        self.rateLimit = rateLimit ?? self.rateLimit
        lastSuccess = now
    }
}

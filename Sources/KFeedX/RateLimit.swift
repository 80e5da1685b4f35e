package import Foundation
package import KFeedHTTP

/// The rate-limit figures X sends with every response (`x-rate-limit-*`, and the optional 24-hour ones).
package struct RateLimit: Sendable, Hashable, Codable {
    /// Requests allowed per window.
    package var limit: Int?
    /// Requests left in the window.
    package var remaining: Int?
    /// When the window resets.
    package var reset: Date?
    /// Requests left today for the app (`x-app-limit-24hour-remaining`), when sent.
    package var appRemaining24Hours: Int?

    private enum CodingKeys: String, CodingKey {
        case limit, remaining, reset
        case appRemaining24Hours = "app_remaining_24h"
    }

    /// Reads the headers of a response; nil when it carries none.
    package init?(headers response: HTTPResponse) {
        limit = response[header: "x-rate-limit-limit"].flatMap { Int($0) }
        remaining = response[header: "x-rate-limit-remaining"].flatMap { Int($0) }
        // Epoch seconds; anything else (NaN, infinity, `1e300`, before 1970 or past 9999) is no reset at all.
        reset = response[header: "x-rate-limit-reset"].flatMap { TimeInterval($0) }.flatMap {
            (0...253_402_300_799).contains($0) ? Date(timeIntervalSince1970: $0) : nil
        }
        appRemaining24Hours = response[header: "x-app-limit-24hour-remaining"].flatMap { Int($0) }
        if limit == nil && remaining == nil && reset == nil && appRemaining24Hours == nil { return nil }
    }
}

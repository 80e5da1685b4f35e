import Foundation
import HTTPTypes
import KFeed

/// `/healthz`: 200 while every feed has a timeline covering now, else 503 with what is wrong.
extension ServeResponder {
    /// One feed's `/healthz` (without a feeds file, or `/f/NAME/healthz`).
    func health(_ moment: Moment, feed: ServedFeed) -> ServeAnswer {
        let health = Self.health(of: feed, moment: moment)
        return .json(health, status: health.isOK ? .ok : .serviceUnavailable)
    }

    /// `/healthz` with a feeds file: the default feed's fields as without one, each feed's health with the figures
    /// `kfeed status --json` prints for it (`feeds`), and the budget's (`budget`). 503 when any feed has no timeline,
    /// an empty one or a stale one; `status` and `reason` then name the first such feed (the default's own when it is
    /// one).
    func healthOfAll() -> ServeAnswer {
        let now = settings.now()
        let status = settings.status?(now)
        let all = feeds.all.map { feed in
            FeedHealth(
                name: feed.name,
                health: Self.health(of: feed, moment: Moment(generation: feed.cache.current().current, now: now)),
                figures: status?.feeds.first { $0.name == feed.name }
            )
        }
        var top = all[0].health
        if top.isOK, let failing = all.first(where: { !$0.health.isOK }) {
            top.status = failing.health.status
            top.reason = "feed \(failing.name): \(failing.health.reason ?? failing.health.status)"
        }
        return .json(
            FeedsHealth(health: top, feeds: all, budget: status?.budget),
            status: top.isOK ? .ok : .serviceUnavailable
        )
    }

    /// A feed's health at `moment`: its timeline's dates and last error (without the server's paths), and whether
    /// the timeline covers now.
    static func health(of feed: ServedFeed, moment: Moment) -> Health {
        let cache = feed.cache
        let state = cache.refreshState()
        let lastError = (cache.lastLoadError ?? state?.lastError?.message).map(cache.withoutPaths)
        guard let manifest = moment.generation?.manifest else {
            return Health(status: "no timeline", generatedAt: nil, reloadAfter: nil, lastError: lastError)
        }
        var health = Health(
            status: "ok",
            generatedAt: manifest.generatedAt,
            reloadAfter: manifest.reloadAfter,
            lastError: lastError
        )
        if moment.entry == nil {
            health.status = "empty"
            health.reason = Self.emptyTimeline(manifest)
        } else if moment.isStale, let last = manifest.entries.last {
            let end = last.date.addingTimeInterval(manifest.interval.seconds)
            health.status = "stale"
            health.reason =
                "the timeline ran out at \(InstantFormat.string(from: end)): serving its last picture; "
                + (lastError.map { "the last refresh failed: \($0)" }
                    ?? "no refresh has made a new one (run kfeed refresh)")
        }
        return health
    }
}

/// What `/healthz` answers.
struct Health: Encodable {
    var status: String
    var generatedAt: Date?
    var reloadAfter: Date?
    var lastError: String?
    /// Why the server is unhealthy though it answers (a stale or empty timeline); omitted when healthy.
    var reason: String?

    /// Whether the timeline covers now.
    var isOK: Bool { status == "ok" }

    enum CodingKeys: String, CodingKey {
        case status, reason
        case generatedAt = "generated_at"
        case reloadAfter = "reload_after"
        case lastError = "last_error"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(status, forKey: .status)
        try container.encode(generatedAt, forKey: .generatedAt)
        try container.encode(reloadAfter, forKey: .reloadAfter)
        try container.encode(lastError, forKey: .lastError)
        try container.encodeIfPresent(reason, forKey: .reason)
    }
}

/// One feed in `/healthz`'s `feeds`: what `kfeed status --json` prints for it, and its health.
struct FeedHealth: Encodable {
    var name: String
    var health: Health
    /// Its figures from the feeds' status; nil when the server has none.
    var figures: FeedsStatus.Feed?

    private enum CodingKeys: String, CodingKey {
        case name, status, reason
        case generatedAt = "generated_at"
        case reloadAfter = "reload_after"
        case lastError = "last_error"
    }

    func encode(to encoder: any Encoder) throws {
        if var figures {
            figures.lastError = health.lastError  // the same message, without the server's paths
            try figures.encode(to: encoder)
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        if figures == nil {
            try container.encode(name, forKey: .name)
            try container.encode(health.lastError, forKey: .lastError)
        }
        try container.encode(health.status, forKey: .status)
        try container.encodeIfPresent(health.reason, forKey: .reason)
        try container.encode(health.generatedAt, forKey: .generatedAt)
        try container.encode(health.reloadAfter, forKey: .reloadAfter)
    }
}

/// `/healthz` with a feeds file: the default feed's fields (its `status` and `reason` those of the first feed that is
/// not ok), then `feeds` and `budget`.
struct FeedsHealth: Encodable {
    var health: Health
    var feeds: [FeedHealth]
    var budget: FeedsStatus.Spending?

    private enum CodingKeys: String, CodingKey {
        case feeds, budget
    }

    func encode(to encoder: any Encoder) throws {
        try health.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(feeds, forKey: .feeds)
        try container.encodeIfPresent(budget, forKey: .budget)
    }
}

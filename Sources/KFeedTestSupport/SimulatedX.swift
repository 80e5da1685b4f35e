package import Foundation
import KFeed
package import KFeedHTTP
import KFeedImages

/// X over time, for tests and the economy benchmark: a recent-search endpoint whose posts keep arriving at a
/// steady rate, honouring `max_results`, `since_id`, `until_id`, `next_token` and the 7-day window, and the images
/// and avatars its posts name. It counts what a refresh costs: requests, and posts read per UTC day (X bills each
/// post once per UTC day).
///
/// Post *n* is created at `origin + n × 86,400 / postsPerDay` (the origin is 8 days before `start`, so a backlog
/// exists) with id `1859170000000000000 + n × 1000`. Posts are like the feed's: every tenth is sensitive, every
/// twentieth an animated GIF, every third by one of five prolific authors (the author cap holds some back), and every
/// 97th shows the photo of the post before it again under its own media key (a repost).
package final class SimulatedX: HTTPTransport, @unchecked Sendable {
    /// What one UTC day cost.
    package struct Day: Sendable, Equatable {
        /// Search requests.
        package var requests = 0
        /// Distinct posts searches returned.
        package var postsRead = 0
        /// Post lookup requests (the deleted-post checks).
        package var lookups = 0
        /// Distinct posts lookups returned.
        package var postsLookedUp = 0
        /// Distinct posts returned by searches and lookups together (what X bills: a post once a UTC day).
        package var postsBilled = 0
        /// Distinct users searches returned (the expanded authors).
        package var usersRead = 0
    }

    /// The first instant the simulation runs at.
    package let start: Date
    /// New posts per day.
    package let postsPerDay: Int

    // `@unchecked Sendable`: every mutable property is touched under `lock` only.
    private let lock = NSLock()
    private var clock: Date
    private var failing = false
    private var limitedUntil: Date?
    private var pictureKind = Pictures.blocks
    private var silent: Range<Date>?
    private var empty: Range<Date>?
    /// Ids read per day (post number × 1000 + the query's index): X bills each post once per UTC day.
    private var readByDay: [Int: Set<Int>] = [:]
    /// The queries seen, in order: each has its own posts (distinct ids and media keys, the same pictures), as
    /// several feeds searching different topics would.
    private var queries: [String] = []
    private var requestsByDay: [Int: Int] = [:]
    private var searches: [[String: String]] = []
    private var returned: [Int] = []
    private var served: [String] = []
    private var lookupsByDay: [Int: Int] = [:]
    private var lookedUpByDay: [Int: Set<Int>] = [:]
    private var usersByDay: [Int: Set<Int>] = [:]
    private var deletedPosts: Set<Int> = []
    private var lookupIDs: [[String]] = []

    private static let firstID = 1_859_170_000_000_000_000
    private static let window: TimeInterval = 7 * 86_400

    /// Creates the simulation at `start`.
    package init(start: Date, postsPerDay: Int) {
        self.start = start
        self.postsPerDay = max(1, postsPerDay)
        self.clock = start
    }

    /// The simulated instant; answers are what X would return at this instant.
    package var now: Date {
        get { lock.withLock { clock } }
        set { lock.withLock { clock = newValue } }
    }

    /// What the posts' photos look like.
    package enum Pictures: Sendable {
        /// A grid of seeded colour blocks each (as different as two photos).
        case blocks
        /// Members of one ``LayoutFamily``: one composition, seeded colours and content.
        case layout(LayoutFamily)
    }

    /// What the posts' photos look like (default: blocks).
    package var pictures: Pictures {
        get { lock.withLock { pictureKind } }
        set { lock.withLock { pictureKind = newValue } }
    }

    /// Posts created in this span never exist: a topic with nothing new.
    package var silence: Range<Date>? {
        get { lock.withLock { silent } }
        set { lock.withLock { silent = newValue } }
    }

    /// Searches made in this span find nothing (200, `result_count` 0).
    package var emptySearches: Range<Date>? {
        get { lock.withLock { empty } }
        set { lock.withLock { empty = newValue } }
    }

    /// When true, every search answers 503.
    /// Until this instant every search is answered 429 with the instant as `x-rate-limit-reset`.
    package var rateLimitedUntil: Date? {
        get { lock.withLock { limitedUntil } }
        set { lock.withLock { limitedUntil = newValue } }
    }

    package var isFailing: Bool {
        get { lock.withLock { failing } }
        set { lock.withLock { failing = newValue } }
    }

    /// Post numbers deleted on X: searches no longer return them, lookups answer "Not Found".
    package var deleted: Set<Int> {
        get { lock.withLock { deletedPosts } }
        set { lock.withLock { deletedPosts = newValue } }
    }

    /// The ids of every post lookup received, in order.
    package var lookupRequests: [[String]] { lock.withLock { lookupIDs } }

    /// The query parameters of every search received, in order.
    package var searchParameters: [[String: String]] { lock.withLock { searches } }

    /// Every post number returned, in order, repeats included (a post read twice is billed twice on two days).
    package var postsReturned: [Int] { lock.withLock { returned } }

    /// The paths of every picture downloaded, in order (a path twice: a picture fetched again).
    package var picturesServed: [String] { lock.withLock { served } }

    /// The cost of each UTC day that saw a request, oldest first (day 0 is `start`'s).
    package var days: [Day] {
        lock.withLock {
            let last = max(requestsByDay.keys.max() ?? 0, readByDay.keys.max() ?? 0, lookupsByDay.keys.max() ?? 0)
            return (0...last).map { day in
                Day(
                    requests: requestsByDay[day] ?? 0,
                    postsRead: readByDay[day]?.count ?? 0,
                    lookups: lookupsByDay[day] ?? 0,
                    postsLookedUp: lookedUpByDay[day]?.count ?? 0,
                    postsBilled: (readByDay[day] ?? []).union(lookedUpByDay[day] ?? []).count,
                    usersRead: usersByDay[day]?.count ?? 0
                )
            }
        }
    }

    private var origin: Date { start.addingTimeInterval(-8 * 86_400) }

    private func created(_ n: Int) -> Date {
        origin.addingTimeInterval(Double(n) * 86_400 / Double(postsPerDay))
    }

    /// The newest post number at `date`.
    private func newest(at date: Date) -> Int {
        Int((date.timeIntervalSince(origin) * Double(postsPerDay) / 86_400).rounded(.down))
    }

    private func day(of date: Date) -> Int {
        Int(
            (date.timeIntervalSince1970 / 86_400).rounded(.down) - (start.timeIntervalSince1970 / 86_400).rounded(.down)
        )
    }

    package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try respond(request)
    }

    /// Answers `request` at once (the loopback server's handler calls it on its own thread).
    package func respond(_ request: HTTPRequest) throws -> HTTPResponse {
        let path = request.url.path
        if path == RecentSearchRequest.path { return try search(request) }
        if path == PostLookupRequest.path { return try lookUp(request) }
        if path == UsageReport.path { return try usage(request) }
        if path.hasPrefix("/media/SIM"), let n = Int(path.dropFirst("/media/SIM".count).prefix { $0.isNumber }) {
            lock.withLock { served.append(path) }
            // A repost shows the photo before it, encoded again at another size.
            let seed = Self.picture(ofPost: n)
            let width = seed == n ? 800 : 640
            let pixels =
                switch pictures {
                case .blocks: TestJPEG.blocks(seed: seed, width: width, height: width * 3 / 4)
                case .layout(let family): family.picture(seed: seed, width: width, height: width * 3 / 4)
                }
            let body = try TestJPEG.jpeg(pixels, width: width, height: width * 3 / 4)
            return HTTPResponse(status: 200, body: body, url: request.url)
        }
        let avatar = JPEGThumbnailer.placeholder(size: ImageSize(width: 96, height: 96))
        return HTTPResponse(status: 200, body: avatar, url: request.url)
    }

    /// The picture post *n* shows: its own, or for a repost (every 97th post) the one before it.
    package static func picture(ofPost n: Int) -> Int {
        n % 97 == 0 ? n - 1 : n
    }

    /// The post number of a media key or post id of the simulation.
    package static func post(ofID id: String) -> Int? {
        Int(id.split(separator: "_").last ?? "").map { ($0 - firstID) / 1000 }
    }

    private func search(_ request: HTTPRequest) throws -> HTTPResponse {
        let parameters = ReplayTransport.parameters(of: request.url)
        let (now, failing) = lock.withLock {
            searches.append(parameters)
            requestsByDay[day(of: clock), default: 0] += 1
            return (clock, self.failing)
        }
        if let reset = lock.withLock({ limitedUntil }), now < reset {
            let body = Data(#"{"title":"Too Many Requests","detail":"Too Many Requests","status":429}"#.utf8)
            let headers = [HTTPHeader("x-rate-limit-reset", String(Int(reset.timeIntervalSince1970)))]
            return HTTPResponse(status: 429, headers: headers, body: body, url: request.url)
        }
        if failing {
            let body = Data(#"{"title":"Service Unavailable","detail":"Service Unavailable","status":503}"#.utf8)
            return HTTPResponse(status: 503, body: body, url: request.url)
        }
        func number(_ id: String?) -> Int? { id.flatMap(Self.post(ofID:)) }
        let maxResults = min(100, max(10, Int(parameters["max_results"] ?? "") ?? 10))
        let topic = lock.withLock {
            let query = parameters["query"] ?? ""
            if let index = queries.firstIndex(of: query) { return index }
            queries.append(query)
            return queries.count - 1
        }
        var upper = newest(at: now)
        if let until = number(parameters["until_id"]) { upper = min(upper, until - 1) }
        if let token = parameters["next_token"], let below = Int(token.dropFirst()) { upper = min(upper, below - 1) }
        var lower = max(0, newest(at: now.addingTimeInterval(-Self.window)) + 1)
        if let since = number(parameters["since_id"]) { lower = max(lower, since + 1) }
        let (silent, empty) = lock.withLock { (self.silent, self.empty) }
        let deleted = lock.withLock { deletedPosts }
        let exists = { (n: Int) in
            !(silent?.contains(self.created(n)) ?? false) && !(empty?.contains(now) ?? false) && !deleted.contains(n)
        }
        let numbers =
            upper >= lower
            ? Array(stride(from: upper, through: lower, by: -1).lazy.filter(exists).prefix(maxResults)) : []
        lock.withLock {
            readByDay[day(of: now), default: []].formUnion(numbers.map { $0 * 1000 + topic })
            usersByDay[day(of: now), default: []].formUnion(numbers.map(author))
            returned += numbers
        }
        var meta: [String: Any] = ["result_count": numbers.count]
        if let first = numbers.first, let last = numbers.last {
            meta["newest_id"] = String(Self.firstID + first * 1000 + topic)
            meta["oldest_id"] = String(Self.firstID + last * 1000 + topic)
            if last > lower { meta["next_token"] = "b\(last)" }
        }
        var object: [String: Any] = ["meta": meta]
        if !numbers.isEmpty {
            object["data"] = numbers.map { post($0, topic: topic) }
            object["includes"] = [
                "media": numbers.map { media($0, topic: topic) },
                "users": Set(numbers.map(author)).sorted().map(user),
            ]
        }
        return try Self.answer(object, to: request)
    }

    /// A 200 answer to `request` with `object` as its JSON body (keys sorted).
    private static func answer(_ object: Any, to request: HTTPRequest) throws -> HTTPResponse {
        let body = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return HTTPResponse(
            status: 200,
            headers: [HTTPHeader("content-type", "application/json")],
            body: body,
            url: request.url
        )
    }

    /// `GET /2/tweets?ids=…`: every id of the simulation that was created and not deleted is in `data` (id and
    /// text, X's defaults), the others are "Not Found" in `errors`.
    private func lookUp(_ request: HTTPRequest) throws -> HTTPResponse {
        let parameters = ReplayTransport.parameters(of: request.url)
        let ids = (parameters["ids"] ?? "").split(separator: ",").map(String.init)
        let (now, failing, deleted) = lock.withLock {
            lookupIDs.append(ids)
            lookupsByDay[day(of: clock), default: 0] += 1
            return (clock, self.failing, deletedPosts)
        }
        if failing {
            let body = Data(#"{"title":"Service Unavailable","detail":"Service Unavailable","status":503}"#.utf8)
            return HTTPResponse(status: 503, body: body, url: request.url)
        }
        var data: [[String: Any]] = []
        var errors: [[String: Any]] = []
        var found: [Int] = []
        for id in ids {
            if let n = Self.post(ofID: id), n >= 0, n <= newest(at: now), !deleted.contains(n),
                String(Self.firstID + n * 1000 + (Int(id) ?? 0) % 1000) == id
            {
                data.append(["id": id, "text": "post \(n)", "edit_history_tweet_ids": [id]])
                found.append(n * 1000 + (Int(id) ?? 0) % 1000)
            } else {
                errors.append([
                    "value": id, "resource_id": id, "resource_type": "tweet", "parameter": "ids",
                    "title": "Not Found Error", "detail": "Could not find tweet with ids: [\(id)].",
                    "type": "https://api.twitter.com/2/problems/resource-not-found",
                ])
            }
        }
        lock.withLock { lookedUpByDay[day(of: now), default: []].formUnion(found) }
        var object: [String: Any] = [:]
        if !data.isEmpty { object["data"] = data }
        if !errors.isEmpty { object["errors"] = errors }
        return try Self.answer(object, to: request)
    }

    /// `GET /2/usage/tweets`: the posts billed per UTC day so far (searches and lookups), as X's counts (strings).
    private func usage(_ request: HTTPRequest) throws -> HTTPResponse {
        let days = self.days
        let midnight = (start.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400
        let usage = days.enumerated().map { index, day in
            [
                "date": String(
                    InstantFormat.string(from: Date(timeIntervalSince1970: midnight + Double(index) * 86_400))
                        .prefix(10)
                ) + "T00:00:00.000Z",
                "usage": String(day.postsBilled),
            ]
        }
        let object: [String: Any] = [
            "data": [
                "cap_reset_day": 1, "project_cap": "3000000", "project_id": "1790000000000000000",
                "project_usage": String(days.map(\.postsBilled).reduce(0, +)),
                "daily_project_usage": ["project_id": "1790000000000000000", "usage": usage],
            ]
        ]
        return try Self.answer(object, to: request)
    }

    private func author(_ n: Int) -> Int { n % 3 == 0 ? n % 5 : 5 + n % 40 }

    private func post(_ n: Int, topic: Int) -> [String: Any] {
        [
            "id": String(Self.firstID + n * 1000 + topic),
            "text": "post \(n)",
            "author_id": String(2_000_000 + author(n)),
            "created_at": InstantFormat.string(from: created(n)),
            "attachments": ["media_keys": ["3_\(Self.firstID + n * 1000 + topic)"]],
            "possibly_sensitive": n % 10 == 7,
            "lang": "ko",
        ]
    }

    private func media(_ n: Int, topic: Int) -> [String: Any] {
        let key = "3_\(Self.firstID + n * 1000 + topic)"
        if n % 20 == 11 {
            return [
                "media_key": key, "type": "animated_gif", "width": 480, "height": 270,
                "preview_image_url": "https://pbs.twimg.com/tweet_video_thumb/SIM\(n).jpg",
            ]
        }
        return [
            "media_key": key, "type": "photo", "width": 800, "height": 600,
            "url": "https://pbs.twimg.com/media/SIM\(n).jpg",
        ]
    }

    private func user(_ author: Int) -> [String: Any] {
        [
            "id": String(2_000_000 + author), "name": "Author \(author)", "username": "author\(author)",
            "profile_image_url": "https://pbs.twimg.com/profile_images/\(author)/a_normal.jpg",
        ]
    }
}

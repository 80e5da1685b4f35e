package import Foundation
package import KFeedBase
package import KFeedHTTP
package import Logging

/// The recent-search client: pages while the caller wants more posts and the page budget allows, turns X's
/// answers into results or the contract's errors, and retries what is temporary with bounded back-off. It knows
/// nothing of timelines.
package struct XClient: Sendable {
    /// Where and how to search.
    package struct Configuration: Sendable {
        /// The API host, `https://api.x.com` unless tests or `--api-base` say otherwise.
        package var baseURL: URL
        /// The token; nil only for replay, which needs none.
        package var bearerToken: BearerToken?
        /// How many pages one search may read at most.
        package var pageBudget: Int
        /// How many tries a page gets on 5xx and network errors.
        package var maxTries: Int
        /// The longest total wait between tries of one page.
        package var maxTotalBackoff: Duration
        /// The wait before the second try; it doubles for each further try.
        package var initialBackoff: Duration
        /// Bounds on each page request.
        package var requestTimeout: Duration

        /// The production API host.
        package static let defaultBaseURL = URL(string: "https://api.x.com") ?? URL(fileURLWithPath: "/")

        /// Creates a configuration.
        package init(
            baseURL: URL = Self.defaultBaseURL,
            bearerToken: BearerToken? = nil,
            pageBudget: Int = 3,
            maxTries: Int = 3,
            maxTotalBackoff: Duration = .seconds(60),
            initialBackoff: Duration = .seconds(2),
            requestTimeout: Duration = .seconds(30)
        ) {
            self.baseURL = baseURL
            self.bearerToken = bearerToken
            self.pageBudget = pageBudget
            self.maxTries = maxTries
            self.maxTotalBackoff = maxTotalBackoff
            self.initialBackoff = initialBackoff
            self.requestTimeout = requestTimeout
        }
    }

    /// What one search produced.
    package struct Outcome: Sendable {
        /// The merged pages.
        package var results: SearchResults
        /// The rate-limit figures of the last response.
        package var rateLimit: RateLimit?
        /// The `api-version` header of the last response, when X sent one.
        package var apiVersion: String?
        /// The posts the pages held (what X bills).
        package var postsRead = 0
        /// Every page: its body as X sent it (what a later refresh may still choose from), and that page alone
        /// joined (so that no one decodes a body twice).
        package var pages: [(body: Data, results: SearchResults)] = []
    }

    /// The configuration.
    package var configuration: Configuration
    private let transport: any HTTPTransport
    private let sleep: @Sendable (Duration) async throws -> Void
    private let logger: Logger

    /// Creates a client.
    /// - Parameters:
    ///   - configuration: host, token, budgets.
    ///   - transport: `CurlTransport` live, `ReplayTransport` offline.
    ///   - sleep: waits between tries (tests pass one that records instead of waiting).
    ///   - logger: one debug line per request and retry; never the token.
    package init(
        configuration: Configuration,
        transport: any HTTPTransport,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        logger: Logger = Logger(label: "kfeed")
    ) {
        self.configuration = configuration
        self.transport = transport
        self.sleep = sleep
        self.logger = logger
    }

    /// The first page's request for a search that wants `count` posts: the one place it is built (`kfeed query`
    /// prints it).
    package static func firstRequest(
        for query: RecentSearchQuery,
        wanting count: Int,
        spare: Int = 0,
        sinceID: String? = nil,
        untilID: String? = nil
    ) -> RecentSearchRequest {
        RecentSearchRequest(
            query: query,
            maxResults: RecentSearchRequest.pageSize(forEntries: count, spare: spare),
            sinceID: sinceID,
            untilID: untilID
        )
    }

    /// Searches page by page while the caller still wants posts, the pages last, and the page budget allows.
    /// - Parameters:
    ///   - query: the validated query.
    ///   - count: how many usable posts the caller wants (sizes the first page).
    ///   - spare: usable posts the caller already holds beyond `count`'s need, which stand in for the page's margin.
    ///   - sinceID: only posts newer than this id.
    ///   - untilID: only posts older than this id.
    ///   - postLimit: the most posts the search may read across its pages (X bills each post read; nil: no limit).
    ///     Pages are sized within it, and none is asked for when less than a page's minimum (10) is left.
    ///   - read: called with each page's post ids and its expanded authors' user ids as soon as the page is in, before
    ///     anything can fail (what X bills; whether X bills expanded users is not documented: kfeed counts them).
    ///   - stillWanted: after each page, how many more usable posts the caller wants given everything so far
    ///     (0 stops; it sizes the next page).
    /// - Returns: the merged pages and the last response's rate-limit figures and API version.
    /// - Throws: `KFeedError` classified by the contract's exit codes; `.apiResponse` when X dropped fields kfeed
    ///   asked for and needs.
    package func search(
        _ query: RecentSearchQuery,
        wanting count: Int,
        spare: Int = 0,
        sinceID: String? = nil,
        untilID: String? = nil,
        postLimit: Int? = nil,
        read: ([String], [String]) -> Void = { _, _ in },
        stillWanted: (SearchResults) -> Int
    ) async throws -> Outcome {
        var outcome = Outcome(results: SearchResults())
        var request = Self.firstRequest(for: query, wanting: count, spare: spare, sinceID: sinceID, untilID: untilID)
        while true {
            let left = (postLimit ?? Int.max) - outcome.postsRead
            guard left >= RecentSearchRequest.minimumPageSize else { return outcome }
            request.maxResults = min(request.maxResults, left)
            let response = try await page(request)
            outcome.rateLimit = RateLimit(headers: response) ?? outcome.rateLimit
            outcome.apiVersion = response[header: "api-version"].map { Sanitized.excerpt($0, limit: 40) }
            let page = try SearchPage.decode(response.body)
            read(page.data.map(\.id), page.includes.users.map(\.id))
            outcome.postsRead += page.data.count + page.undecodableElements
            var pageResults = SearchResults()
            pageResults.append(page)
            outcome.pages.append((response.body, pageResults))
            let missing = page.missingNeededFields
            guard missing.isEmpty else {
                throw KFeedError(
                    .apiResponse,
                    "X returned posts without \(missing.joined(separator: " and ")), which kfeed asks for "
                        + "(the API dropped the field\(missing.count == 1 ? "" : "s")); no timeline can be made from them, "
                        + "check for a kfeed update"
                )
            }
            outcome.results.append(page)
            let wanted = stillWanted(outcome.results)
            guard wanted > 0, let next = outcome.results.nextToken, outcome.results.pageCount < configuration.pageBudget
            else { return outcome }
            request = RecentSearchRequest(
                query: query,
                maxResults: RecentSearchRequest.pageSize(forEntries: wanted),
                nextToken: next,
                sinceID: sinceID,
                untilID: untilID
            )
        }
    }

    /// Asks X whether `ids` still exist and may be shown (`GET /2/tweets`, at most 100 ids a request), reading at
    /// most `postLimit` posts (X bills each post returned).
    /// - Parameters:
    ///   - ids: the post ids, each asked once.
    ///   - postLimit: the most ids asked in all (nil: all); the ids beyond it are not asked and not in the answer.
    ///   - read: called with each answer's returned post ids as soon as it is in (what X bills).
    /// - Returns: the merged answers.
    /// - Throws: `KFeedError` classified as for a search.
    package func lookUp(
        _ ids: [String],
        postLimit: Int? = nil,
        read: ([String]) -> Void = { _ in }
    ) async throws -> PostLookup {
        var seen: Set<String> = []
        let asked = Array(ids.filter { seen.insert($0).inserted }.prefix(max(0, postLimit ?? Int.max)))
        var answer = PostLookup()
        var start = 0
        while start < asked.count {
            let chunk = Array(asked[start..<min(asked.count, start + PostLookupRequest.maxIDs)])
            start += chunk.count
            let response = try await get(PostLookupRequest(ids: chunk).url(baseURL: configuration.baseURL))
            let part = try PostLookup.decode(response.body, asked: chunk)
            read(part.postsRead)
            answer.merge(part)
        }
        return answer
    }

    /// X's own count of the project's posts read (`GET /2/usage/tweets`) for the last `days` days.
    /// - Throws: `KFeedError` classified as for a search.
    package func usage(days: Int) async throws -> UsageReport {
        try UsageReport.decode(try await get(UsageReport.url(baseURL: configuration.baseURL, days: days)).body)
    }

    /// Fetches one page, retrying 5xx and network errors; returns only a 2xx response.
    func page(_ request: RecentSearchRequest) async throws -> HTTPResponse {
        try await get(request.url(baseURL: configuration.baseURL))
    }

    /// GETs `url` from the API, retrying 5xx and network errors; returns only a 2xx response.
    func get(_ url: URL) async throws -> HTTPResponse {
        var headers = [HTTPHeader("Accept", "application/json")]
        if let token = configuration.bearerToken { headers.append(token.authorization) }
        let httpRequest = HTTPRequest(
            url: url,
            headers: headers,
            maxBodyBytes: Self.maxPageBytes,
            maxRedirects: 0,
            totalTimeout: configuration.requestTimeout
        )
        var waited = Duration.zero
        var backoff = configuration.initialBackoff
        var tries = 0
        while true {
            tries += 1
            logger.debug(
                "GET \(url.absoluteString)\(configuration.bearerToken == nil ? "" : " (Authorization: Bearer [redacted])")"
            )
            let failure: KFeedError
            var retryAfter: Duration?
            do {
                let response = try await transport.send(httpRequest)
                logger.debug("HTTP \(response.status), \(response.body.count) bytes")
                if (200..<300).contains(response.status) { return response }
                failure = Self.classify(response)
                retryAfter = Self.retryAfter(response)
            } catch let error as KFeedError where error.code == .transport {
                failure = error
            }
            guard failure.code == .transport || failure.code == .serverError, tries < configuration.maxTries else {
                throw failure
            }
            let wait = max(backoff, retryAfter ?? .zero)
            guard waited + wait <= configuration.maxTotalBackoff else { throw failure }
            logger.debug("try \(tries) failed (\(failure.message)); retrying in \(wait)")
            try await sleep(wait)
            waited += wait
            backoff *= 2
        }
    }

    /// The largest search answer accepted, in decoded bytes: the transport's absolute cap for one page, whatever its
    /// compression and its chunking on the wire.
    package static let maxPageBytes = 4 << 20

    /// Turns a non-2xx response into the contract's error.
    package static func classify(_ response: HTTPResponse) -> KFeedError {
        XAPIProblem.error(
            XAPIProblem.decode(response.body),
            status: response.status,
            rateLimit: RateLimit(headers: response)
        )
    }

    /// `Retry-After` as a duration (seconds, or an HTTP date relative to the response's `Date`), when sent.
    package static func retryAfter(_ response: HTTPResponse) -> Duration? {
        guard let value = response[header: "retry-after"]?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Int(value), seconds >= 0 { return .seconds(seconds) }
        guard let date = InstantFormat.date(fromHTTPDate: value),
            let sent = response[header: "date"].flatMap({
                InstantFormat.date(fromHTTPDate: $0.trimmingCharacters(in: .whitespaces))
            })
        else { return nil }
        return .seconds(max(0, date.timeIntervalSince(sent)))
    }
}

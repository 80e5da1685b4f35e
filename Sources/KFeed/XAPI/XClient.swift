public import Foundation

/// The recent-search client: pages until the timeline is full or the page budget is spent, classifies errors
/// into the contract's codes, and retries what is temporary with bounded back-off.
public struct XClient: Sendable {
    /// Where and how to search.
    public struct Configuration: Sendable {
        /// The API host, `https://api.x.com` unless tests or `--api-base` say otherwise.
        public var baseURL: URL
        /// The token; nil only for replay, which needs none.
        public var bearerToken: BearerToken?
        /// How many pages one search may read at most.
        public var pageBudget: Int
        /// How many tries a page gets on 5xx and network errors.
        public var maxTries: Int
        /// The longest total wait between tries of one page.
        public var maxTotalBackoff: Duration
        /// The wait before the second try; it doubles for each further try.
        public var initialBackoff: Duration
        /// Bounds on each page request.
        public var requestTimeout: Duration

        /// The production API host.
        public static let defaultBaseURL = URL(string: "https://api.x.com") ?? URL(fileURLWithPath: "/")

        /// Creates a configuration.
        public init(
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
    public struct Outcome: Sendable {
        /// The merged pages.
        public var results: SearchResults
        /// The posts chosen and the reasons for the others.
        public var selection: Selection
        /// The rate-limit figures of the last response.
        public var rateLimit: RateLimit?
    }

    /// The configuration.
    public var configuration: Configuration
    private let transport: any HTTPTransport
    private let sleep: @Sendable (Duration) async throws -> Void
    private let log: @Sendable (String) -> Void

    /// Creates a client.
    /// - Parameters:
    ///   - configuration: host, token, budgets.
    ///   - transport: `CurlTransport` live, `ReplayTransport` offline.
    ///   - sleep: waits between tries (tests pass one that records instead of waiting).
    ///   - log: receives one line per request and retry; never the token.
    public init(
        configuration: Configuration,
        transport: any HTTPTransport,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.transport = transport
        self.sleep = sleep
        self.log = log
    }

    /// Searches until `builder` has its entries, the pages run out, or the page budget is spent.
    /// - Parameters:
    ///   - query: the validated query.
    ///   - builder: decides what is usable and how many entries are wanted.
    ///   - sinceID: only posts newer than this id.
    /// - Returns: the merged pages, the selection and the last rate-limit figures.
    /// - Throws: `KFeedError` classified by the contract's exit codes.
    public func search(
        _ query: RecentSearchQuery,
        for builder: TimelineBuilder,
        sinceID: String? = nil
    ) async throws
        -> Outcome
    {
        var results = SearchResults()
        var rateLimit: RateLimit?
        var request = RecentSearchRequest(
            query: query,
            maxResults: RecentSearchRequest.pageSize(forEntries: builder.entryCount),
            sinceID: sinceID
        )
        while true {
            let response = try await page(request)
            rateLimit = RateLimit(headers: response) ?? rateLimit
            try results.append(responseBody: response.body)
            let selection = builder.selection(from: results.feedItems, isExhausted: false)
            guard !selection.isFull, let next = results.nextToken, results.pageCount < configuration.pageBudget else {
                break
            }
            let missing = builder.entryCount - selection.chosen.count
            request = RecentSearchRequest(
                query: query,
                maxResults: RecentSearchRequest.pageSize(forEntries: missing),
                nextToken: next,
                sinceID: sinceID
            )
        }
        let selection = builder.selection(from: results.feedItems, isExhausted: true)
        return Outcome(results: results, selection: selection, rateLimit: rateLimit)
    }

    /// Fetches one page, retrying 5xx and network errors; returns only a 2xx response.
    public func page(_ request: RecentSearchRequest) async throws -> HTTPResponse {
        let url = request.url(baseURL: configuration.baseURL)
        var headers = [HTTPHeader("Accept", "application/json")]
        if let token = configuration.bearerToken { headers.append(token.authorization) }
        let httpRequest = HTTPRequest(
            url: url,
            headers: headers,
            maxBodyBytes: 4 << 20,
            maxRedirects: 0,
            totalTimeout: configuration.requestTimeout
        )
        var waited = Duration.zero
        var backoff = configuration.initialBackoff
        var tries = 0
        while true {
            tries += 1
            log(
                "GET \(url.absoluteString)\(configuration.bearerToken == nil ? "" : " (Authorization: Bearer [redacted])")"
            )
            let failure: KFeedError
            var retryAfter: Duration?
            do {
                let response = try await transport.send(httpRequest)
                log("HTTP \(response.status), \(response.body.count) bytes")
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
            log("try \(tries) failed (\(failure.message)); retrying in \(wait)")
            try await sleep(wait)
            waited += wait
            backoff *= 2
        }
    }

    /// Turns a non-2xx response into the contract's error.
    package static func classify(_ response: HTTPResponse) -> KFeedError {
        let problem = XAPIProblem.decode(response.body)
        let said = (problem?.summary).map { ": \(Sanitized.excerpt($0))" } ?? ""
        switch response.status {
        case 400:
            return KFeedError(
                .configuration,
                "X rejected the search request (400)\(said); check --query and the options"
            )
        case 401:
            return KFeedError(
                .unauthorized,
                "X refused the bearer token (401); check X_BEARER_TOKEN, TWITTER_BEARER_TOKEN or --token-file"
            )
        case 403:
            if problem?.reason == "client-not-enrolled" || problem?.kind == "client-not-enrolled" {
                return KFeedError(
                    .unauthorized,
                    "X refused the app (403 client-not-enrolled): attach it to a project with recent-search access"
                )
            }
            return KFeedError(.unauthorized, "X refused access (403)\(said); check the app's access level")
        case 429:
            let rateLimit = RateLimit(headers: response)
            if problem?.kind == "usage-capped" || problem?.title == "UsageCapExceeded" {
                return KFeedError(
                    .usageCapped,
                    "X's usage cap for this app is reached (429 usage-capped); kfeed waits until tomorrow, or raise the cap"
                )
            }
            let until = rateLimit?.reset.map { " until \(InstantFormat.string(from: $0))" } ?? ""
            return KFeedError(
                .rateLimited,
                "recent search is rate limited (429)\(until); kfeed retries after the reset",
                retryNotBefore: rateLimit?.reset
            )
        case 500...599:
            return KFeedError(.serverError, "X answered \(response.status)\(said); try again later")
        default:
            return KFeedError(.apiResponse, "X answered an unexpected HTTP \(response.status)\(said)")
        }
    }

    /// `Retry-After` as a duration (seconds, or an HTTP date relative to the response's `Date`), when sent.
    package static func retryAfter(_ response: HTTPResponse) -> Duration? {
        guard let value = response[header: "retry-after"]?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Int(value), seconds >= 0 { return .seconds(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value),
            let sent = response[header: "date"].flatMap(formatter.date(from:))
        else { return nil }
        return .seconds(max(0, date.timeIntervalSince(sent)))
    }
}

public import Foundation
import KFeedBase
package import KFeedHTTP
import KFeedImages
public import KFeedX
public import Logging
import Synchronization

/// The refresh use case: decides whether a refresh is due, searches, builds the timeline, fills its images and
/// commits the generation to the cache, one run at a time.
///
/// One refresh flows one way: the CLI (or the server) asks ``refresh(now:force:)``; the refresher asks the
/// `XClient` for posts, the `TimelineBuilder` for the entries, the `ImageFetcher` for the files the cache
/// lacks, and the ``CacheStore`` to commit. Due-ness is decided here only: once before the lock (reading, so that
/// a run with nothing to do writes nothing and opens no token or network library) and once under it. The client
/// and fetcher are made by `connect` only when a refresh is due.
public struct Refresher: Sendable {
    /// What a refresh did.
    public enum Outcome: Sendable {
        /// Nothing was due; no request was made and nothing written. `until` is when it will be (nil: never).
        case notDue(until: Date?)
        /// A new timeline was committed.
        case refreshed(Manifest, Summary)
        /// The search had no usable post: the last good timeline (or an empty one) stays, and a retry is scheduled.
        case noUsablePost(retryAfter: Date?)
    }

    /// Counts for the log.
    public struct Summary: Sendable, Hashable {
        /// Images and avatars downloaded and downscaled.
        public var fetched = 0
        /// Images and avatars already in the cache.
        public var reused = 0
        /// Entries or avatars shown as placeholders.
        public var placeholders = 0
        /// Files the sweep removed.
        public var removed = 0
        /// Display renders made (not reused).
        public var rendered = 0
    }

    /// What a due refresh talks to (the search client and the image fetcher): made only when a refresh is due.
    public struct Connection: Sendable {
        /// The search client.
        package var client: XClient
        /// Fetches and downscales images.
        package var images: ImageFetcher
        /// Whether the posts shown are looked up on X (deleted within a day); not with recorded answers, which
        /// cannot say.
        package var checksPosts: Bool

        /// Creates a connection.
        package init(client: XClient, images: ImageFetcher, checksPosts: Bool = true) {
            self.client = client
            self.images = images
            self.checksPosts = checksPosts
        }

        /// The live X API over libcurl.
        /// - Parameters:
        ///   - token: the app's bearer token.
        ///   - logger: progress lines at debug level.
        /// - Returns: the connection.
        /// - Throws: `KFeedError` `.transport` when libcurl cannot start.
        public static func x(token: BearerToken, logger: Logger = Logger(label: "kfeed")) throws -> Connection {
            try Connection(transport: CurlTransport(), token: token, logger: logger)
        }

        /// Recorded responses instead of the network (offline: no token, no request leaves the machine), from a
        /// directory such as `Fixtures/replay/sample`.
        /// - Returns: the connection.
        /// - Throws: `KFeedError` `.replay` when the directory holds no recording.
        public static func replay(from directory: URL, logger: Logger = Logger(label: "kfeed")) throws -> Connection {
            var connection = try Connection(
                transport: ReplayTransport(directory: directory),
                token: nil,
                logger: logger
            )
            connection.checksPosts = false
            return connection
        }

        /// A client and a fetcher sharing `transport`.
        package init(
            transport: any HTTPTransport,
            token: BearerToken?,
            baseURL: URL = XClient.Configuration.defaultBaseURL,
            pageBudget: Int = 3,
            logger: Logger
        ) {
            let configuration = XClient.Configuration(baseURL: baseURL, bearerToken: token, pageBudget: pageBudget)
            self.init(
                client: XClient(configuration: configuration, transport: transport, logger: logger),
                images: ImageFetcher(transport: transport, logger: logger)
            )
        }
    }

    /// Whether a refresh is due, and if not until when.
    public struct Dueness: Sendable, Hashable {
        /// A refresh is due now.
        public var isDue: Bool
        /// When one will be (nil: due now, or never without `--force`).
        public var until: Date?
        /// Only display renders are missing (a profile added): they are made from the timeline's pictures, with no
        /// search.
        public var rendersOnly = false
        /// Only the timeline's posts are due a lookup (is each still on X?), with no search unless one is gone.
        public var lookupOnly = false
    }

    /// What one response read, as X bills it.
    package struct Billed: Sendable {
        /// The post ids returned.
        package var posts: [String]
        /// The user ids returned (a search's expanded authors).
        package var users: [String] = []
        /// Whether a post lookup read them (a deleted-post check), not a search.
        package var lookup = false
    }

    /// What one refresh may read from X under a spend cap (`[budget]` in the feeds file, `FeedsRefresh`).
    package struct PostBudget: Sendable {
        /// The most posts this refresh may read.
        package var posts: Int
        /// When the cap allows more (the next UTC day): a timeline the cap cut short is due again then.
        package var renewsAt: Date
        /// Called with each response's post and user ids as soon as it is in (the ledger counts what X bills).
        package var read: @Sendable (Billed) -> Void
        /// Posts beyond ``posts`` kept for the lookup of the entry that bridges a timeline the cap cut short to the
        /// cap's renewal (the day's reads cannot confirm it that long).
        package var lookupReserve: Int

        /// Creates a budget.
        package init(
            posts: Int,
            lookupReserve: Int = 0,
            renewsAt: Date,
            read: @escaping @Sendable (Billed) -> Void
        ) {
            self.posts = posts
            self.lookupReserve = lookupReserve
            self.renewsAt = renewsAt
            self.read = read
        }
    }

    /// The cache the refresher commits to.
    public let store: CacheStore
    /// The feed's settings.
    let settings: FeedSettings
    /// The query sent (``FeedSettings/search``: the settings' query with the denied accounts that fit).
    let query: RecentSearchQuery
    /// The settings' digests a timeline records, made once: due-ness compares them at every cron run.
    let fingerprints: Manifest.Fingerprints
    private let connect: @Sendable () throws -> Connection
    /// A connection begun ahead of ``refresh(now:force:budget:)`` (``beginConnecting()``), which takes it.
    private let early = EarlyConnection()
    private let deadline: Duration
    /// Starts the deadline on the refresher's clock.
    private let startDeadline: @Sendable (Duration) -> Deadline
    let logger: Logger

    /// Creates a refresher.
    /// - Parameters:
    ///   - store: the cache directory.
    ///   - settings: what to search, how to lay out the timeline and what to render.
    ///   - deadline: the longest a whole refresh may take before it gives up (the old timeline stays).
    ///   - clock: what the deadline is measured on (tests pass one they move by hand).
    ///   - logger: progress lines at debug level (what `-v` shows).
    ///   - connect: makes the client and the image fetcher (token, transport); called only when a refresh is due.
    public init(
        store: CacheStore,
        settings: FeedSettings,
        deadline: Duration = .seconds(300),
        clock: some Clock<Duration> = ContinuousClock(),
        logger: Logger = Logger(label: "kfeed"),
        connect: @escaping @Sendable () throws -> Connection
    ) {
        self.store = store
        self.settings = settings
        self.query = settings.search.query
        self.fingerprints = Manifest.Fingerprints(
            timeline: settings.timelineFingerprint,
            renders: settings.renderFingerprint
        )
        self.connect = connect
        self.deadline = deadline
        self.startDeadline = { Deadline.starting(on: clock, after: $0) }
        self.logger = logger
    }

    /// Starts making the connection (the token read, libcurl loaded and set up, on a thread of its own) for the
    /// next ``refresh(now:force:budget:)``, which takes it instead of making its own: a caller that knows a refresh
    /// is due calls it before its own preparations (locks, the ledger), so that the search starts sooner. Calling it
    /// again before that refresh does nothing.
    package func beginConnecting() {
        early.begin(connect)
    }

    /// Drops a connection ``beginConnecting()`` began that no refresh took (the feed was not refreshed after all).
    package func discardEarlyConnection() {
        _ = early.take()
    }

    // MARK: - Due-ness

    /// Whether a refresh is due at `now`, read from the cache alone (no token, no transport, nothing written).
    public func dueness(now: Date) -> Dueness {
        dueness(manifest: (try? store.manifest()) ?? nil, state: store.state(), now: now)
    }

    func dueness(manifest: Manifest?, state: RefreshState?, now: Date) -> Dueness {
        let due = searchOrNight(manifest: manifest, state: state, now: now)
        // The deleted-post check of the posts on screen (`state.json`'s `lookup_due`: no other file is read) runs
        // whenever it is due, in the quiet hours too: it is no search, and X's 24 hours do not sleep.
        guard !due.isDue, let lookup = state?.lookupDue, manifest?.entries.isEmpty == false else { return due }
        if lookup <= now { return Dueness(isDue: true, lookupOnly: true) }
        return Dueness(isDue: false, until: min(due.until ?? lookup, lookup))
    }

    /// Due-ness of a search (or of renders), with the quiet hours.
    func searchOrNight(manifest: Manifest?, state: RefreshState?, now: Date) -> Dueness {
        let due = searchDueness(manifest: manifest, state: state, now: now)
        guard let quiet = settings.quietHours else { return due }
        return QuietHours.Night(quiet, zone: settings.timeZone).dueness(due, manifest: manifest, now: now)
    }

    /// The instant the last entry of `manifest` is sure to be off the screen when nothing fails: the next search
    /// (its reload, or the retry after a failure or the spend cap's renewal if later; the quiet hours' end when it
    /// falls in them, or the eve's refresh before them) plus ``PostChecks/runLateness`` for the cron run that makes
    /// it; the distant future when none is planned (`never`).
    func lastEnd(of manifest: Manifest, state: RefreshState, now: Date) -> Date {
        guard var next = manifest.reloadAfter else { return .distantFuture }
        if let retry = state.retryAfter { next = max(next, retry) }
        if let quiet = settings.quietHours {
            // In the night, no search before its end; from then on, as the quiet hours say.
            let from = quiet.end(ofQuietAt: now, in: settings.timeZone) ?? now
            let plain = next <= from ? Dueness(isDue: true) : Dueness(isDue: false, until: next)
            let night = QuietHours.Night(quiet, zone: settings.timeZone).dueness(plain, manifest: manifest, now: from)
            next = night.isDue ? from : night.until ?? next
        }
        return max(next, now).addingTimeInterval(PostChecks.runLateness)
    }

    /// Whether a search may not run at `now` whatever the timeline wants: a retry is pending, or it is the quiet
    /// hours.
    func searchHeldBack(_ state: RefreshState, now: Date) -> Bool {
        if let retry = state.retryAfter, now < retry { return true }
        guard let quiet = settings.quietHours else { return false }
        return quiet.end(ofQuietAt: now, in: settings.timeZone) != nil
    }

    /// When the posts of `manifest` are next asked about (`state.json`'s `lookup_due`), with `state` as it will be
    /// written: never sooner than the minimum wait.
    func scheduleLookup(for manifest: Manifest?, state: inout RefreshState, checks: PostChecks, now: Date) {
        guard let manifest, !manifest.entries.isEmpty else {
            state.lookupDue = nil
            return
        }
        state.lookupDue = checks.nextLookup(for: manifest, lastEnd: lastEnd(of: manifest, state: state, now: now))
            .map { max($0, now.addingTimeInterval(TimelineBuilder.minimumWait)) }
    }

    private func searchDueness(manifest: Manifest?, state: RefreshState?, now: Date) -> Dueness {
        if let retry = state?.retryAfter, now < retry { return Dueness(isDue: false, until: retry) }
        guard let manifest else { return Dueness(isDue: true) }
        // A setting that shapes the timeline changed (a timeline written before they were recorded: its query or
        // size did).
        if let recorded = manifest.fingerprints {
            if recorded.timeline != fingerprints.timeline { return Dueness(isDue: true) }
        } else if manifest.query != query.text || manifest.size != settings.size {
            return Dueness(isDue: true)
        }
        // An empty timeline is retried as soon as the back-off allows.
        if manifest.entries.isEmpty { return Dueness(isDue: true) }
        // A profile asked for that the timeline's entries lack (added to the cron line), or renders made with other
        // settings (the caption band turned off): render them now. (An entry whose media key is not valid can have no
        // render file: it never makes the timeline due.)
        let rendersChanged =
            !settings.profiles.isEmpty && manifest.fingerprints.map { $0.renders != fingerprints.renders } == true
        let lacksRender =
            rendersChanged
            || manifest.entries.contains { entry in
                Media.isValidKey(entry.media.key) && settings.profiles.contains { entry.renders?[$0.name] == nil }
            }
        // `never`: only `--force` refreshes.
        guard manifest.wantsReload(at: now) else {
            return lacksRender
                ? Dueness(isDue: true, rendersOnly: true) : Dueness(isDue: false, until: manifest.reloadAfter)
        }
        return Dueness(isDue: true)
    }

    // MARK: - Refreshing

    /// Refreshes when due (or always, with `force`).
    /// - Parameters:
    ///   - now: the current instant (injected).
    ///   - force: ignore due-ness and back-off.
    /// - Returns: what happened.
    /// - Throws: `KFeedError`: `connect`'s errors (no token: `.configuration`), `.cacheUnwritable` (73) before any
    ///   request, `.lockHeld` (75), the search's errors (recorded in `state.json` with a retry instant), `.io` (74)
    ///   when writing fails; the last good timeline is untouched in every case.
    public func refresh(now: Date, force: Bool = false) async throws -> Outcome {
        try await refresh(now: now, force: force, budget: nil)
    }

    /// Refreshes when due (or always, with `force`), reading at most `budget`'s posts from X (none when it allows
    /// less than a page): a timeline the budget cuts short is made from the posts in hand and the previous
    /// timeline's, marked as repeats, and is due again when the budget renews.
    package func refresh(now: Date, force: Bool = false, budget: PostBudget?) async throws -> Outcome {
        let started = startDeadline(deadline)
        if !force, case let due = dueness(now: now), !due.isDue { return .notDue(until: due.until) }
        // The connection (the token read, libcurl loaded and set up: some milliseconds) is made on a thread of its
        // own while the cache is prepared and read, both before the search; its error still comes first.
        let pending = early.take() ?? EarlyConnection.Pending(connect)
        async let connecting: Result<Connection, any Error> = pending.result()
        let lock: CacheLock
        var run: Run
        do {
            try store.prepare()
            lock = try store.lock()
            run = try gather(now: now)
        } catch {
            _ = try await connecting.get()
            throw error
        }
        defer { withExtendedLifetime(lock) {} }
        let connection = try await connecting.get()
        run.budget = budget
        run.checksPosts = connection.checksPosts
        // Another run may have committed while this one was starting: decide again under the lock.
        if !force, case let due = dueness(manifest: run.previous, state: run.state, now: now) {
            if !due.isDue { return .notDue(until: due.until) }
            if due.rendersOnly, let previous = run.previous {
                return try await addRenders(to: previous, run: run, with: connection.images, deadline: started)
            }
            // A post gone from X: a new timeline without it, searched and filled as any.
            if due.lookupOnly, let previous = run.previous {
                if !connection.checksPosts { return .notDue(until: previous.reloadAfter) }
                if let outcome = try await checkPosts(of: previous, run: &run, client: connection.client) {
                    return outcome
                }
                // No search may run now (a retry pending, the quiet hours): the timeline without the post.
                if searchHeldBack(run.state, now: now) {
                    try commitWithdrawal(run: &run)
                    return .notDue(until: [run.state.lookupDue, run.state.retryAfter].compactMap { $0 }.min())
                }
            }
        }
        let found: Found
        let made: Made
        var committed: Committed?
        do {
            found = try await withDeadline(started) { [run] in try await search(run, with: connection.client) }
            made = try await makeTimeline(from: found, run: &run, connection: connection, deadline: started)
                .stamped(with: fingerprints)
            if case .timeline(let manifest, _, let identities) = made {
                committed = try await commit(manifest, run: &run, found: found, identities: identities)
            }
        } catch let error as KFeedError {
            try? commitWithdrawal(run: &run)
            throw failure(error, run: &run)
        }
        switch made {
        case .nothingToShow(let empty):
            return try keepLastTimeline(empty, run: &run, found: found)
        case .timeline(let manifest, var summary, _):
            // Set by the commit, which succeeded.
            try recordSuccess(manifest, run: &run, found: found, summary: &summary, after: committed!)
            return .refreshed(manifest, summary)
        }
    }

    /// The most earlier pages kept as candidates.
    static let maxCandidatePages = 10

    /// `items` without repeated posts, first kept.
    static func unique(_ items: [FeedItem]) -> [FeedItem] {
        var seen: Set<String> = []
        return items.filter { seen.insert($0.post.id).inserted }
    }

    /// Whether post id `a` is older than `b` (ids are decimal snowflakes: longer is newer).
    static func isOlder(_ a: String, _ b: String) -> Bool {
        a.count == b.count ? a < b : a.count < b.count
    }

    /// The newest post id read, when a search may continue from it: the same query, and young enough that X still
    /// accepts it (recent search refuses a `since_id` older than its window).
    static func sinceID(_ state: RefreshState, previous: Manifest?, query: RecentSearchQuery, now: Date) -> String? {
        guard let previous, previous.query == query.text,
            now.timeIntervalSince(previous.generatedAt) < ReadPage.searchWindow - 86_400
        else { return nil }
        return state.sinceID
    }

    /// The pages (newest first) that still hold a post not shown and inside the search window, at most
    /// ``maxCandidatePages``.
    static func pagesWithCandidates(_ pages: [ReadPage], history: History, now: Date) -> [Data] {
        let shown = history.postIDs
        let kept = pages.filter { page in page.items(at: now).contains { !shown.contains($0.post.id) } }
        return kept.prefix(maxCandidatePages).map(\.body)
    }

    /// Records a failure (back-off, last error) and logs it; the state is written if the disk allows.
    /// - Returns: the error, to throw.
    /// The timeline on screen stays until the retry: its last entry's posts are looked up if that keeps them on
    /// screen too long.
    private func failure(_ error: KFeedError, run: inout Run) -> KFeedError {
        let now = run.now
        run.state.recordFailure(error, now: now)
        let checks = store.checks() ?? run.checks
        scheduleLookup(for: (try? store.manifest()) ?? nil, state: &run.state, checks: checks, now: now)
        let state = run.state
        try? store.write(state)
        let retry = state.retryAfter.map(InstantFormat.string) ?? "-"
        store.log("refresh failed (\(error.code)): \(error.message); retry after \(retry)", at: now)
        return error
    }

    /// Downloads what the cache lacks, writes it, and points every entry at its image, avatar or placeholder.
    /// Returns once every image is made: the last ones may still be being written in `writes`, which must be
    /// waited for before the manifest is committed, and then the files made ahead in `reserved` (while the
    /// downloads are in flight) that no image took released (``sync(_:releasing:in:)``), whatever happens next.
    /// - Returns: the manifest, the counts, and the identities of the pictures made (by media key), when the
    ///   no-repeat rule is on: computed as each was made, beside the other downloads.
    func fillImages(
        of planned: Manifest,
        with images: ImageFetcher,
        writes: PendingWrites,
        reserving reserved: ReservedFiles
    ) async throws -> (Manifest, Summary, [String: PictureIdentity]) {
        let plan = ImagePlan(for: planned, in: store, identifies: settings.noRepeatWindow > 0)
        let store = self.store
        reserved.make(plan.jobs.map(\.path))
        let results = try await images.run(plan.jobs, writes: writes) { path, image in
            try store.store(image, at: path, reserved: reserved.take(path))
        }
        let stored = try plan.point(planned, at: results, in: store)
        var summary = Summary()
        summary.fetched = stored.written
        summary.reused = plan.reused
        summary.placeholders = stored.placeholders
        return (stored.manifest, summary, stored.identities)
    }

    /// Runs `operation`, giving up with `.transport` when the refresh's deadline passes (the deadline counts from
    /// the refresh's start, across its phases: search, images, renders).
    func withDeadline<T: Sendable>(
        _ deadline: Deadline,
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await deadline.sleep()
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                throw KFeedError(
                    .transport,
                    "the refresh did not finish within \(deadline.duration); the previous timeline is kept, try again later"
                )
            }
            return value
        }
    }

    /// Renders only: the profiles the committed timeline lacks, made from its pictures' sources (no search, so a
    /// profile added to the cron line reads no post), then the timeline committed again as it was otherwise.
    private func addRenders(
        to previous: Manifest,
        run: Run,
        with images: ImageFetcher,
        deadline: Deadline
    ) async throws -> Outcome {
        var summary = Summary()
        var manifest: Manifest
        (manifest, summary.rendered) = try await withDeadline(deadline) {
            try await renderDisplays(of: previous, with: images)
        }
        manifest.fingerprints = previous.fingerprints.map {
            Manifest.Fingerprints(timeline: $0.timeline, renders: fingerprints.renders)
        }
        try store.commit(manifest)
        summary.placeholders = manifest.entries.filter(\.placeholder).count
        summary.removed = store.sweep(current: manifest, previous: previous)
        store.log("rendered \(summary.rendered) display pictures the timeline lacked; no search", at: run.now)
        return .refreshed(manifest, summary)
    }

    /// The instant a refresh gives up, on the refresher's clock.
    struct Deadline: Sendable {
        /// How long the refresh may take.
        let duration: Duration
        /// Returns when the deadline has passed (at once if it has).
        let sleep: @Sendable () async throws -> Void

        /// The deadline `duration` from now on `clock`.
        static func starting(on clock: some Clock<Duration>, after duration: Duration) -> Deadline {
            let end = clock.now.advanced(by: duration)
            return Deadline(duration: duration) { try await clock.sleep(until: end, tolerance: nil) }
        }
    }
}

/// The connection a refresh takes when it was begun ahead of it (``Refresher/beginConnecting()``).
final class EarlyConnection: Sendable {
    /// A connection being made on a thread of its own; its result once, to one waiter.
    final class Pending: Sendable {
        private enum State {
            case running
            case waiting(CheckedContinuation<Result<Refresher.Connection, any Error>, Never>)
            case made(Result<Refresher.Connection, any Error>)
        }
        private let state = Mutex<State>(.running)

        /// Starts `connect` on a thread of its own.
        init(_ connect: @escaping @Sendable () throws -> Refresher.Connection) {
            Thread.detachNewThread { [self] in
                let made = Result { try connect() }
                let waiter = state.withLock {
                    state -> CheckedContinuation<Result<Refresher.Connection, any Error>, Never>? in
                    defer { state = .made(made) }
                    if case .waiting(let continuation) = state { return continuation }
                    return nil
                }
                waiter?.resume(returning: made)
            }
        }

        /// The connection, or why it could not be made, once it is (awaited by one caller only).
        func result() async -> Result<Refresher.Connection, any Error> {
            await withCheckedContinuation { continuation in
                let made = state.withLock { state -> Result<Refresher.Connection, any Error>? in
                    if case .made(let result) = state { return result }
                    state = .waiting(continuation)
                    return nil
                }
                if let made { continuation.resume(returning: made) }
            }
        }
    }

    private let pending = Mutex<Pending?>(nil)

    /// Starts `connect` unless a connection begun earlier is still to be taken.
    func begin(_ connect: @escaping @Sendable () throws -> Refresher.Connection) {
        pending.withLock { pending in
            if pending == nil { pending = Pending(connect) }
        }
    }

    /// The connection begun, if any, which is no longer this one's.
    func take() -> Pending? {
        pending.withLock { pending in
            defer { pending = nil }
            return pending
        }
    }
}

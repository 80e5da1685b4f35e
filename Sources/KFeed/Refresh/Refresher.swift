public import Foundation

/// The refresh use case: decides whether a refresh is due, searches, builds the timeline, fills its images and
/// commits the generation to the cache, one run at a time.
///
/// One refresh flows one way: the CLI (or the server) asks ``refresh(now:force:)``; the refresher asks the
/// ``XClient`` for posts, the ``TimelineBuilder`` for the entries, the ``ImageFetcher`` for the files the cache
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

    /// What to search and how to lay out the timeline.
    public struct Plan: Sendable {
        /// The validated query.
        public var query: RecentSearchQuery
        /// Selection and schedule.
        public var builder: TimelineBuilder
        /// The widget image size.
        public var size: ImageSize
        /// How long a shown post, media key or picture stays unusable (`--no-repeat-days`); zero keeps no history.
        public var noRepeatWindow: TimeInterval
        /// The display renders made for every entry (`--profile`).
        public var profiles: [DisplayProfile]
        /// Whether renders carry the caption band (`--no-caption` turns it off).
        public var captions: Bool
        /// The zone the renders' hours are shown in.
        public var timeZone: TimeZone

        /// Creates a plan.
        public init(
            query: RecentSearchQuery,
            builder: TimelineBuilder,
            size: ImageSize,
            noRepeatWindow: TimeInterval = 7 * 86_400,
            profiles: [DisplayProfile] = [],
            captions: Bool = true,
            timeZone: TimeZone = .gmt
        ) {
            self.query = query
            self.builder = builder
            self.size = size
            self.noRepeatWindow = noRepeatWindow
            self.profiles = profiles
            self.captions = captions
            self.timeZone = timeZone
        }

        /// Candidates fetched beyond the entries when history is kept, so that a picture found to repeat one
        /// already shown only after its download gives its slot to the next: a sixth of the entries, 1…4.
        var extraCandidates: Int {
            noRepeatWindow > 0 ? min(4, max(1, builder.entryCount / 6)) : 0
        }
    }

    /// What a due refresh talks to: made only when a refresh is due.
    public struct Connection: Sendable {
        /// The search client.
        public var client: XClient
        /// Fetches and downscales images.
        public var images: ImageFetcher

        /// Creates a connection.
        public init(client: XClient, images: ImageFetcher) {
            self.client = client
            self.images = images
        }
    }

    /// Whether a refresh is due, and if not until when.
    public struct Dueness: Sendable, Hashable {
        /// A refresh is due now.
        public var isDue: Bool
        /// When one will be (nil: due now, or never without `--force`).
        public var until: Date?
    }

    /// The cache the refresher commits to.
    public let store: CacheStore
    let plan: Plan
    private let connect: @Sendable () throws -> Connection
    private let deadline: Duration
    private let log: @Sendable (String) -> Void

    /// Creates a refresher.
    /// - Parameters:
    ///   - store: the cache directory.
    ///   - plan: query, builder and size.
    ///   - deadline: the longest a whole refresh may take before it gives up (the old timeline stays).
    ///   - log: receives progress lines (for `-v`).
    ///   - connect: makes the client and the image fetcher (token, transport); called only when a refresh is due.
    public init(
        store: CacheStore,
        plan: Plan,
        deadline: Duration = .seconds(300),
        log: @escaping @Sendable (String) -> Void = { _ in },
        connect: @escaping @Sendable () throws -> Connection
    ) {
        self.store = store
        self.plan = plan
        self.connect = connect
        self.deadline = deadline
        self.log = log
    }

    // MARK: - Due-ness

    /// Whether a refresh is due at `now`, read from the cache alone (no token, no transport, nothing written).
    public func dueness(now: Date) -> Dueness {
        dueness(manifest: (try? store.manifest()) ?? nil, state: store.state(), now: now)
    }

    func dueness(manifest: Manifest?, state: RefreshState?, now: Date) -> Dueness {
        if let retry = state?.retryAfter, now < retry { return Dueness(isDue: false, until: retry) }
        guard let manifest else { return Dueness(isDue: true) }
        if manifest.query != plan.query.text || manifest.size != plan.size { return Dueness(isDue: true) }
        // An empty timeline is retried as soon as the back-off allows.
        if manifest.entries.isEmpty { return Dueness(isDue: true) }
        // A profile asked for that the timeline's entries lack (added to the cron line): render it now. (An entry
        // whose media key is not valid can have no render file: it never makes the timeline due.)
        let lacksRender = manifest.entries.contains { entry in
            Media.isValidKey(entry.media.key) && plan.profiles.contains { entry.renders?[$0.name] == nil }
        }
        if lacksRender { return Dueness(isDue: true) }
        // `never`: only `--force` refreshes.
        guard let reload = manifest.reloadAfter else { return Dueness(isDue: false) }
        return now >= reload ? Dueness(isDue: true) : Dueness(isDue: false, until: reload)
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
        let started = ContinuousClock.now
        if !force {
            let due = dueness(now: now)
            if !due.isDue { return .notDue(until: due.until) }
        }
        let connection = try connect()
        try store.prepare()
        let lock = try store.lock()
        defer { withExtendedLifetime(lock) {} }
        var state = store.state() ?? RefreshState()
        let previous = (try? store.manifest()) ?? nil
        if !force {
            // Another run may have committed while this one was starting: decide again under the lock.
            let due = dueness(manifest: previous, state: state, now: now)
            if !due.isDue { return .notDue(until: due.until) }
        }

        let remembers = plan.noRepeatWindow > 0
        var history =
            remembers
            ? (store.history() ?? History()).current(replacing: previous, at: now, window: plan.noRepeatWindow)
            : History()
        var unshown = plan.builder
        unshown.shownPostIDs = history.postIDs
        unshown.shownMediaKeys = history.mediaKeys
        let builder = unshown

        // Posts earlier searches read and did not show are still candidates while recent search would return them;
        // X is asked only for posts it has not sent before, and for no more than the candidates leave wanting.
        let earlier = remembers ? store.candidatePages(for: plan.query.text).map(ReadPage.init) : []
        let pool = Self.unique(earlier.flatMap { $0.items(at: now) })
        // Usable candidates in hand stand in for the page's margin.
        let spare = builder.selection(from: pool, isExhausted: true).chosen.count
        let sinceID = remembers ? Self.sinceID(state, previous: previous, query: plan.query, now: now) : nil
        var client = connection.client
        // Retries within a run only after a success: a failing API is asked again on the back-off schedule alone.
        if state.consecutiveFailures > 0 { client.configuration.maxTries = 1 }
        let search: XClient.Outcome
        var older: XClient.Outcome?
        do {
            (search, older) = try await withDeadline(started) { [client, shownPostIDs = history.postIDs] in
                let newer = try await client.search(
                    plan.query,
                    wanting: builder.entryCount,
                    spare: spare,
                    sinceID: sinceID
                ) { builder.postsStillWanted(after: $0.feedItems + pool) }
                // A quiet topic: fewer new posts than entries. Read further back than any post read before (the
                // pages kept, and the posts shown: a page is dropped only when all its posts were shown).
                let missing = builder.postsStillWanted(after: newer.results.feedItems + pool)
                let read = earlier.flatMap(\.postIDs) + shownPostIDs
                guard missing > 0, sinceID != nil, let oldest = read.min(by: Self.isOlder) else { return (newer, nil) }
                let older = try await client.search(plan.query, wanting: missing, untilID: oldest) {
                    builder.postsStillWanted(after: newer.results.feedItems + pool + $0.feedItems)
                }
                return (newer, older)
            }
        } catch let error as KFeedError {
            throw failure(error, state: &state, now: now)
        }
        let items = Self.unique(search.results.feedItems + pool + (older?.results.feedItems ?? []))
        var candidates = builder
        candidates.entryCount += plan.extraCandidates
        let selection = candidates.selection(from: items, isExhausted: true)
        state.rateLimit = older?.rateLimit ?? search.rateLimit ?? state.rateLimit
        state.apiVersion = older?.apiVersion ?? search.apiVersion ?? state.apiVersion
        for skip in selection.skipped where skip.reason != .timelineFull || plan.extraCandidates == 0 {
            log("post \(skip.postID) not used: \(skip.reason)")
        }
        for error in search.results.partialErrors + (older?.results.partialErrors ?? []) {
            log("partial error: \(Sanitized.excerpt(error.detail))")
        }

        // Posts shown within the window that the search returned again: what fills the timeline when too few are
        // unshown (DESIGN §7), fetched with the rest.
        let repeats = repeatCandidates(
            in: items,
            besides: selection,
            lastShown: history.lastShown,
            wanting: builder.entryCount + plan.extraCandidates - selection.chosen.count
        )
        var planned = candidates.manifest(for: selection, query: plan.query, size: plan.size, now: now)
        planned.entries += repeats.map { choice in
            var entry = Manifest.Entry(date: now, item: choice.item, media: choice.media)
            entry.isRepeat = true
            return entry
        }
        guard !planned.entries.isEmpty else {
            return try keepLastTimeline(
                planned,
                previous: previous,
                state: &state,
                search: search,
                read: items.count,
                now: now
            )
        }

        let manifest: Manifest
        var summary: Summary
        do {
            let filled: Manifest
            (filled, summary) = try await withDeadline(started) { [planned] in
                try await fillImages(of: planned, with: connection.images)
            }
            let distinct = distinctPictures(of: filled, notLike: history, builder: builder)
            let full = fillingWithRepeats(distinct, previous: previous, builder: builder, now: now)
            // Never an empty timeline over a good one (every picture could not be had, or only placeholders repeat).
            guard !full.entries.isEmpty else {
                return try keepLastTimeline(
                    full,
                    previous: previous,
                    state: &state,
                    search: search,
                    read: items.count,
                    now: now
                )
            }
            (manifest, summary.rendered) = try await withDeadline(started) {
                try await renderDisplays(of: full, with: connection.images)
            }
            summary.placeholders = manifest.entries.filter(\.placeholder).count
            if remembers {
                history.record(manifest, identities: distinct.identities)
                try store.write(history)
                let pages =
                    search.pageBodies.map(ReadPage.init) + earlier + (older?.pageBodies ?? []).map(ReadPage.init)
                try store.writeCandidatePages(
                    Self.pagesWithCandidates(pages, history: history, now: now),
                    for: plan.query.text
                )
            }
            try store.commit(manifest)
        } catch let error as KFeedError {
            throw failure(error, state: &state, now: now)
        }
        state.recordSuccess(manifest, newestPostID: search.results.posts.first?.id)
        try store.write(state)
        summary.removed = store.sweep(current: manifest, previous: previous)
        store.log(
            "refreshed: \(manifest.entries.count) entries, \(summary.fetched) images fetched, \(summary.reused) reused, "
                + "\(summary.placeholders) placeholders, \(summary.removed) old files removed; reload after "
                + (manifest.reloadAfter.map(InstantFormat.string) ?? "never"),
            at: now
        )
        return .refreshed(manifest, summary)
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

    /// The usable posts of `items` that were shown within the window (by post id) and are not in `selection`,
    /// shown longest ago first, at most `count`.
    func repeatCandidates(
        in items: [FeedItem],
        besides selection: Selection,
        lastShown: [String: Date],
        wanting count: Int
    ) -> [Selection.Choice] {
        guard count > 0, plan.noRepeatWindow > 0 else { return [] }
        var everything = plan.builder
        everything.entryCount = items.count
        let chosen = Set(selection.chosen.map(\.item.post.id))
        let shown = everything.selection(from: items, isExhausted: true).chosen.compactMap { choice in
            lastShown[choice.item.post.id].flatMap { chosen.contains(choice.item.post.id) ? nil : (choice, $0) }
        }
        return shown.sorted { $0.1 < $1.1 }.prefix(count).map(\.0)
    }

    /// What ``distinctPictures(of:notLike:builder:)`` keeps and drops.
    struct DistinctPictures {
        /// The unshown entries to show, in the search's order, at most the builder's entry count.
        var kept: [Manifest.Entry]
        /// Entries that may fill the rest, with when each (or its picture) was last shown: the search's posts shown
        /// within the window, and entries whose picture was shown under another post or media key.
        var repeats: [(entry: Manifest.Entry, shownAt: Date)]
        /// The identity of every picture looked at, by media key (these, and those shown before).
        var identities: [String: PictureIdentity]
    }

    /// The first `builder.entryCount` unshown entries of `filled` whose picture is not the same photo
    /// (``PictureIdentity``) as one shown within the window or an earlier entry (a repost under another media key);
    /// and the entries that may fill the rest as repeats.
    func distinctPictures(of filled: Manifest, notLike history: History, builder: TimelineBuilder) -> DistinctPictures {
        let shown = history.pictures
        let lastShown = history.lastShown
        var result = DistinctPictures(kept: [], repeats: [], identities: shown.mapValues(\.identity))
        var taken: [PictureIdentity] = []
        for entry in filled.entries {
            guard plan.noRepeatWindow > 0, !entry.placeholder, let image = entry.image,
                let identity = store.data(at: image).flatMap(PictureIdentity.of(jpeg:))
            else {
                if !entry.isRepeat && result.kept.count < builder.entryCount { result.kept.append(entry) }
                continue
            }
            result.identities[entry.media.key] = identity
            if taken.contains(where: identity.isSamePicture) { continue }
            if entry.isRepeat {
                result.repeats.append((entry, lastShown[entry.tweetID] ?? entry.date))
                continue
            }
            if let match = shown.values.filter({ identity.isSamePicture(as: $0.identity) }).map(\.shownAt).max() {
                log("post \(entry.tweetID) not used: the same picture was shown within the no-repeat window")
                result.repeats.append((entry, match))
                continue
            }
            guard result.kept.count < builder.entryCount else { continue }
            taken.append(identity)
            result.kept.append(entry)
        }
        return result
    }

    /// The kept entries, then, while the timeline has room, posts shown within the window, longest ago first
    /// (`DESIGN.md` §7): the search's, the previous timeline's, and reposts of pictures shown; each marked as a
    /// repeat, never a post, a media key or a picture twice; dated anew.
    func fillingWithRepeats(
        _ distinct: DistinctPictures,
        previous: Manifest?,
        builder: TimelineBuilder,
        now: Date
    ) -> Manifest {
        var entries = distinct.kept
        if entries.count < builder.entryCount, plan.noRepeatWindow > 0 {
            let earlier =
                previous.map { previous in
                    previous.query == plan.query.text && previous.size == plan.size
                        ? previous.entries.filter { !$0.placeholder && $0.date < now }.map { ($0, $0.date) } : []
                } ?? []
            let candidates = (distinct.repeats + earlier).sorted { $0.1 < $1.1 }
            var posts = Set(entries.map(\.tweetID))
            var keys = Set(entries.map(\.media.key))
            var pictures = entries.compactMap { distinct.identities[$0.media.key] }
            for (candidate, _) in candidates where entries.count < builder.entryCount {
                let identity = distinct.identities[candidate.media.key]
                guard !posts.contains(candidate.tweetID), !keys.contains(candidate.media.key),
                    !pictures.contains(where: { identity?.isSamePicture(as: $0) ?? false })
                else { continue }
                var entry = candidate
                entry.isRepeat = true
                entry.renders = nil
                entries.append(entry)
                posts.insert(entry.tweetID)
                keys.insert(entry.media.key)
                if let identity { pictures.append(identity) }
            }
            if entries.count > distinct.kept.count {
                log("\(entries.count - distinct.kept.count) entries repeat posts shown longest ago (too few unshown)")
            }
        }
        return builder.manifest(scheduling: entries, query: plan.query, size: plan.size, now: now)
    }

    /// The search gave nothing to show: the last good timeline stays (an empty one is committed only when there is
    /// none), and a retry is scheduled on the back-off.
    private func keepLastTimeline(
        _ empty: Manifest,
        previous: Manifest?,
        state: inout RefreshState,
        search: XClient.Outcome,
        read: Int,
        now: Date
    ) throws -> Outcome {
        let error = KFeedError(.apiResponse, "the search returned no usable post")
        state.recordFailure(error, now: now)
        // The posts read were billed and none is usable: the next search starts after them.
        if plan.noRepeatWindow > 0, let newest = search.results.posts.first?.id { state.sinceID = newest }
        if previous == nil { try store.commit(empty) }
        try store.write(state)
        let retry = state.retryAfter.map(InstantFormat.string) ?? "-"
        store.log("no usable post in \(read) results; kept the last timeline; retry after \(retry)", at: now)
        return .noUsablePost(retryAfter: state.retryAfter)
    }

    /// Records a failure (back-off, last error) and logs it; the state is written if the disk allows.
    /// - Returns: the error, to throw.
    private func failure(_ error: KFeedError, state: inout RefreshState, now: Date) -> KFeedError {
        state.recordFailure(error, now: now)
        try? store.write(state)
        let retry = state.retryAfter.map(InstantFormat.string) ?? "-"
        store.log("refresh failed (\(error.code)): \(error.message); retry after \(retry)", at: now)
        return error
    }

    /// Downloads what the cache lacks, writes it, and points every entry at its image, avatar or placeholder.
    private func fillImages(of planned: Manifest, with images: ImageFetcher) async throws -> (Manifest, Summary) {
        let plan = store.imagePlan(for: planned)
        let store = self.store
        let results = try await images.run(plan.jobs) { path, image in try store.store(image, at: path) }
        let stored = try store.point(planned, at: results, of: plan)
        var summary = Summary()
        summary.fetched = stored.written
        summary.reused = plan.reused
        summary.placeholders = stored.placeholders
        return (stored.manifest, summary)
    }

    /// Runs `operation`, giving up with `.transport` when the refresh's deadline passes.
    /// The deadline counts from `started`, the refresh's start, across its phases (search, images, renders).
    private func withDeadline<T: Sendable>(
        _ started: ContinuousClock.Instant,
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let deadline = self.deadline
        let remaining = deadline - (ContinuousClock.now - started)
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(for: remaining)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                throw KFeedError(
                    .transport,
                    "the refresh did not finish within \(deadline); the previous timeline is kept, try again later"
                )
            }
            return value
        }
    }
}

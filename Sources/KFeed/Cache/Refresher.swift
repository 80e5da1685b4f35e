public import Foundation

/// The cron job: refreshes the cache directory only when due, one run at a time, and commits each generation so
/// that a reader sees the old timeline or the new one, whole, at every instant.
///
/// A generation is committed as: new images and avatars written and synced under their own names (reused when
/// the cache already has them), then `timeline.json` via a temp file, fsync, rename and fsync of the directory,
/// then removal of files neither this manifest nor the previous one names (a reader that has just read the
/// previous manifest still finds every file it names).
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
    }

    /// What to search and how to lay out the timeline.
    public struct Plan: Sendable {
        /// The validated query.
        public var query: RecentSearchQuery
        /// Selection and schedule.
        public var builder: TimelineBuilder
        /// The widget image size.
        public var size: ImageSize

        /// Creates a plan.
        public init(query: RecentSearchQuery, builder: TimelineBuilder, size: ImageSize) {
            self.query = query
            self.builder = builder
            self.size = size
        }
    }

    /// The cache directory.
    public let directory: URL
    private let cache: CacheDirectory
    private let plan: Plan
    private let client: XClient
    private let images: ImageFetcher
    private let deadline: Duration
    private let log: @Sendable (String) -> Void

    /// Creates a refresher.
    /// - Parameters:
    ///   - directory: the cache directory.
    ///   - plan: query, builder and size.
    ///   - client: the search client.
    ///   - images: fetches and downscales images.
    ///   - deadline: the longest a whole refresh may take before it gives up (the old timeline stays).
    ///   - log: receives progress lines (for `-v`).
    public init(
        directory: URL,
        plan: Plan,
        client: XClient,
        images: ImageFetcher,
        deadline: Duration = .seconds(300),
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.directory = directory
        self.cache = CacheDirectory(url: directory)
        self.plan = plan
        self.client = client
        self.images = images
        self.deadline = deadline
        self.log = log
    }

    // MARK: - Reading

    /// The refresh state, if there is a readable one.
    public func state() -> RefreshState? {
        Self.state(in: cache)
    }

    private static func state(in cache: CacheDirectory) -> RefreshState? {
        cache.read("state.json").flatMap { try? decoder.decode(RefreshState.self, from: $0) }
    }

    /// Whether a refresh of `directory` is due at `now`, and if not, until when (nil: never without `--force`).
    /// Reads only: no token, no transport, nothing written.
    public static func dueness(in directory: URL, plan: Plan, now: Date) -> (isDue: Bool, until: Date?) {
        dueness(
            manifest: committedManifest(in: directory),
            state: state(in: CacheDirectory(url: directory)),
            plan: plan,
            now: now
        )
    }

    private static func committedManifest(in directory: URL) -> Manifest? {
        (try? CacheReader(directory: directory).manifest()) ?? nil
    }

    static func dueness(manifest: Manifest?, state: RefreshState?, plan: Plan, now: Date) -> (isDue: Bool, until: Date?)
    {
        if let retry = state?.retryAfter, now < retry { return (false, retry) }
        guard let manifest else { return (true, nil) }
        if manifest.query != plan.query.text || manifest.size != plan.size { return (true, nil) }
        // An empty timeline is retried as soon as the back-off allows.
        if manifest.entries.isEmpty { return (true, nil) }
        // `never`: only `--force` refreshes.
        guard let reload = manifest.reloadAfter else { return (false, nil) }
        return now >= reload ? (true, nil) : (false, reload)
    }

    // MARK: - Refreshing

    /// Refreshes when due (or always, with `force`).
    /// - Parameters:
    ///   - now: the current instant (injected).
    ///   - force: ignore due-ness and back-off.
    /// - Returns: what happened.
    /// - Throws: `KFeedError`: `.cacheUnwritable` (73) before any request, `.lockHeld` (75), the search's errors
    ///   (recorded in `state.json` with a retry instant), `.io` (74) when writing fails; the last good timeline
    ///   is untouched in every case.
    public func refresh(now: Date, force: Bool = false) async throws -> Outcome {
        if !force {
            let due = Self.dueness(in: directory, plan: plan, now: now)
            if !due.isDue { return .notDue(until: due.until) }
        }
        try cache.prepare()
        let lock = try cache.lock()
        defer { withExtendedLifetime(lock) {} }
        let events = EventLog(directory: cache)
        var state = self.state() ?? RefreshState()
        let previous = Self.committedManifest(in: directory)
        if !force {
            // Another run may have committed while this one waited for nothing: decide again under the lock.
            let due = Self.dueness(manifest: previous, state: state, plan: plan, now: now)
            if !due.isDue { return .notDue(until: due.until) }
        }

        let outcome: XClient.Outcome
        do {
            outcome = try await withDeadline { try await client.search(plan.query, for: plan.builder) }
        } catch let error as KFeedError {
            throw failure(error, state: &state, events: events, now: now)
        }
        state.rateLimit = outcome.rateLimit ?? state.rateLimit
        for skip in outcome.selection.skipped { log("post \(skip.postID) not used: \(skip.reason)") }
        for error in outcome.results.partialErrors { log("partial error: \(Sanitized.excerpt(error.detail))") }

        guard !outcome.selection.chosen.isEmpty else {
            let error = KFeedError(.apiResponse, "the search returned no usable post")
            state.recordFailure(error, now: now)
            if previous == nil {
                let empty = plan.builder.manifest(for: outcome.selection, query: plan.query, size: plan.size, now: now)
                try commit(empty)
            }
            try write(state)
            events.append(
                "no usable post in \(outcome.results.posts.count) results; kept the last timeline; retry after \(state.retryAfter.map(InstantFormat.string) ?? "-")",
                at: now
            )
            return .noUsablePost(retryAfter: state.retryAfter)
        }

        let planned = plan.builder.manifest(for: outcome.selection, query: plan.query, size: plan.size, now: now)
        let manifest: Manifest
        var summary: Summary
        do {
            (manifest, summary) = try await withDeadline { try await fillImages(of: planned) }
            try commit(manifest)
        } catch let error as KFeedError {
            throw failure(error, state: &state, events: events, now: now)
        }
        state.recordSuccess(manifest, sinceID: outcome.results.posts.first?.id, rateLimit: outcome.rateLimit, now: now)
        try write(state)
        summary.removed = cache.sweep(keeping: Self.files(of: manifest).union(previous.map(Self.files) ?? []))
        events.append(
            "refreshed: \(manifest.entries.count) entries, \(summary.fetched) images fetched, \(summary.reused) reused, "
                + "\(summary.placeholders) placeholders, \(summary.removed) old files removed; reload after "
                + (manifest.reloadAfter.map(InstantFormat.string) ?? "never"),
            at: now
        )
        return .refreshed(manifest, summary)
    }

    /// Records a failure (back-off, last error) and logs it; the state is written if the disk allows.
    /// - Returns: the error, to throw.
    private func failure(
        _ error: KFeedError,
        state: inout RefreshState,
        events: EventLog,
        now: Date
    ) -> KFeedError {
        state.recordFailure(error, now: now)
        try? write(state)
        let retry = state.retryAfter.map(InstantFormat.string) ?? "-"
        events.append("refresh failed (\(error.code)): \(error.message); retry after \(retry)", at: now)
        return error
    }

    /// Downloads what the cache lacks, writes it, and points every entry at its image, avatar or placeholder.
    private func fillImages(of planned: Manifest) async throws -> (Manifest, Summary) {
        var manifest = planned
        var summary = Summary()
        var jobs: [String: ImageFetcher.Job] = [:]
        var unusable: [String: String] = [:]
        func plan(_ path: String?, candidates: [URL], size: ImageSize, why: String) -> String? {
            guard let path else { return nil }
            if cache.hasFile(path) {
                summary.reused += 1
            } else if candidates.isEmpty {
                unusable[path] = why
            } else if jobs[path] == nil {
                jobs[path] = ImageFetcher.Job(path: path, candidates: candidates, size: size)
            }
            return path
        }
        let size = self.plan.size
        var imagePaths: [String?] = []
        var avatarPaths: [String?] = []
        for entry in manifest.entries {
            let key = entry.media.key
            let path = Media.isValidKey(key) ? "images/\(key)-\(size.width)x\(size.height).jpg" : nil
            let photo = entry.media.sourceURL.map {
                ImageRendition.photoCandidates(
                    for: $0,
                    width: entry.media.width,
                    height: entry.media.height,
                    target: size
                )
            }
            imagePaths.append(plan(path, candidates: photo ?? [], size: size, why: "no image URL"))
            let avatarSize = ImageSize.avatar
            let userID = entry.author.id
            let avatarPath =
                Post.isValidID(userID) ? "avatars/\(userID)-\(avatarSize.width)x\(avatarSize.height).jpg" : nil
            let avatar = entry.author.profileImageURL.map(ImageRendition.avatarCandidates(for:)) ?? []
            avatarPaths.append(plan(avatarPath, candidates: avatar, size: avatarSize, why: "no avatar URL"))
        }

        let results = await images.run(Array(jobs.values))
        for (path, outcome) in results {
            switch outcome {
            case .image(let data):
                try cache.write(data, to: path, syncDirectory: false)
                summary.fetched += 1
            case .failed(let reason):
                unusable[path] = reason
            }
        }
        try cache.syncSubdirectories()

        for index in manifest.entries.indices {
            if let path = imagePaths[index], unusable[path] == nil {
                manifest.entries[index].image = path
            } else {
                manifest.entries[index].image = try placeholder(size)
                manifest.entries[index].placeholder = true
                manifest.entries[index].placeholderReason =
                    imagePaths[index].flatMap { unusable[$0] } ?? "invalid media key"
                summary.placeholders += 1
            }
            if let path = avatarPaths[index], unusable[path] == nil {
                manifest.entries[index].author.avatar = path
            } else {
                manifest.entries[index].author.avatar = try placeholder(.avatar)
            }
        }
        return (manifest, summary)
    }

    /// The placeholder for `size`, written once.
    private func placeholder(_ size: ImageSize) throws -> String {
        let name = "placeholder-\(size.width)x\(size.height).jpg"
        if !cache.hasFile(name) { try cache.write(JPEGThumbnailer.placeholder(size: size), to: name) }
        return name
    }

    /// Replaces `timeline.json` atomically: the commit point of a generation.
    private func commit(_ manifest: Manifest) throws {
        try cache.write(try manifest.jsonData(), to: "timeline.json")
    }

    private func write(_ state: RefreshState) throws {
        try cache.write(try InstantFormat.jsonEncoder().encode(state), to: "state.json")
    }

    private static let decoder = InstantFormat.jsonDecoder()

    /// Every file a manifest names, relative to the directory.
    static func files(of manifest: Manifest) -> Set<String> {
        Set(manifest.entries.flatMap { [$0.image, $0.author.avatar].compactMap { $0 } })
    }

    /// Runs `operation`, giving up with `.transport` when the refresh's deadline passes.
    private func withDeadline<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let deadline = self.deadline
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(for: deadline)
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

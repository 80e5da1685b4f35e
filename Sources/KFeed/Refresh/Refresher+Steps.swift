import Foundation
import KFeedBase
import KFeedImages
import KFeedX
import Logging
import Synchronization

/// The steps of ``Refresher/refresh(now:force:)`` after the decision: gather what the cache holds, search, choose,
/// and (after the images, the repost check and the repeat fill of `Refresher+Variety.swift`) commit or keep the last
/// timeline. Each is checked on one screen against `docs/timeline.md`.
extension Refresher {
    /// What a due run starts from, read from the cache under the lock.
    struct Run: Sendable {
        var state: RefreshState
        /// The committed timeline, if any.
        var previous: Manifest?
        /// What was shown within the no-repeat window (empty when the window is zero).
        var history: History
        /// The plan's builder, with the shown posts and media keys excluded.
        var builder: TimelineBuilder
        /// Pages earlier searches read that still hold posts not shown.
        var earlier: [ReadPage]
        /// Their posts that recent search would still return, without repeats.
        var pool: [FeedItem]
        /// When each post shown within the window was last shown, by post id.
        var lastShown: [String: Date]
        /// Continue the search after this post (nil: a first or a fresh search).
        var sinceID: String?
        /// The run's instant.
        var now: Date
        /// What the run may read from X under a spend cap (nil: no cap).
        var budget: PostBudget? = nil
        /// When each post was last known to exist, and the posts gone (`checks.json`).
        var checks = PostChecks()
        /// Posts never to be shown by this run: gone from X, or not confirmed in time.
        var excluded: Set<String> = []
        /// Posts a lookup took out of the previous timeline: when no new timeline can be made, the previous one is
        /// committed without them.
        var withdrawn: Set<String> = []
        /// Whether posts are checked on X at all (not with recorded answers).
        var checksPosts = true
    }

    /// What the searches found.
    struct Found: Sendable {
        /// The new posts, then the pool's, then the older ones, each post once.
        var items: [FeedItem]
        /// The pages this run read, newest first, then the earlier ones (candidates for the next run).
        var pages: [ReadPage]
        /// The newest post id read, where the next search continues.
        var newestPostID: String?
        /// The last response's rate-limit figures.
        var rateLimit: RateLimit?
        /// The last response's `api-version` header.
        var apiVersion: String?
        /// The spend cap left less than a page unread: the search stopped short of what the timeline wanted (or
        /// made no request at all).
        var isBudgetLimited = false
        /// The ids of every post this run's searches returned: they exist now.
        var readIDs: [String] = []
        /// The posts this run's searches read.
        var postsRead = 0
    }

    /// Gather: the state, the previous timeline, the history as it stands at `now`, and the posts in hand.
    func gather(now: Date) throws -> Run {
        let state = store.state() ?? RefreshState()
        let previous = (try? store.manifest()) ?? nil
        let remembers = settings.noRepeatWindow > 0
        let history =
            remembers
            ? (store.history() ?? History()).current(replacing: previous, at: now, window: settings.noRepeatWindow)
            : History()
        var builder = settings.builder
        builder.hidden = try store.hidden()
        builder.shownPostIDs = history.postIDs
        builder.shownMediaKeys = history.mediaKeys
        // Posts earlier searches read and did not show are still candidates while recent search would return them.
        let earlier = remembers ? store.candidatePages(for: query.text).map(ReadPage.init) : []
        var checks = store.checks() ?? PostChecks()
        if store.checks() == nil, let previous {
            // A timeline made before posts were checked: its new posts were read when it was made.
            checks.confirm(previous.entries.filter { !$0.isRepeat }.map(\.tweetID), at: previous.generatedAt)
        }
        let gone = Set(checks.gone.keys)
        var run = Run(
            state: state,
            previous: previous,
            history: history,
            builder: builder,
            earlier: earlier,
            pool: Self.unique(earlier.flatMap { $0.items(at: now) }).filter { !gone.contains($0.post.id) },
            lastShown: history.lastShown,
            sinceID: remembers ? Self.sinceID(state, previous: previous, query: query, now: now) : nil,
            now: now
        )
        run.checks = checks
        run.excluded = gone
        return run
    }

    /// Search: X is asked only for posts it has not sent before, and for no more than the posts in hand leave
    /// wanting; a quiet topic (fewer new posts than entries) reads further back than any post read before, one page
    /// at most, so that both searches together read no more than the entries and a quarter (the repeat fill uses
    /// the history for the rest).
    /// Under a spend cap, both searches together read at most the budget's posts (a search left less than a page
    /// asks for none: `XClient.search`'s `postLimit`).
    func search(_ run: Run, with client: XClient) async throws -> Found {
        var client = client
        // Retries within a run only after a success: a failing API is asked again on the back-off schedule alone.
        if run.state.consecutiveFailures > 0 { client.configuration.maxTries = 1 }
        let builder = run.builder
        let pool = run.pool
        let bill = run.budget?.read
        let record: ([String], [String]) -> Void = { posts, users in bill?(Billed(posts: posts, users: users)) }
        // Usable candidates in hand stand in for the page's margin.
        let spare = builder.selection(from: pool, isExhausted: true).chosen.count
        let newer = try await client.search(
            query,
            wanting: builder.entryCount,
            spare: spare,
            sinceID: run.sinceID,
            postLimit: run.budget?.posts,
            read: record
        ) { builder.postsStillWanted(after: $0.feedItems + pool) }
        var older: XClient.Outcome?
        // Further back than the pages kept and the posts shown (a page is dropped only when all its posts were shown).
        let missing = builder.postsStillWanted(after: newer.results.feedItems + pool)
        let read = run.earlier.flatMap(\.postIDs) + run.history.postIDs
        let allowance = RecentSearchRequest.pageSize(forEntries: builder.entryCount) - newer.postsRead
        // Repeats would fill what it leaves (looked up first: a request of its own), so a search back in time is
        // made only when the repeats cannot: a day's refresh stays at two requests.
        let repeatable = run.checksPosts ? (run.previous?.entries.filter { !$0.placeholder }.count ?? 0) : 0
        if missing > 0, run.sinceID != nil, allowance >= RecentSearchRequest.minimumPageSize, repeatable < missing,
            let oldest = read.min(by: Self.isOlder)
        {
            var onePage = client
            onePage.configuration.pageBudget = 1
            older = try await onePage.search(
                query,
                wanting: missing,
                untilID: oldest,
                postLimit: min(allowance, run.budget.map { $0.posts - newer.postsRead } ?? Int.max),
                read: record
            ) { builder.postsStillWanted(after: newer.results.feedItems + pool + $0.feedItems) }
        }
        let left = run.budget.map { $0.posts - newer.postsRead - (older?.postsRead ?? 0) }
        for error in newer.results.partialErrors + (older?.results.partialErrors ?? []) {
            logger.debug("partial error: \(Sanitized.excerpt(error.detail))")
        }
        let excluded = run.excluded
        return Found(
            items: Self.unique(newer.results.feedItems + pool + (older?.results.feedItems ?? [])).filter {
                !excluded.contains($0.post.id)
            },
            pages: ReadPage.pages(of: newer) + run.earlier + ReadPage.pages(of: older),
            newestPostID: newer.results.posts.first?.id,
            rateLimit: older?.rateLimit ?? newer.rateLimit,
            apiVersion: older?.apiVersion ?? newer.apiVersion,
            isBudgetLimited: left.map { $0 < RecentSearchRequest.minimumPageSize } ?? false,
            readIDs: newer.results.posts.map(\.id) + (older?.results.posts.map(\.id) ?? []),
            postsRead: newer.postsRead + (older?.postsRead ?? 0)
        )
    }

    /// Choose: the unshown posts for the entries and a few extra candidates (a picture found to repeat one shown
    /// gives its slot to the next), then, while they leave room, posts shown within the window that the search
    /// returned again, longest ago first and marked as repeats (`docs/timeline.md`); one manifest, dated from now.
    func choose(from items: [FeedItem], in run: Run) -> Manifest {
        var candidates = run.builder
        candidates.entryCount += settings.extraCandidates
        let selection = candidates.selection(from: items, isExhausted: true)
        for skip in selection.skipped where skip.reason != .timelineFull || settings.extraCandidates == 0 {
            logger.debug("post \(skip.postID) not used: \(skip.reason)")
        }
        let repeats = repeatCandidates(
            in: items,
            besides: selection,
            lastShown: run.lastShown,
            wanting: candidates.entryCount - selection.chosen.count
        )
        var planned = candidates.manifest(for: selection, query: query, size: settings.size, now: run.now)
        planned.entries += repeats.map { choice in
            var entry = Manifest.Entry(date: run.now, item: choice.item, media: choice.media)
            entry.isRepeat = true
            return entry
        }
        return planned
    }

    /// What the steps from the search's posts to the renders made.
    enum Made: Sendable {
        /// Nothing to show: no usable post at all, or no picture that could be had.
        case nothingToShow(Manifest)
        /// A timeline to commit, what making it counted, and the identity of every picture looked at.
        case timeline(Manifest, Summary, identities: [String: PictureIdentity])

        /// The timeline with the digests of the settings it was made with, so that a change of them makes it due.
        func stamped(with fingerprints: Manifest.Fingerprints) -> Made {
            guard case .timeline(var manifest, let summary, let identities) = self else { return self }
            manifest.fingerprints = fingerprints
            return .timeline(manifest, summary, identities: identities)
        }
    }

    /// Choose, fetch, keep distinct pictures, fill with repeats and render: the timeline the search's posts make.
    func makeTimeline(
        from found: Found,
        run: inout Run,
        connection: Connection,
        deadline: Deadline
    ) async throws -> Made {
        run.checks.confirm(found.readIDs, at: run.now)
        let planned = choose(from: found.items, in: run)
        // No usable post, new or shown before (docs/timeline.md): the last timeline stays, with back-off. Under a
        // spent budget the previous timeline's posts still fill a new day, as repeats.
        guard !planned.entries.isEmpty || (found.isBudgetLimited && run.previous?.entries.isEmpty == false) else {
            return .nothingToShow(planned)
        }
        let store = self.store
        let writes = PendingWrites()
        let reserved = ReservedFiles(in: store)
        let fetched: Manifest
        let fetchSummary: Summary
        let made: [String: PictureIdentity]
        do {
            (fetched, fetchSummary, made) = try await withDeadline(deadline) {
                try await fillImages(of: planned, with: connection.images, writes: writes, reserving: reserved)
            }
        } catch {
            // A server refreshing in process keeps no open file and no temp file of a refresh that gave up.
            try? await Self.settle(writes, releasing: reserved)
            throw error
        }
        // The last images' writes end, and the new names in images/ and avatars/ are made durable, on threads of
        // their own while the pictures are compared and the timeline made (awaited before it is returned, and so
        // before the commit: on every way out of this scope, a throw included).
        async let synced: Void = Self.sync(writes, releasing: reserved, in: store)
        let pictures = await identities(of: fetched, made: made)
        let distinct = await distinctPictures(of: fetched, identities: pictures, in: run, on: connection.images.lanes)
        let full =
            connection.checksPosts
            ? await verifiedFill(distinct, found: found, run: &run, client: connection.client)
            : fillingWithRepeats(distinct, previous: run.previous, builder: run.builder, now: run.now)
        // The one check before the commit: never an empty timeline over what is on screen (no picture could be
        // had, and only placeholders would repeat).
        guard !full.entries.isEmpty else { return .nothingToShow(full) }
        var summary = fetchSummary
        // A render's caption band draws the post's avatar from its file in avatars/: the pictures' writes end first
        // (a render made without it would be named for a caption without the avatar, and made again next run).
        if !settings.profiles.isEmpty && settings.captions { try await writes.wait() }
        let rendered: Manifest
        (rendered, summary.rendered) = try await withDeadline(deadline) {
            try await renderDisplays(of: full, with: connection.images)
        }
        summary.placeholders = rendered.entries.filter(\.placeholder).count
        try await synced
        return .timeline(withinBudget(rendered, found: found, run: run), summary, identities: distinct.identities)
    }

    /// Waits for `writes`, then removes the temp files `reserved` made that no image took: the writes under way may
    /// still take theirs. The writes' first error is thrown once the rest are removed.
    static func settle(_ writes: PendingWrites, releasing reserved: ReservedFiles) async throws {
        var failure: (any Error)?
        do { try await writes.wait() } catch { failure = error }
        try await FileWriters.run { reserved.releaseUnused() }
        if let failure { throw failure }
    }

    /// ``settle(_:releasing:)``, then makes the renames in `store`'s subdirectories durable, the three side by side.
    static func sync(_ writes: PendingWrites, releasing reserved: ReservedFiles, in store: CacheStore) async throws {
        try await settle(writes, releasing: reserved)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for name in CacheStore.subdirectories {
                group.addTask { try await FileWriters.run { try store.syncSubdirectory(name) } }
            }
            try await group.waitForAll()
        }
    }

    /// The kept entries filled with repeats, every post that needs it looked up first (a repeat, a post read 20
    /// hours ago or more): one gone, or that could not be asked about, gives its place to the next repeat (three
    /// rounds at most, then the timeline is left shorter).
    private func verifiedFill(
        _ distinct: DistinctPictures,
        found: Found,
        run: inout Run,
        client: XClient
    ) async
        -> Manifest
    {
        var spent = found.postsRead
        // A timeline the cap cut short is replaced when the cap renews: no entry of it is shown later than that.
        let renewsAt = found.isBudgetLimited ? run.budget?.renewsAt : nil
        let renewal = renewsAt?.addingTimeInterval(PostChecks.runLateness)
        let interval = Double(run.builder.interval.seconds)
        let fill = { (run: Run, spent: Int) in
            // Under a cap, a repeat that needs a lookup is taken only while the share can still pay for one, or, for
            // the entry that bridges to the renewal, the cap's lookup reserve; none starts after the renewal.
            var lookups = run.budget.map { max(0, $0.posts - spent) } ?? Int.max
            var reserve = run.budget?.lookupReserve ?? 0
            let checks = run.checks
            return fillingWithRepeats(
                distinct,
                previous: run.previous,
                builder: run.builder,
                now: run.now,
                excluding: run.excluded
            ) { id, end in
                if let renewsAt, end.addingTimeInterval(-interval) >= renewsAt { return false }
                guard checks.needsLookup(id, endingAt: min(end, renewal ?? end)) else { return true }
                if lookups > 0 {
                    lookups -= 1
                    return true
                }
                guard let renewsAt, end >= renewsAt, reserve > 0 else { return false }
                reserve -= 1
                return true
            }
        }
        var full = fill(run, spent)
        // The state after this run's success: no retry pending; a timeline the cap cut short is replaced when the cap
        // renews.
        var planned = run.state
        planned.retryAfter = nil
        for round in 1...3 {
            let limit = run.budget.map { max(0, $0.posts + $0.lookupReserve - spent) }
            let verified = await verify(
                full,
                lastEnd: lastEnd(of: withinBudget(full, found: found, run: run), state: planned, now: run.now),
                run: &run,
                client: client,
                limit: limit,
                keepsUnverified: false
            )
            spent += verified.postsRead
            guard !verified.removed.isEmpty else { break }
            run.excluded.formUnion(verified.removed)
            if round < 3 {
                full = fill(run, spent)
            } else {
                let entries = full.entries.filter { !verified.removed.contains($0.tweetID) }
                full = run.builder.manifest(scheduling: entries, query: query, size: settings.size, now: run.now)
            }
        }
        return full
    }

    /// A timeline the spend cap cut short is due again when the cap renews (never sooner than the minimum wait).
    private func withinBudget(_ manifest: Manifest, found: Found, run: Run) -> Manifest {
        guard found.isBudgetLimited, let renewsAt = run.budget?.renewsAt else { return manifest }
        var manifest = manifest
        let due = min(manifest.reloadAfter ?? renewsAt, renewsAt)
        manifest.reloadAfter = max(due, run.now.addingTimeInterval(TimelineBuilder.minimumWait))
        return manifest
    }

    /// The state a successful refresh leaves (`state.json`): failures cleared, where the next search continues, when
    /// the timeline's posts are next looked up.
    func succeeded(_ manifest: Manifest, run: Run, found: Found) -> RefreshState {
        var state = run.state
        note(found, in: &state)
        state.recordSuccess(manifest, newestPostID: found.newestPostID)
        state.budgetSpentUntil = found.isBudgetLimited ? run.budget?.renewsAt : nil
        scheduleLookup(for: manifest, state: &state, checks: run.checks, now: run.now)
        return state
    }

    /// What a commit leaves for ``recordSuccess(_:run:found:summary:after:)``: the state after the success, written
    /// and synced under a temp name, to be renamed into place.
    struct Committed: Sendable {
        var state: RefreshState
        var staged: CacheDirectory.Staged
    }

    /// Commit: the checks, the history (just before the manifest it describes) and the pages that still hold
    /// candidates, each replaced atomically (temp file, fsync, rename), side by side (they are independent files:
    /// each one's encoding and fsync overlap the others'), their three renames made durable by one fsync of the
    /// directory, then, once all three are, the manifest, atomically (its temp file written and synced beside
    /// them, renamed only then). The state after the success is written and synced beside them too, under a temp
    /// name that ``recordSuccess(_:run:found:summary:after:)`` renames once the manifest is committed.
    func commit(
        _ manifest: Manifest,
        run: inout Run,
        found: Found,
        identities: [String: PictureIdentity]
    ) async throws -> Committed {
        if let previous = run.previous, !run.withdrawn.isEmpty {
            // The files of posts gone from X go before the timeline that no longer names them is committed.
            store.withdraw(run.withdrawn, of: previous, keeping: manifest)
        }
        let store = self.store
        let checks = run.checks.trimmed(keeping: manifest, at: run.now)
        var writes: [@Sendable () throws -> Void] = [{ try store.write(checks, syncDirectory: false) }]
        if settings.noRepeatWindow > 0 {
            run.history.record(manifest, identities: identities)
            let (history, query, now) = (run.history, query.text, run.now)
            writes.append { try store.write(history, syncDirectory: false) }
            writes.append {
                try store.writeCandidatePages(
                    Self.pagesWithCandidates(found.pages, history: history, now: now),
                    for: query,
                    syncDirectory: false
                )
            }
        }
        // The manifest and the state are written and synced under temp names beside them; only their renames wait
        // for the three (the state's for the manifest's).
        let staged = Mutex<CacheDirectory.Staged?>(nil)
        writes.append {
            let file = try store.stage(manifest)
            staged.withLock { $0 = file }
        }
        let state = succeeded(manifest, run: run, found: found)
        let stagedState = Mutex<CacheDirectory.Staged?>(nil)
        writes.append {
            let file = try store.stage(state)
            stagedState.withLock { $0 = file }
        }
        do {
            try await Self.together(writes)
            // One fsync of the directory makes the renames of all three durable, before the commit's.
            try store.syncDirectory()
            // Set by the writes, which all succeeded.
            try store.commit(staged.withLock { $0 }!)
        } catch {
            for file in [staged.withLock { $0 }, stagedState.withLock { $0 }].compactMap(\.self) { store.discard(file) }
            throw error
        }
        return Committed(state: state, staged: stagedState.withLock { $0 }!)
    }

    /// Runs `work` side by side, each on a thread of ``FileWriters`` (all at once, not one per core: each is mostly an
    /// fsync's wait, and fsyncs at once share the disk's flushes), and throws the first error (in `work`'s order) once
    /// every one has finished.
    static func together(_ work: [@Sendable () throws -> Void]) async throws {
        let failures = await withTaskGroup(of: (Int, (any Error)?).self) { group in
            for (index, item) in work.enumerated() {
                group.addTask {
                    do {
                        try await FileWriters.run(item)
                        return (index, nil)
                    } catch {
                        return (index, error)
                    }
                }
            }
            var failures: [Int: any Error] = [:]
            for await (index, error) in group { failures[index] = error }
            return failures
        }
        if let first = failures.min(by: { $0.key < $1.key })?.value { throw first }
    }

    /// The pictures and avatars of the posts that stay candidates (not shown, inside the search window): a refresh
    /// fetches a few more pictures than it shows (``FeedSettings/extraCandidates``), and those of posts it did not
    /// use are kept for the next refresh, which then reuses them instead of fetching them again. `shown`: the posts
    /// shown within the window and those gone from X, whose files are not kept.
    static func spareFiles(_ pages: [ReadPage], shown: Set<String>, now: Date, size: ImageSize) -> Set<String> {
        var files: Set<String> = []
        for page in pages {
            for item in page.items(at: now) where !shown.contains(item.post.id) {
                for media in item.media {
                    if let path = CacheStore.imagePath(mediaKey: media.key, size: size) { files.insert(path) }
                }
                if let id = item.author?.id, let path = CacheStore.avatarPath(userID: id) { files.insert(path) }
            }
        }
        return files
    }

    /// After the commit: the state (failures cleared, where the next search continues: `committed`'s, renamed into
    /// place), the sweep of files neither timeline names nor a candidate needs, and the log line.
    func recordSuccess(
        _ manifest: Manifest,
        run: inout Run,
        found: Found,
        summary: inout Summary,
        after committed: Committed
    ) throws {
        run.state = committed.state
        try store.install(committed.staged)
        let spares =
            settings.noRepeatWindow > 0
            ? Self.spareFiles(
                found.pages,
                shown: run.history.postIDs.union(run.withdrawn),
                now: run.now,
                size: settings.size
            ) : []
        summary.removed = store.sweep(
            current: manifest,
            previous: run.previous,
            spares: spares,
            withdrawn: run.withdrawn
        )
        store.log(
            "refreshed: \(manifest.entries.count) entries, \(summary.fetched) images fetched, \(summary.reused) reused, "
                + "\(summary.placeholders) placeholders, \(summary.removed) old files removed; reload after "
                + (manifest.reloadAfter.map(InstantFormat.string) ?? "never"),
            at: run.now
        )
    }

    /// Keep the last timeline: the search gave nothing to show (no usable post, or no picture that could be had).
    /// The last good timeline stays (an empty one is committed only when there is none), and a retry is scheduled
    /// on the back-off.
    func keepLastTimeline(_ empty: Manifest, run: inout Run, found: Found) throws -> Outcome {
        try commitWithdrawal(run: &run)
        if found.isBudgetLimited, let renewsAt = run.budget?.renewsAt {
            return try keepLastTimeline(empty, run: &run, found: found, budgetRenewsAt: renewsAt)
        }
        let error = KFeedError(.apiResponse, "the search returned no usable post")
        note(found, in: &run.state)
        run.state.recordFailure(error, now: run.now)
        // The posts read were billed and none is usable: the next search starts after them.
        if settings.noRepeatWindow > 0, let newest = found.newestPostID { run.state.sinceID = newest }
        if run.previous == nil { try store.commit(empty) }
        scheduleLookup(for: (try? store.manifest()) ?? nil, state: &run.state, checks: run.checks, now: run.now)
        try store.write(run.checks.trimmed(keeping: (try? store.manifest()) ?? nil, at: run.now))
        try store.write(run.state)
        let retry = run.state.retryAfter.map(InstantFormat.string) ?? "-"
        store.log(
            "no usable post in \(found.items.count) results; kept the last timeline; retry after \(retry)",
            at: run.now
        )
        return .noUsablePost(retryAfter: run.state.retryAfter)
    }

    /// Keep the last timeline because the spend cap is spent and the posts in hand make none: no failure, no
    /// back-off; the next try is when the cap renews.
    private func keepLastTimeline(
        _ empty: Manifest,
        run: inout Run,
        found: Found,
        budgetRenewsAt renewsAt: Date
    ) throws -> Outcome {
        note(found, in: &run.state)
        run.state.budgetSpentUntil = renewsAt
        run.state.retryAfter = max(renewsAt, run.now.addingTimeInterval(TimelineBuilder.minimumWait))
        if run.previous == nil { try store.commit(empty) }
        // The timeline on screen stays until the cap renews: its last entry is looked up if that keeps it too long.
        scheduleLookup(for: (try? store.manifest()) ?? nil, state: &run.state, checks: run.checks, now: run.now)
        try store.write(run.checks.trimmed(keeping: (try? store.manifest()) ?? nil, at: run.now))
        try store.write(run.state)
        store.log(
            "budget spent until \(InstantFormat.string(from: renewsAt)); kept the last timeline",
            at: run.now
        )
        return .noUsablePost(retryAfter: run.state.retryAfter)
    }

    /// The last response's rate-limit figures and API version, kept in the state whatever the run made of it.
    private func note(_ found: Found, in state: inout RefreshState) {
        state.rateLimit = found.rateLimit ?? state.rateLimit
        state.apiVersion = found.apiVersion ?? state.apiVersion
    }
}

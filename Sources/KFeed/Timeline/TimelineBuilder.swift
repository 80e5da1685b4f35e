package import Foundation
package import KFeedImages
package import KFeedX

/// Chooses posts for the timeline and dates them: newest first, one post per entry, entry *i* at `now + i × interval`.
package struct TimelineBuilder: Sendable {
    /// How many entries the timeline has at most (1…100).
    package var entryCount: Int
    /// The time between entries.
    package var interval: Interval
    /// When the widget should ask again.
    package var policy: ReloadPolicy
    /// Keep posts flagged `possibly_sensitive`.
    package var allowsSensitive: Bool
    /// Use the still preview of videos and GIFs.
    package var usesVideoPreviews: Bool
    /// No author gets more entries than this while other authors' usable posts remain.
    package var maxEntriesPerAuthor: Int
    /// Posts not to use again (shown within the no-repeat window).
    package var shownPostIDs: Set<String> = []
    /// Media not to use again (shown within the no-repeat window); a post falls back to its next usable media.
    package var shownMediaKeys: Set<String> = []
    /// Accounts never shown (lower-cased usernames without the `@`): their posts are dropped whatever the query.
    package var deniedUsernames: Set<String> = []
    /// The only accounts shown, when not empty (lower-cased usernames without the `@`).
    package var allowedUsernames: Set<String> = []
    /// What the owner hid (`kfeed hide`): posts and accounts never shown again.
    package var hidden = Hidden()

    /// The shortest wait before a timeline is due again, and before a failed refresh is retried: no answer, however
    /// short or empty, makes the next cron run ask again (`docs/timeline.md`, "Reload policies").
    package static let minimumWait: TimeInterval = 15 * 60

    /// Creates a builder; the defaults are the contract's.
    package init(
        entryCount: Int = 24,
        interval: Interval = .hour,
        policy: ReloadPolicy = .atEnd,
        allowsSensitive: Bool = false,
        usesVideoPreviews: Bool = false,
        maxEntriesPerAuthor: Int = 3
    ) {
        self.entryCount = entryCount
        self.interval = interval
        self.policy = policy
        self.allowsSensitive = allowsSensitive
        self.usesVideoPreviews = usesVideoPreviews
        self.maxEntriesPerAuthor = maxEntriesPerAuthor
    }

    /// Chooses up to `entryCount` posts, recording why every other post was not used.
    /// - Parameters:
    ///   - items: joined posts, newest first (API order).
    ///   - isExhausted: no more pages will come; only then is the per-author cap relaxed to fill the timeline.
    /// - Returns: the chosen posts, newest first, and a reason for every other post.
    package func selection(from items: [FeedItem], isExhausted: Bool) -> Selection {
        var chosen: [(index: Int, choice: Selection.Choice)] = []
        var heldBack: [(index: Int, choice: Selection.Choice)] = []
        var reasons: [Int: SkipReason] = [:]
        var chosenKeys: Set<String> = []
        var perAuthor: [String: Int] = [:]

        for (index, item) in items.enumerated() {
            guard chosen.count < entryCount else {
                reasons[index] = .timelineFull
                continue
            }
            let media: Media
            switch usableMedia(of: item) {
            case .unusable(let reason):
                reasons[index] = reason
                continue
            case .usable(let found): media = found
            }
            guard let author = item.author else {
                reasons[index] = .missingAuthor
                continue
            }
            guard !chosenKeys.contains(media.key) else {
                reasons[index] = .duplicateMedia
                continue
            }
            let choice = Selection.Choice(item: item, media: media)
            guard perAuthor[author.id, default: 0] < maxEntriesPerAuthor else {
                heldBack.append((index, choice))
                reasons[index] = .authorShareFull
                continue
            }
            perAuthor[author.id, default: 0] += 1
            chosenKeys.insert(media.key)
            chosen.append((index, choice))
        }

        if isExhausted {
            for held in heldBack where chosen.count < entryCount {
                guard chosenKeys.insert(held.choice.media.key).inserted else {
                    reasons[held.index] = .duplicateMedia
                    continue
                }
                reasons[held.index] = nil
                chosen.append(held)
            }
            chosen.sort { $0.index < $1.index }
        }

        let skipped = reasons.sorted { $0.key < $1.key }.map {
            Selection.Skip(postID: items[$0.key].post.id, reason: $0.value)
        }
        return Selection(chosen: chosen.map(\.choice), skipped: skipped, isFull: chosen.count >= entryCount)
    }

    /// How many more usable posts a full timeline needs after `items` (0 when it is full): what a search
    /// still wants after each page.
    package func postsStillWanted(after items: [FeedItem]) -> Int {
        entryCount - selection(from: items, isExhausted: false).chosen.count
    }

    private enum MediaChoice {
        case usable(Media)
        case unusable(SkipReason)
    }

    /// The first usable media in attachment order, or why there is none.
    private func usableMedia(of item: FeedItem) -> MediaChoice {
        if hidden.postIDs.contains(item.post.id) { return .unusable(.hidden) }
        if let author = item.author, let reason = excluded(username: author.username) { return .unusable(reason) }
        if item.post.isPossiblySensitive && !allowsSensitive { return .unusable(.sensitive) }
        if item.post.mediaKeys.isEmpty { return .unusable(.noMedia) }
        if item.media.isEmpty { return .unusable(.mediaMissingFromIncludes) }
        if shownPostIDs.contains(item.post.id) { return .unusable(.shownRecently) }
        var sawMotion = false
        var sawShown = false
        for media in item.media {
            if shownMediaKeys.contains(media.key) {
                sawShown = true
                continue
            }
            switch media.kind {
            case .photo where media.url != nil:
                return .usable(media)
            case .video, .animatedGIF:
                sawMotion = true
                if usesVideoPreviews && media.previewImageURL != nil { return .usable(media) }
            default:
                continue
            }
        }
        if sawShown { return .unusable(.shownRecently) }
        return .unusable(sawMotion && !usesVideoPreviews ? .videoWithoutPreviews : .unsupportedMedia)
    }

    /// Why the posts of `username` are never shown (hidden, denied, or not among the allowed), or nil.
    package func excluded(username: String) -> SkipReason? {
        let name = username.lowercased()
        if hidden.usernames.contains(name) { return .hidden }
        if deniedUsernames.contains(name) { return .denied }
        if !allowedUsernames.isEmpty && !allowedUsernames.contains(name) { return .notAllowed }
        return nil
    }

    /// Whether an entry made earlier (a repeat, the previous timeline's) may still be shown: its post and its author
    /// are neither hidden nor denied, and its author is allowed.
    package func mayShow(_ entry: Manifest.Entry) -> Bool {
        !hidden.postIDs.contains(entry.tweetID) && excluded(username: entry.author.username) == nil
    }

    /// Dates the chosen posts: entry *i* at `now + i × interval`, and sets the reload date from the policy.
    /// - Parameters:
    ///   - selection: the posts to schedule, newest first.
    ///   - query: the query the posts came from.
    ///   - size: the widget image size the entries' images are made for.
    ///   - now: the first entry's date.
    /// - Returns: the manifest, without image paths.
    package func manifest(for selection: Selection, query: RecentSearchQuery, size: ImageSize, now: Date) -> Manifest {
        let entries = selection.chosen.map { Manifest.Entry(date: now, item: $0.item, media: $0.media) }
        return manifest(scheduling: entries, query: query, size: size, now: now)
    }

    /// Dates `entries` in their order — entry *i* at `now + i × interval` — and sets the reload date from the policy,
    /// never sooner than ``minimumWait`` after `now`.
    /// - Parameters:
    ///   - entries: the entries, newest post first; their dates are replaced.
    ///   - query: the query the posts came from.
    ///   - size: the widget image size the entries' images are made for.
    ///   - now: the first entry's date.
    /// - Returns: the manifest.
    package func manifest(
        scheduling entries: [Manifest.Entry],
        query: RecentSearchQuery,
        size: ImageSize,
        now: Date
    )
        -> Manifest
    {
        var entries = entries
        for index in entries.indices { entries[index].date = now.addingTimeInterval(Double(index) * interval.seconds) }
        // Never a reload already due when written: a short or empty timeline must not make every cron run ask again.
        let soonest = now.addingTimeInterval(Self.minimumWait)
        let reloadAfter: Date? =
            switch policy {
            case .atEnd: max(entries.last?.date ?? now, soonest)
            case .after(let date): max(date, soonest)
            case .never: nil
            }
        return Manifest(
            generatedAt: now,
            query: query.text,
            policy: policy,
            reloadAfter: reloadAfter,
            size: size,
            interval: interval,
            entries: entries,
            emptyReason: entries.isEmpty ? "no usable post in the search results" : nil
        )
    }
}

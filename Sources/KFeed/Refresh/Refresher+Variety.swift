import Foundation
import KFeedImages
import KFeedX
import Logging

/// Variety across days (`docs/timeline.md`): the posts that may repeat, the repost check, and the repeat fill that
/// keeps a day full when too few posts are new.
extension Refresher {
    /// The usable posts of `items` that were shown within the window (by post id) and are not in `selection`,
    /// shown longest ago first, at most `count`.
    func repeatCandidates(
        in items: [FeedItem],
        besides selection: Selection,
        lastShown: [String: Date],
        wanting count: Int
    ) -> [Selection.Choice] {
        guard count > 0, settings.noRepeatWindow > 0 else { return [] }
        var everything = settings.builder
        everything.entryCount = items.count
        let chosen = Set(selection.chosen.map(\.item.post.id))
        let shown = everything.selection(from: items, isExhausted: true).chosen.compactMap { choice in
            lastShown[choice.item.post.id].flatMap { chosen.contains(choice.item.post.id) ? nil : (choice, $0) }
        }
        return shown.sorted { $0.1 < $1.1 }.prefix(count).map(\.0)
    }

    /// The identity of each entry's picture by media key, when the no-repeat rule is on: `made`'s, computed as the
    /// pictures this refresh fetched were made; the others' (reused from the cache) decoded from their thumbnails, on
    /// a thread of its own, off Swift's cooperative pool.
    func identities(of filled: Manifest, made: [String: PictureIdentity] = [:]) async -> [String: PictureIdentity] {
        guard settings.noRepeatWindow > 0 else { return [:] }
        let store = self.store
        let pictures = filled.entries.filter { !$0.placeholder && made[$0.media.key] == nil }.compactMap { entry in
            entry.image.map { (entry.media.key, $0) }
        }
        guard !pictures.isEmpty else { return made }
        let result = await ImageDecodeBudget().detached(reserving: 0) {
            () -> Result<[String: PictureIdentity], Never> in
            var identities = made
            for (key, image) in pictures {
                identities[key] = store.data(at: image).flatMap(PictureIdentity.of(jpeg:))
            }
            return .success(identities)
        }
        switch result {
        case .success(let identities): return identities
        }
    }

    /// What ``distinctPictures(of:identities:in:on:)`` keeps and drops.
    struct DistinctPictures {
        /// The unshown entries to show, in the search's order, at most the builder's entry count.
        var kept: [Manifest.Entry]
        /// Entries that may fill the rest, with when each (or its picture) was last shown: the search's posts shown
        /// within the window, and entries whose picture was shown under another post or media key.
        var repeats: [(entry: Manifest.Entry, shownAt: Date)]
        /// The identity of every picture looked at, by media key (these, and those shown before).
        var identities: [String: PictureIdentity]
    }

    /// The first `builder.entryCount` unshown entries of `filled` whose picture (`pictures`, by media key) is not
    /// the same photo (``PictureIdentity``) as one shown within the window or an earlier entry (a repost under another
    /// media key); and the entries that may fill the rest as repeats. An entry without an identity (a placeholder,
    /// or the rule off) is kept as it is. The comparisons run on `lanes` (the image fetcher's, idle once the
    /// pictures are made).
    func distinctPictures(
        of filled: Manifest,
        identities pictures: [String: PictureIdentity],
        in run: Run,
        on lanes: DecodeLanes
    ) async -> DistinctPictures {
        let shown = run.history.pictures
        var result = DistinctPictures(kept: [], repeats: [], identities: shown.mapValues(\.identity))
        let identities = filled.entries.map { $0.placeholder ? nil : pictures[$0.media.key] }
        let mayBeKept = filled.entries.map { !$0.isRepeat }
        // The unshown entries after the one that fills the timeline when none is dropped (the extra candidates):
        // their comparisons with the earlier pictures are made only if asked for.
        let filling = mayBeKept.indices.filter { mayBeKept[$0] }.dropFirst(max(run.builder.entryCount - 1, 0)).first
        var same = await SamePictures(
            identities,
            mayBeKept: mayBeKept,
            shown: Array(shown.values),
            onDemandFrom: filling.map { $0 + 1 } ?? identities.count,
            on: lanes
        )
        var taken: [Int] = []
        for (index, entry) in filled.entries.enumerated() {
            guard let identity = identities[index] else {
                if !entry.isRepeat && result.kept.count < run.builder.entryCount { result.kept.append(entry) }
                continue
            }
            result.identities[entry.media.key] = identity
            // With the timeline full, an unshown entry is dropped unless its picture was shown (then it may repeat,
            // if no kept picture is the same): whatever the comparisons with the kept pictures say.
            if !entry.isRepeat, result.kept.count >= run.builder.entryCount, same.lastShown(index) == nil { continue }
            if taken.contains(where: { same.isSame(index, as: $0) }) { continue }
            if entry.isRepeat {
                result.repeats.append((entry, run.lastShown[entry.tweetID] ?? entry.date))
                continue
            }
            if let match = same.lastShown(index) {
                logger.debug("post \(entry.tweetID) not used: the same picture was shown within the no-repeat window")
                result.repeats.append((entry, match))
                continue
            }
            guard result.kept.count < run.builder.entryCount else { continue }
            taken.append(index)
            result.kept.append(entry)
        }
        return result
    }

    /// Which of a refresh's pictures are the same photo (``PictureIdentity/isSamePicture(as:)``) as which earlier
    /// one, and as which picture shown within the window: the comparisons ``distinctPictures(of:identities:in:on:)``
    /// may ask for, made up front on every lane (each is independent of the others; what the fill keeps depends on
    /// them in order, so it reads them afterwards), but for those of the pictures from `onDemandFrom` on that
    /// `mayBeKept` with the earlier ones, made when first asked for (the extra candidates', needed only when a
    /// picture before them was dropped, or theirs was shown). The same comparisons, in the same direction (the
    /// later picture against the earlier or shown one), as asking one at a time; a few more: those against earlier
    /// pictures that turn out not kept.
    struct SamePictures {
        /// `same[index * count + earlier]`, for `earlier < index`, once `compared[index]`.
        private var same: [Bool]
        /// Whether picture `index` was compared with the earlier ones.
        private var compared: [Bool]
        /// The latest instant a shown picture that is the same as picture `index` was shown, if any.
        private var shownAt: [Date?]
        private let count: Int
        private let identities: [PictureIdentity?]
        private let mayBeKept: [Bool]

        /// Compares `identities` (nil: no picture) with each other (each against the earlier ones that `mayBeKept`;
        /// from `onDemandFrom` on, those that `mayBeKept` only when asked) and, those that `mayBeKept`, with `shown`,
        /// on `lanes`' threads.
        init(
            _ identities: [PictureIdentity?],
            mayBeKept: [Bool],
            shown: [(identity: PictureIdentity, shownAt: Date)],
            onDemandFrom: Int = .max,
            on lanes: DecodeLanes
        ) async {
            let count = identities.count
            self.count = count
            self.identities = identities
            self.mayBeKept = mayBeKept
            let compared = identities.indices.map { !mayBeKept[$0] || $0 < onDemandFrom }
            let table = Table(count: count)
            defer { table.deallocate() }
            // The last pictures first: picture `index` is compared with up to `index` earlier ones, so taking the
            // longest rows first leaves the short ones to even out the lanes' ends.
            await lanes.forEach(count) { iteration in
                let index = count - 1 - iteration
                guard let identity = identities[index] else { return }
                if compared[index] {
                    Self.compare(index, identities, mayBeKept, count, into: table.same)
                }
                guard mayBeKept[index] else { return }
                table.shownAt[index] = shown.filter { identity.isSamePicture(as: $0.identity) }.map(\.shownAt).max()
            }
            self.same = Array(table.same)
            self.compared = compared
            self.shownAt = Array(table.shownAt)
        }

        /// Writes row `index` of `same`: picture `index` against each earlier one that `mayBeKept`.
        private static func compare(
            _ index: Int,
            _ identities: [PictureIdentity?],
            _ mayBeKept: [Bool],
            _ count: Int,
            into same: UnsafeMutableBufferPointer<Bool>
        ) {
            guard let identity = identities[index] else { return }
            for earlier in 0..<index where mayBeKept[earlier] {
                if let other = identities[earlier] { same[index * count + earlier] = identity.isSamePicture(as: other) }
            }
        }

        /// The answers as the comparisons write them: iteration `index` writes only row `index` of `same` and slot
        /// `index` of `shownAt`, so no two threads write the same memory.
        private struct Table: @unchecked Sendable {
            let same: UnsafeMutableBufferPointer<Bool>
            let shownAt: UnsafeMutableBufferPointer<Date?>

            /// A table of `count` pictures: nothing the same, nothing shown.
            init(count: Int) {
                same = .allocate(capacity: count * count)
                same.initialize(repeating: false)
                shownAt = .allocate(capacity: count)
                shownAt.initialize(repeating: nil)
            }

            func deallocate() {
                same.deallocate()
                shownAt.deinitialize()
                shownAt.deallocate()
            }
        }

        /// Whether picture `index` is the same photo as the earlier picture `earlier` (its comparisons made now if
        /// they were left until asked for).
        mutating func isSame(_ index: Int, as earlier: Int) -> Bool {
            if !compared[index] {
                let (identities, mayBeKept, count) = (self.identities, self.mayBeKept, self.count)
                same.withUnsafeMutableBufferPointer { Self.compare(index, identities, mayBeKept, count, into: $0) }
                compared[index] = true
            }
            return same[index * count + earlier]
        }

        /// When a picture shown within the window that is the same photo as picture `index` was last shown.
        func lastShown(_ index: Int) -> Date? { shownAt[index] }
    }

    /// The kept entries, then, while the timeline has room, posts shown within the window, longest ago first
    /// (`docs/timeline.md`): the search's, the previous timeline's, and reposts of pictures shown; each marked as a
    /// repeat, never a post, a media key or a picture twice; dated anew.
    /// `confirmable` says whether a repeat may take the next place (ending, at the latest, at the instant given): its
    /// confirmation covers it, or a lookup may still be afforded (`Refresher+Steps.swift`); nil: any.
    func fillingWithRepeats(
        _ distinct: DistinctPictures,
        previous: Manifest?,
        builder: TimelineBuilder,
        now: Date,
        excluding excluded: Set<String> = [],
        confirmable: ((String, Date) -> Bool)? = nil
    ) -> Manifest {
        var entries = distinct.kept.filter { !excluded.contains($0.tweetID) }
        let kept = entries.count
        if entries.count < builder.entryCount, settings.noRepeatWindow > 0 {
            let earlier =
                previous.map { previous in
                    previous.query == query.text && previous.size == settings.size
                        ? previous.entries.filter { !$0.placeholder && $0.date < now }.map { ($0, $0.date) } : []
                } ?? []
            let candidates = (distinct.repeats + earlier).sorted { $0.1 < $1.1 }
            var posts = Set(entries.map(\.tweetID))
            var keys = Set(entries.map(\.media.key))
            var pictures = entries.compactMap { distinct.identities[$0.media.key] }
            for (candidate, _) in candidates where entries.count < builder.entryCount && builder.mayShow(candidate) {
                let identity = distinct.identities[candidate.media.key]
                let end = now.addingTimeInterval(Double(entries.count + 1) * Double(builder.interval.seconds))
                guard !posts.contains(candidate.tweetID), !keys.contains(candidate.media.key),
                    !excluded.contains(candidate.tweetID),
                    !pictures.contains(where: { identity?.isSamePicture(as: $0) ?? false }),
                    confirmable?(candidate.tweetID, end) ?? true
                else { continue }
                var entry = candidate
                entry.isRepeat = true
                entry.renders = nil
                entries.append(entry)
                posts.insert(entry.tweetID)
                keys.insert(entry.media.key)
                if let identity { pictures.append(identity) }
            }
            if entries.count > kept {
                logger.debug(
                    "\(entries.count - kept) entries repeat posts shown longest ago (too few unshown)"
                )
            }
        }
        return builder.manifest(scheduling: entries, query: query, size: settings.size, now: now)
    }
}

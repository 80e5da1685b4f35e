import Foundation
import KFeedImages
import Synchronization

extension Refresher {
    /// The repost comparisons of the pictures a refresh makes, made while it makes them: each picture's identity,
    /// once computed on its decode thread, is compared there with the pictures identified before it and with those
    /// shown within the window. These are the comparisons ``SamePictures`` makes up front once every picture is in
    /// (the same pairs, in the same direction: the later picture against the earlier or shown one), so they run
    /// while later downloads are in flight or waiting for a core, and what is left after the last picture is made is
    /// that picture's own comparisons. ``SamePictures`` takes the answers (``answers()``) and makes only the rest
    /// (pictures reused from the cache, whose identities come later).
    final class EarlyComparisons: Sendable {
        /// What the comparisons made so far answered; `nil` where none was made.
        struct Answers: Sendable {
            /// `same[index * count + earlier]`, for `earlier < index`: whether picture `index` is the same photo as
            /// picture `earlier`.
            var same: [Bool?]
            /// Whether picture `index` was compared with the pictures shown, and the latest instant one of those that
            /// is the same photo was shown.
            var shownAt: [Date??]
            /// The identity each answer was made with, by picture (``SamePictures`` uses an answer only for the same
            /// identities).
            var identities: [PictureIdentity?]
        }

        /// How many pictures the manifest has (its entries, in order).
        let count: Int
        private let mayBeKept: [Bool]
        /// Whether picture `index`'s comparisons with the earlier pictures are made up front (``SamePictures``'s
        /// `compared`); the others are made when asked for, and never here.
        private let upFront: [Bool]
        private let shown: [(identity: PictureIdentity, shownAt: Date)]
        private let table: Mutex<Answers>

        /// Comparisons for the pictures of `manifest`'s entries (in order), as `distinctPictures` will ask for them
        /// with `entryCount` entries to fill, against the pictures `shown` within the window.
        convenience init(for manifest: Manifest, entryCount: Int, shown: [(identity: PictureIdentity, shownAt: Date)]) {
            let order = ComparisonOrder(manifest, entryCount: entryCount)
            self.init(mayBeKept: order.mayBeKept, onDemandFrom: order.onDemandFrom, shown: shown)
        }

        /// Comparisons as ``SamePictures`` makes them up front with these arguments (one picture per element of
        /// `mayBeKept`).
        init(mayBeKept: [Bool], onDemandFrom: Int, shown: [(identity: PictureIdentity, shownAt: Date)]) {
            count = mayBeKept.count
            self.mayBeKept = mayBeKept
            upFront = mayBeKept.indices.map { !mayBeKept[$0] || $0 < onDemandFrom }
            self.shown = shown
            table = Mutex(
                Answers(
                    same: [Bool?](repeating: nil, count: count * count),
                    shownAt: [Date??](repeating: nil, count: count),
                    identities: [PictureIdentity?](repeating: nil, count: count)
                )
            )
        }

        /// Records `identity` as the picture of entries `indices` and makes their comparisons with the pictures
        /// recorded before (each pair is made by whichever of its two pictures is recorded second) and with those
        /// shown. Runs on the caller's thread; safe from several at once.
        func record(_ identity: PictureIdentity, at indices: [Int]) {
            let mine = indices.filter { (0..<count).contains($0) }
            guard !mine.isEmpty else { return }
            let recorded = table.withLock { answers in
                for index in mine { answers.identities[index] = identity }
                return answers.identities
            }
            var same: [(slot: Int, answer: Bool)] = []
            var shownAt: [(index: Int, answer: Date?)] = []
            for index in mine {
                for (other, otherIdentity) in recorded.enumerated() where other != index {
                    guard let otherIdentity else { continue }
                    if other < index, mayBeKept[other], upFront[index] {
                        same.append((index * count + other, identity.isSamePicture(as: otherIdentity)))
                    } else if other > index, mayBeKept[index], upFront[other], !mine.contains(other) {
                        same.append((other * count + index, otherIdentity.isSamePicture(as: identity)))
                    }
                }
                if mayBeKept[index] {
                    shownAt.append(
                        (index, shown.filter { identity.isSamePicture(as: $0.identity) }.map(\.shownAt).max())
                    )
                }
            }
            table.withLock { answers in
                for (slot, answer) in same { answers.same[slot] = answer }
                for (index, answer) in shownAt { answers.shownAt[index] = .some(answer) }
            }
        }

        /// The answers made so far.
        func answers() -> Answers { table.withLock { $0 } }
    }

    /// Which pictures of a manifest ``SamePictures`` compares, and when: the entries that may be kept (not repeats),
    /// and the first of the extra candidates (after the one that fills the timeline when none is dropped), whose
    /// comparisons with the earlier pictures are made only if asked for.
    struct ComparisonOrder {
        var mayBeKept: [Bool]
        var onDemandFrom: Int

        init(_ manifest: Manifest, entryCount: Int) {
            let mayBeKept = manifest.entries.map { !$0.isRepeat }
            let filling = mayBeKept.indices.filter { mayBeKept[$0] }.dropFirst(max(entryCount - 1, 0)).first
            self.mayBeKept = mayBeKept
            onDemandFrom = filling.map { $0 + 1 } ?? mayBeKept.count
        }
    }
}

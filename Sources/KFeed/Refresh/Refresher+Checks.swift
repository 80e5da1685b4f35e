import Foundation
import KFeedBase
import KFeedX
import Logging

/// Deleted within a day (`docs/timeline.md`): before a post is shown again, and for every post still on screen 20
/// hours after kfeed last learned it exists, a post lookup asks X whether it is still there; a post gone, protected,
/// withheld or whose author is suspended leaves the timeline, and its files the cache.
extension Refresher {
    /// What a lookup left of a timeline.
    struct Verified: Sendable {
        /// Posts to take out of the timeline: gone, or not confirmed in time.
        var removed: Set<String> = []
        /// Posts that could not be asked about (the spend cap, or X failing) and were kept because their
        /// confirmation is still younger than ``PostChecks/expiryAge``.
        var unverified: [String] = []
        /// Posts X returned (what it bills).
        var postsRead = 0
    }

    /// Asks X about the posts of `manifest` that need it at `run.now` (``PostChecks/needingLookup(in:at:lastEnd:)``),
    /// at most `limit` of them, and records the answer in `run.checks`.
    /// - Parameters:
    ///   - manifest: the timeline whose posts are asked about.
    ///   - lastEnd: when its last entry is sure to be off the screen (``lastEnd(of:state:now:)``).
    ///   - run: the run (its checks, budget and instant).
    ///   - client: the X client.
    ///   - limit: the most posts the lookup may read (nil: no cap).
    ///   - keepsUnverified: whether a post that could not be asked about stays until its confirmation is
    ///     ``PostChecks/expiryAge`` old (a timeline on screen), or goes at once (a timeline about to be committed,
    ///     whose posts are then all asked about now that would need it before they leave the screen).
    /// - Returns: the posts to take out, those kept unchecked, and the posts X returned.
    func verify(
        _ manifest: Manifest,
        lastEnd: Date,
        run: inout Run,
        client: XClient,
        limit: Int?,
        keepsUnverified: Bool
    ) async -> Verified {
        let needing = run.checks.needingLookup(in: manifest, at: run.now, lastEnd: lastEnd, ahead: !keepsUnverified)
        guard !needing.isEmpty else { return Verified() }
        var result = Verified()
        var unanswered = needing
        let record = run.budget?.read
        do {
            var client = client
            if run.state.consecutiveFailures > 0 { client.configuration.maxTries = 1 }
            let answer = try await client.lookUp(needing, postLimit: limit) { ids in
                record?(Billed(posts: ids, lookup: true))
            }
            run.checks.record(answer, at: run.now)
            result.postsRead = answer.postsRead.count
            result.removed = Set(answer.gone.keys)
            unanswered = needing.filter { !answer.present.contains($0) && answer.gone[$0] == nil }
            for (id, reason) in answer.gone.sorted(by: { $0.key < $1.key }) {
                logger.debug("post \(id) is no longer shown: \(reason.rawValue)")
            }
            if !answer.gone.isEmpty {
                store.log(
                    "post lookup: \(answer.gone.count) of \(needing.count) posts gone ("
                        + answer.gone.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.rawValue)" }
                        .joined(separator: ", ") + ")",
                    at: run.now
                )
            }
        } catch let error as KFeedError {
            store.log("post lookup failed (\(error.code)): \(error.message)", at: run.now)
        } catch {
            store.log("post lookup failed: \(error)", at: run.now)
        }
        for id in unanswered {
            let expires = run.checks.confirmedAt(id).addingTimeInterval(PostChecks.expiryAge)
            if keepsUnverified && expires > run.now {
                result.unverified.append(id)
            } else {
                result.removed.insert(id)
            }
        }
        if !unanswered.isEmpty {
            logger.debug("\(unanswered.count) posts could not be looked up (spend cap or failure)")
        }
        return result
    }

    /// The lookup a timeline on screen is due for, with no search: nil when a post left it (the caller then makes a
    /// new timeline without it, filled as the repeat fill says), else the outcome (nothing committed but the
    /// checks and the state).
    func checkPosts(of previous: Manifest, run: inout Run, client: XClient) async throws -> Outcome? {
        let limit = run.budget.map { max(0, $0.posts) }
        let verified = await verify(
            previous,
            lastEnd: lastEnd(of: previous, state: run.state, now: run.now),
            run: &run,
            client: client,
            limit: limit,
            keepsUnverified: true
        )
        if !verified.removed.isEmpty {
            run.withdrawn = verified.removed
            run.excluded.formUnion(verified.removed)
            return nil
        }
        // Nothing gone: the next lookup when a post on screen needs one again; a post that could not be asked about
        // is asked again within the hour, and taken out when its confirmation is ``PostChecks/expiryAge`` old.
        scheduleLookup(for: previous, state: &run.state, checks: run.checks, now: run.now)
        let expiries = verified.unverified.map {
            run.checks.confirmedAt($0).addingTimeInterval(PostChecks.expiryAge)
        }
        if let soonest = expiries.min() {
            let next = min(soonest, run.now.addingTimeInterval(3_600))
            run.state.lookupDue = max(next, run.now.addingTimeInterval(TimelineBuilder.minimumWait))
        }
        try store.write(run.checks.trimmed(keeping: previous, at: run.now))
        try store.write(run.state)
        store.log(
            "post lookup: \(verified.postsRead) posts still there"
                + (verified.unverified.isEmpty ? "" : ", \(verified.unverified.count) not checked")
                + "; next lookup " + (run.state.lookupDue.map(InstantFormat.string) ?? "never"),
            at: run.now
        )
        return .notDue(until: [run.state.lookupDue, previous.reloadAfter].compactMap { $0 }.min())
    }

    /// `manifest` without the entries of `postIDs`: the entries not yet over move up to fill the hours they leave
    /// (the one on screen is replaced by the next), and an `atEnd` timeline ends as much sooner.
    static func withdrawing(_ postIDs: Set<String>, from manifest: Manifest, at now: Date) -> Manifest {
        var result = manifest
        let ends = PostChecks.ends(of: manifest)
        let firstOpen = ends.firstIndex { $0 > now } ?? manifest.entries.count
        let over = manifest.entries.prefix(firstOpen).filter { !postIDs.contains($0.tweetID) }
        var open = manifest.entries.dropFirst(firstOpen).filter { !postIDs.contains($0.tweetID) }
        if firstOpen < manifest.entries.count {
            let start = manifest.entries[firstOpen].date
            for index in open.indices {
                open[index].date = start.addingTimeInterval(Double(index) * Double(manifest.interval.seconds))
            }
        }
        result.entries = over + open
        if manifest.policy == .atEnd, let last = result.entries.last?.date {
            result.reloadAfter = max(last, now.addingTimeInterval(TimelineBuilder.minimumWait))
        }
        if result.entries.isEmpty {
            result.emptyReason = "every post was deleted on X, or could not be checked"
            result.reloadAfter = now.addingTimeInterval(TimelineBuilder.minimumWait)
        }
        return result
    }

    /// The previous timeline without the posts a lookup withdrew and those whose confirmation is
    /// ``PostChecks/expiryAge`` old (they could not be checked in time), committed when no new timeline could be
    /// made: what X's terms ask comes before the last good timeline.
    func commitWithdrawal(run: inout Run) throws {
        guard let previous = run.previous, run.checksPosts || !run.withdrawn.isEmpty else { return }
        let checks = run.checks
        let now = run.now
        // The last entry stays on screen until a timeline replaces it: taking one out can put an earlier one back.
        let expired = { (manifest: Manifest) in
            zip(manifest.entries, PostChecks.ends(of: manifest)).compactMap { entry, end in
                end > now && checks.confirmedAt(entry.tweetID).addingTimeInterval(PostChecks.expiryAge) <= now
                    ? entry.tweetID : nil
            }
        }
        var manifest = Self.withdrawing(run.withdrawn, from: previous, at: now)
        while case let more = expired(manifest), !more.isEmpty {
            run.withdrawn.formUnion(more)
            manifest = Self.withdrawing(run.withdrawn, from: previous, at: now)
        }
        guard !run.withdrawn.isEmpty else { return }
        store.withdraw(run.withdrawn, of: previous, keeping: manifest)
        scheduleLookup(for: manifest, state: &run.state, checks: run.checks, now: run.now)
        try store.write(run.checks.trimmed(keeping: manifest, at: run.now))
        try store.commit(manifest)
        try store.write(run.state)
        store.sweep(current: manifest, previous: previous, withdrawn: run.withdrawn)
        store.log(
            "took \(run.withdrawn.count) posts out of the timeline (gone from X, or not checked within "
                + String(format: "%g hours)", PostChecks.expiryAge / 3_600),
            at: run.now
        )
        run.withdrawn = []
    }
}

import Foundation
import KFeed
import KFeedBase
import KFeedImages
import Logging
import NIOCore

/// The display renders `kfeed serve` makes itself, for a profile a client asks for (`/api/display`,
/// `/current.jpg?profile=P`) that the refresh did not render (`docs/serve.md`, "Renders on demand").
///
/// A render is made once per generation, entry and profile, named as the refresh would name it
/// (``EntryRender``), and kept in memory with the generation: it is served under its path like the files the
/// manifest names, until the generation is neither the current nor the previous one, or the shelf is full. Its
/// source is the best picture at hand: the cached image when it covers the panel, else X's rendition that does
/// (fetched without the token, with a refresh's limits: ``ImageFetcher/download(_:)``), else the cached image
/// scaled up, else the placeholder card.
///
/// Bounded: one render at a time (a waiting request for the same render shares it), at most ``maxPending`` renders
/// queued, ``maxRenders`` and ``maxBytes`` kept, panels of at most ``maxPixels`` unless `--profile` named them, and a
/// request waits at most ``waitLimit`` before it gets the previous picture for that profile instead.
///
/// `@unchecked Sendable`: `made`, `order` and `pending` are guarded by `lock`; the fetcher is made once, under it.
final class RenderShelf: @unchecked Sendable {
    /// The most renders kept.
    static let maxRenders = 48
    /// The most bytes of renders kept.
    static let maxBytes = 24 << 20
    /// The most distinct renders waiting or running at once; beyond it a request gets the previous picture, or
    /// waits for a place when there is none.
    static let maxPending = 8
    /// The largest panel rendered on demand for a profile `--profile` did not name, in pixels (1920×1080).
    static let maxPixels = 1_920 * 1_080
    /// The longest a request waits for its render.
    static let waitLimit = Duration.seconds(60)

    /// One render: the generation (its manifest's identity), the entry (its date) and the profile.
    struct Key: Hashable {
        var generation: CacheStore.FileIdentity
        var entry: Date
        var profile: String
    }

    /// A render made, under its path relative to the cache directory.
    struct Made: Sendable {
        var path: String
        var file: ServedFile
    }

    private let settings: ServeConfiguration
    /// The feed rendered for: the profiles it allows, whether its renders carry the caption band.
    private let feed: ServeConfiguration.Feed
    private let lock = NSLock()
    private var made: [Key: Made] = [:]
    private var order: [Key] = []
    private var pending: [Key: Task<Made?, Never>] = [:]
    private var fetcher: ImageFetcher??
    /// One render at a time: shared by every feed's shelf.
    private let slot: ImageDecodeBudget
    /// The decode memory a render reserves.
    private let budget = ImageDecodeBudget()

    /// Creates an empty shelf for `feed`, whose renders take turns in `slot` (capacity 1, shared by all feeds).
    init(settings: ServeConfiguration, feed: ServeConfiguration.Feed, slot: ImageDecodeBudget) {
        self.settings = settings
        self.feed = feed
        self.slot = slot
    }

    /// A render made under `path` for a generation still served.
    func file(_ path: String) -> ServedFile? {
        lock.withLock { order.last { made[$0]?.path == path }.flatMap { made[$0]?.file } }
    }

    /// The render of `entry` for `profile` in `generation`, made now if need be (waiting at most ``waitLimit``);
    /// else the last render made for that profile (the previous picture); nil when there is none.
    func render(_ entry: Manifest.Entry, profile: DisplayProfile, in generation: Generation) async -> Made? {
        let key = Key(generation: generation.identity, entry: entry.date, profile: profile.name)
        let previous = {
            self.lock.withLock { self.order.last { $0.profile == profile.name }.flatMap { self.made[$0] } }
        }
        // A full queue: the previous picture for this profile if there is one, else wait for a place (within the
        // same limit) rather than refuse.
        var task = enqueue(entry, profile: profile, in: generation, key: key)
        let elapsed = Stopwatch(settings.clock)
        while case .full(let waitFor) = task {
            if let shown = previous() { return shown }
            let left = Self.waitLimit - elapsed()
            guard left > .zero else { return nil }
            // Others wait for the same place: whoever loses the race waits for the next one.
            _ = await value(of: waitFor, within: left)
            task = enqueue(entry, profile: profile, in: generation, key: key)
        }
        if let done = lock.withLock({ made[key] }) { return done }
        if case .queued(let queued) = task, let made = await value(of: queued, within: Self.waitLimit) {
            return made
        }
        return previous()
    }

    /// Where a render request stands: made already, queued (its task), or the queue full (a task to wait for).
    private enum Queued {
        case made
        case queued(Task<Made?, Never>)
        case full(Task<Made?, Never>)
    }

    private func enqueue(
        _ entry: Manifest.Entry,
        profile: DisplayProfile,
        in generation: Generation,
        key: Key
    ) -> Queued {
        lock.withLock {
            if made[key] != nil { return .made }
            if let task = pending[key] { return .queued(task) }
            if pending.count >= Self.maxPending, let any = pending.values.first { return .full(any) }
            let task = Task { await self.make(entry, profile: profile, in: generation, key: key) }
            pending[key] = task
            return .queued(task)
        }
    }

    /// Whether `profile` may be rendered on demand: one `--profile` named, or a panel of at most ``maxPixels``.
    func allows(_ profile: DisplayProfile) -> Bool {
        feed.profiles?.contains(profile.name) == true || profile.width * profile.height <= Self.maxPixels
    }

    /// `task`'s value, or nil when it takes longer than `limit` (the task runs on).
    private func value(of task: Task<Made?, Never>, within limit: Duration) async -> Made? {
        let clock = settings.clock
        return await withTaskGroup(of: Made??.self) { group in
            group.addTask { .some(await task.value) }
            group.addTask {
                try? await clock.sleep(for: limit)
                return .none
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? nil
        }
    }

    /// Makes the render (one at a time), keeps it, and forgets it as pending.
    private func make(
        _ entry: Manifest.Entry,
        profile: DisplayProfile,
        in generation: Generation,
        key: Key
    ) async
        -> Made?
    {
        let result = await slot.holding(1) { await self.rendering(entry, profile: profile, in: generation) }
        lock.withLock {
            pending[key] = nil
            guard let result else { return }
            made[key] = result
            order.append(key)
            prune(keeping: generation.identity)
        }
        return result
    }

    /// Drops renders of generations older than the previous one, then the oldest until within the bounds.
    /// Called with `lock` held.
    private func prune(keeping current: CacheStore.FileIdentity) {
        var generations: [CacheStore.FileIdentity] = []
        for key in order.reversed() where !generations.contains(key.generation) { generations.append(key.generation) }
        let kept = Set(generations.prefix(2))
        for key in order where !kept.contains(key.generation) { made[key] = nil }
        order.removeAll { made[$0] == nil }
        var bytes = order.reduce(0) { $0 + (made[$1]?.file.bytes.readableBytes ?? 0) }
        while order.count > Self.maxRenders || bytes > Self.maxBytes, order.count > 1 {
            let oldest = order.removeFirst()
            bytes -= made[oldest]?.file.bytes.readableBytes ?? 0
            made[oldest] = nil
        }
    }

    /// The render's bytes from the best source at hand; nil when it cannot be made (a missing render library).
    private func rendering(
        _ entry: Manifest.Entry,
        profile: DisplayProfile,
        in generation: Generation
    ) async
        -> Made?
    {
        let avatar = entry.author.avatar.flatMap { generation.files[$0] }.map { Data($0.bytes.readableBytesView) }
        guard
            let render = EntryRender(
                entry,
                profile: profile,
                captions: feed.captions,
                timeZone: settings.timeZone,
                avatar: avatar
            )
        else { return nil }
        let cached = entry.placeholder ? nil : entry.image.flatMap { generation.files[$0] }
        var source: ImageFetcher.Fetched =
            cached.map { .success(Data($0.bytes.readableBytesView)) } ?? .failure("no picture")
        let size = generation.manifest.size
        if !entry.placeholder, size.width < profile.width || size.height < profile.height,
            let url = entry.media.sourceURL, let fetcher = imageFetcher()
        {
            let candidates = ImageRendition.photoCandidates(
                for: url,
                width: entry.media.width,
                height: entry.media.height,
                target: profile.sourceSize
            )
            switch await fetcher.download(candidates) {
            case .success(let jpeg): source = .success(jpeg)
            case .failure(let reason):
                settings.logger.debug("render \(render.path): the source picture: \(reason); using the cached image")
                if cached == nil { source = .failure(reason) }
            }
        }
        do {
            let data = try await render.data(from: source, hadSource: !entry.placeholder, budget: budget)
            settings.logger.debug("rendered \(render.path) on demand (\(data.count) bytes)")
            return Made(
                path: render.path,
                file: ServedFile(bytes: [UInt8](data), path: render.path, modified: settings.now())
            )
        } catch {
            settings.logger.warning("cannot render \(profile.name) on demand: \(error.message)")
            return nil
        }
    }

    /// The fetcher for source pictures, made on first use; nil when the server has no way to fetch them.
    private func imageFetcher() -> ImageFetcher? {
        lock.withLock {
            if let fetcher { return fetcher }
            let made = (try? settings.renderSources?()).map { ImageFetcher(transport: $0, logger: settings.logger) }
            fetcher = .some(made)
            return made
        }
    }
}

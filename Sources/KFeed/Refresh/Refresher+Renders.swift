import Foundation
import KFeedBase
import KFeedImages

extension Refresher {
    /// One render to make: the file and what goes in it, and the source renditions to try (empty for a
    /// placeholder entry).
    private struct RenderJob: Sendable {
        var render: EntryRender
        var candidates: [URL]
    }

    /// Makes the display render of every entry for every profile of the plan (`docs/renders.md`) and names them in
    /// the manifest as `entries[i].renders[P]`. A render is reused when the cache holds it: its name carries the
    /// media key, the profile and a digest of the caption, so the same picture with the same caption on the same
    /// panel is the same file. Each source is fetched at the rendition that covers the panel (not the widget
    /// thumbnail scaled up), once for all profiles that need that rendition; a picture that cannot be had or
    /// decoded renders as the placeholder card with its reason.
    /// - Returns: the manifest naming the renders, and how many were made.
    /// - Throws: `KFeedError` `.configuration` when a render library or every font is missing (naming the Debian
    ///   package), `.io` when a file cannot be written.
    func renderDisplays(of manifest: Manifest, with images: ImageFetcher) async throws -> (Manifest, Int) {
        guard !settings.profiles.isEmpty, !manifest.entries.isEmpty else { return (manifest, 0) }
        var manifest = manifest
        var jobs: [RenderJob] = []
        for (index, entry) in manifest.entries.enumerated() {
            let avatar = settings.captions ? entry.author.avatar.flatMap { self.store.data(at: $0) } : nil
            for profile in settings.profiles {
                guard
                    let render = EntryRender(
                        entry,
                        profile: profile,
                        captions: settings.captions,
                        timeZone: settings.timeZone,
                        avatar: avatar
                    )
                else { continue }
                manifest.entries[index].renders = (manifest.entries[index].renders ?? [:])
                manifest.entries[index].renders?[profile.name] = render.path
                if store.hasRender(render.path) { continue }
                let candidates =
                    entry.placeholder
                    ? []
                    : entry.media.sourceURL.map {
                        ImageRendition.photoCandidates(
                            for: $0,
                            width: entry.media.width,
                            height: entry.media.height,
                            target: profile.sourceSize
                        )
                    } ?? []
                jobs.append(RenderJob(render: render, candidates: candidates))
            }
        }
        guard !jobs.isEmpty else { return (manifest, 0) }

        // One pipeline per source (download it once, render every profile that needs it, write, let it go); a few
        // at a time, so that at most that many source pictures are held while the cores render.
        let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let pipelines = ImageDecodeBudget(capacity: 2 * cores)
        let renderSlots = ImageDecodeBudget(capacity: cores)
        let budget = ImageDecodeBudget()
        let store = self.store
        let bySource = Dictionary(grouping: jobs, by: \.candidates)
        let pipelinesDone = await withTaskGroup(of: Result<Int, any Error>.self) { group in
            for (candidates, sourceJobs) in bySource {
                group.addTask {
                    await pipelines.holding(1) {
                        let source: ImageFetcher.Fetched =
                            candidates.isEmpty ? .failure("no picture") : await images.download(candidates)
                        for job in sourceJobs {
                            let rendered = await renderSlots.holding(1) {
                                await Self.rendering(job, source: source, budget: budget)
                            }
                            do {
                                try store.store(try rendered.get(), at: job.render.path)
                            } catch {
                                return .failure(error)
                            }
                        }
                        return .success(sourceJobs.count)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let written = try pipelinesDone.reduce(0) { try $0 + $1.get() }
        try store.syncSubdirectories()
        return (manifest, written)
    }

    /// The job's render (``EntryRender/data(from:hadSource:budget:)``) as a result.
    private static func rendering(
        _ job: RenderJob,
        source: ImageFetcher.Fetched,
        budget: ImageDecodeBudget
    ) async -> Result<Data, KFeedError> {
        do throws(KFeedError) {
            return .success(
                try await job.render.data(from: source, hadSource: !job.candidates.isEmpty, budget: budget)
            )
        } catch {
            return .failure(error)
        }
    }
}

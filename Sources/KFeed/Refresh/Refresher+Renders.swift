import Foundation

extension Refresher {
    /// One render to make: a profile, the file and what goes in it.
    private struct RenderJob: Sendable {
        var profile: DisplayProfile
        var path: String
        var caption: DisplayCaption?
        /// The source renditions to try; empty for a placeholder entry.
        var candidates: [URL]
        var placeholderReason: String
    }

    /// Makes the display render of every entry for every profile of the plan (`DESIGN.md` §6) and names them in
    /// the manifest as `entries[i].renders[P]`. A render is reused when the cache holds it: its name carries the
    /// media key, the profile and a digest of the caption, so the same picture with the same caption on the same
    /// panel is the same file. Each source is fetched at the rendition that covers the panel (not the widget
    /// thumbnail scaled up), once for all profiles that need that rendition; a picture that cannot be had or
    /// decoded renders as the placeholder card with its reason.
    /// - Returns: the manifest naming the renders, and how many were made.
    /// - Throws: `KFeedError` `.configuration` when a render library or every font is missing (naming the Debian
    ///   package), `.io` when a file cannot be written.
    func renderDisplays(of manifest: Manifest, with images: ImageFetcher) async throws -> (Manifest, Int) {
        guard !plan.profiles.isEmpty, !manifest.entries.isEmpty else { return (manifest, 0) }
        var manifest = manifest
        var jobs: [RenderJob] = []
        for (index, entry) in manifest.entries.enumerated() {
            let caption = plan.captions ? self.caption(of: entry) : nil
            for profile in plan.profiles {
                let variant = "\(profile.pathComponent)-\(Self.digest(caption, placeholder: entry.placeholderReason))"
                guard
                    let path = CacheStore.renderPath(
                        mediaKey: entry.media.key,
                        profile: variant,
                        fileExtension: profile.fileExtension
                    )
                else { continue }
                manifest.entries[index].renders = (manifest.entries[index].renders ?? [:])
                manifest.entries[index].renders?[profile.name] = path
                if store.hasRender(path) { continue }
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
                jobs.append(
                    RenderJob(
                        profile: profile,
                        path: path,
                        caption: caption,
                        candidates: candidates,
                        placeholderReason: entry.placeholderReason ?? "no picture"
                    )
                )
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
                            do { try store.store(try rendered.get(), at: job.path) } catch { return .failure(error) }
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

    /// ``render(_:source:budget:)`` as a result.
    private static func rendering(
        _ job: RenderJob,
        source: ImageFetcher.Fetched,
        budget: ImageDecodeBudget
    ) async -> Result<Data, KFeedError> {
        do throws(KFeedError) {
            return .success(try await render(job, source: source, budget: budget))
        } catch {
            return .failure(error)
        }
    }

    /// The render of one job: the picture, or the placeholder card when there is none or it does not decode.
    private static func render(
        _ job: RenderJob,
        source: ImageFetcher.Fetched,
        budget: ImageDecodeBudget
    ) async throws(KFeedError) -> Data {
        let renderer = DisplayRenderer(profile: job.profile)
        var reason = job.placeholderReason
        switch source {
        case .failure(let why):
            if !job.candidates.isEmpty { reason = why }
        case .success(let jpeg):
            do {
                return try await renderer.render(photo: jpeg, caption: job.caption, budget: budget).data
            } catch {
                guard error.code == .apiResponse else { throw error }
                reason = (error.underlying as? ImageFailure)?.reason ?? "cannot decode the picture"
            }
        }
        return try renderer.renderPlaceholder(reason: reason, caption: job.caption).data
    }

    /// The caption band of `entry`: the author, the hour it begins in the plan's zone, and the cached avatar.
    private func caption(of entry: Manifest.Entry) -> DisplayCaption {
        DisplayCaption(
            name: entry.author.name,
            username: entry.author.username,
            hour: ScheduleText(timeZone: plan.timeZone).clockTime(entry.date),
            avatarJPEG: entry.author.avatar.flatMap { store.data(at: $0) }
        )
    }

    /// Eight hex digits of FNV-1a over what a render shows besides the picture, so a render is reused only when
    /// its caption (or its placeholder reason) is the same.
    private static func digest(_ caption: DisplayCaption?, placeholder: String?) -> String {
        var text = "\(placeholder ?? "")\u{0}"
        if let caption {
            text += "\(caption.name)\u{0}\(caption.username)\u{0}\(caption.hour)\u{0}\(caption.avatarJPEG?.count ?? 0)"
        }
        var hash: UInt32 = 2_166_136_261
        for byte in text.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return String(format: "%08x", hash)
    }
}

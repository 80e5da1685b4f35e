package import Foundation
import KFeedBase
package import KFeedHTTP
package import KFeedImages
package import Logging

/// Downloads and downscales images: every download in flight at once through the transport, decodes one per core
/// and within a memory budget. Each failure becomes a short reason, never an error.
package struct ImageFetcher: Sendable {
    /// One image to make.
    package struct Job: Sendable, Hashable {
        /// Where the result goes, relative to the cache directory (also the job's identity).
        package var path: String
        /// The URLs to try in order.
        package var candidates: [URL]
        /// The output size.
        package var size: ImageSize
        /// Whether the picture's identity is computed too (a post's picture, when the no-repeat rule is on), from
        /// the thumbnail's pixels, right after it is made.
        package var identifies: Bool

        /// Creates a job.
        package init(path: String, candidates: [URL], size: ImageSize, identifies: Bool = false) {
            self.path = path
            self.candidates = candidates
            self.size = size
            self.identifies = identifies
        }
    }

    /// What became of a job.
    package enum Outcome: Sendable, Hashable {
        /// The downscaled JPEG was made and handed to the store (its write started in the writes that
        /// ``run(_:writes:storing:)`` was given); with its identity when the job asked for it (and it could be
        /// computed).
        case stored(PictureIdentity?)
        /// Why there is none ("download failed", "not a JPEG", "image too large"…).
        case failed(String)
    }

    private let transport: any HTTPTransport
    private let thumbnailer: JPEGThumbnailer
    /// The thumbnailer for avatars: `thumbnailer` decoding at the smallest DCT scale that covers the target (no 2×
    /// headroom): a 400×400 avatar made 96×96 decodes at 1/4 instead of 1/2, a quarter of the pixels, for a picture
    /// shown as a small circle beside the caption.
    private let avatarThumbnailer: JPEGThumbnailer
    private let budget: ImageDecodeBudget
    private let maxDownloads: Int
    /// The threads that decode, one per decode at once; the refresh compares its pictures on them too.
    package let lanes: DecodeLanes
    private let logger: Logger

    /// The largest image body accepted, in bytes.
    package static let maxImageBytes = 20 << 20

    /// Creates a fetcher.
    /// - Parameters:
    ///   - transport: fetches the images (never with the API's `Authorization`).
    ///   - thumbnailer: decodes and downscales.
    ///   - maxDownloads: downloads in flight at once (a refresh's jobs all start at once; the transport multiplexes
    ///     them and caps its connections).
    ///   - decodes: decodes at once (default: one per core).
    ///   - logger: one debug line per failed image.
    package init(
        transport: any HTTPTransport,
        thumbnailer: JPEGThumbnailer = JPEGThumbnailer(),
        maxDownloads: Int = 64,
        decodes: Int = ProcessInfo.processInfo.activeProcessorCount,
        logger: Logger = Logger(label: "kfeed")
    ) {
        self.transport = transport
        self.thumbnailer = thumbnailer
        var avatarThumbnailer = thumbnailer
        avatarThumbnailer.decodeOversampling = 1
        self.avatarThumbnailer = avatarThumbnailer
        self.budget = ImageDecodeBudget()
        self.maxDownloads = max(1, maxDownloads)
        self.lanes = DecodeLanes(count: decodes)
        self.logger = logger
    }

    /// Runs every job, handing each image to `store` as soon as it is made, from the decode's thread: its write
    /// starts in `writes` (on a thread of its own, beside the downloads and decodes still running), so that writing
    /// the batch overlaps making it and no image is held longer than its write. Returns once every image is made,
    /// without waiting for the last writes: `writes.wait()` does (before anything names the files).
    /// - Returns: one outcome per job path.
    /// - Throws: the first error `store` threw (as soon as a job ends after it); the jobs still running are
    ///   cancelled.
    package func run(
        _ jobs: [Job],
        writes: PendingWrites,
        storing store: @escaping @Sendable (_ path: String, _ image: Data) throws -> Void
    ) async throws -> [String: Outcome] {
        try await withThrowingTaskGroup(of: (String, Outcome).self) { group in
            var results: [String: Outcome] = [:]
            var pending = jobs[...]
            func startNext() {
                guard let job = pending.popFirst() else { return }
                group.addTask {
                    switch await make(job, handingTo: writes, store) {
                    case .success(let identity): (job.path, .stored(identity))
                    case .failure(let reason): (job.path, .failed(reason))
                    }
                }
            }
            for _ in 0..<maxDownloads { startNext() }
            while let (path, outcome) = try await group.next() {
                if let failure = writes.failure { throw failure }
                results[path] = outcome
                startNext()
            }
            return results
        }
    }

    /// What became of one job: its image handed to the store (with its identity, when asked for), or why there is
    /// none.
    private enum Made: Sendable {
        case success(PictureIdentity?)
        case failure(String)
    }

    /// The job's downscaled JPEG handed to `store` in `writes`, or why there is none. Both happen on the decode's
    /// own thread as soon as the thumbnail is made: the write starts first, then the identity is computed from the
    /// thumbnail's pixels before they are dropped (``Thumbnail/identity()``): no second decode, and beside the
    /// downloads, decodes and writes still running rather than after the batch.
    private func make(
        _ job: Job,
        handingTo writes: PendingWrites,
        _ store: @escaping @Sendable (_ path: String, _ image: Data) throws -> Void
    ) async -> Made {
        let body: Data
        switch await download(job.candidates) {
        case .failure(let reason):
            logger.debug("image \(job.path): \(reason)")
            return .failure(reason)
        case .success(let data): body = data
        }
        let identifies = job.identifies
        let thumbnailer = job.size == .avatar ? avatarThumbnailer : thumbnailer
        do throws(ImageFailure) {
            let path = job.path
            return try await thumbnailer.thumbnail(of: body, size: job.size, budget: budget, lanes: lanes) {
                thumbnail in
                let image = thumbnail.jpeg
                writes.start { try store(path, image) }
                return .success(identifies ? thumbnail.identity() : nil)
            }
        } catch {
            logger.debug("image \(job.path): \(error.reason)")
            return .failure(error.reason)
        }
    }

    /// A download's body or a job's thumbnail, or why there is none.
    package enum Fetched: Sendable {
        case success(Data)
        case failure(String)
    }

    /// Tries each URL in turn: a 404, a 5xx or a network error moves on to the next. Used as is (no downscaling)
    /// for the sources of display renders.
    package func download(_ candidates: [URL]) async -> Fetched {
        var reason = "no image URL"
        for url in candidates {
            guard ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
                reason = "unsupported image URL"
                continue
            }
            let request = HTTPRequest(
                url: url,
                headers: [HTTPHeader("Accept", "image/jpeg")],
                maxBodyBytes: Self.maxImageBytes,
                maxRedirects: 5,
                totalTimeout: .seconds(60)
            )
            do {
                let response = try await transport.send(request)
                if (200..<300).contains(response.status) { return .success(response.body) }
                reason = "download failed (HTTP \(response.status))"
                if response.status != 404 && response.status < 500 { return .failure(reason) }
            } catch let error as KFeedError {
                reason = error.message.contains("exceeded") ? "image too large" : "download failed"
            } catch {
                return .failure("download cancelled")
            }
        }
        return .failure(reason)
    }
}

import Foundation
import KFeedBase
import KFeedImages

/// Which image, avatar or placeholder each entry of a planned manifest gets, and what must be downloaded for it: the
/// names are the store's (``CacheStore``, from validated ids, never from URLs), the URLs to try are X's renditions
/// (``ImageRendition``), so that the store knows nothing of X's URLs.
struct ImagePlan: Sendable {
    /// Downloads for the files this generation lacks, one per file.
    var jobs: [ImageFetcher.Job] = []
    /// How many named files the cache already holds.
    var reused = 0
    private var imagePaths: [String?] = []
    private var avatarPaths: [String?] = []
    private var unusable: [String: String] = [:]

    private init() {}

    /// Plans the files of `manifest`'s entries in `store`: the store's names, the renditions to try for what the
    /// store lacks, and why an entry cannot have a file at all. With `identifies`, each picture's identity is
    /// computed as it is made (avatars never).
    init(for manifest: Manifest, in store: CacheStore, identifies: Bool = false) {
        var plan = ImagePlan()
        var planned: Set<String> = []
        func add(_ path: String?, candidates: [URL], size: ImageSize, why: String, identifies: Bool = false) -> String?
        {
            guard let path else { return nil }
            if store.hasImage(path, size: size) {
                plan.reused += 1
            } else if candidates.isEmpty {
                plan.unusable[path] = why
            } else if planned.insert(path).inserted {
                plan.jobs.append(
                    ImageFetcher.Job(path: path, candidates: candidates, size: size, identifies: identifies)
                )
            }
            return path
        }
        let size = manifest.size
        for entry in manifest.entries {
            let photo = entry.media.sourceURL.map {
                ImageRendition.photoCandidates(
                    for: $0,
                    width: entry.media.width,
                    height: entry.media.height,
                    target: size
                )
            }
            plan.imagePaths.append(
                add(
                    CacheStore.imagePath(mediaKey: entry.media.key, size: size),
                    candidates: photo ?? [],
                    size: size,
                    why: "no image URL",
                    identifies: identifies
                )
            )
        }
        // Avatars after every picture: the downloads start in this order, and a picture takes longer to decode.
        for entry in manifest.entries {
            let avatar = entry.author.profileImageURL.map(ImageRendition.avatarCandidates(for:)) ?? []
            plan.avatarPaths.append(
                add(
                    CacheStore.avatarPath(userID: entry.author.id),
                    candidates: avatar,
                    size: .avatar,
                    why: "no avatar URL"
                )
            )
        }
        self = plan
    }

    /// Points every entry of `manifest` at its image, avatar or placeholder, once the downloads' images are written
    /// to `store` (each by ``CacheStore/store(_:at:)`` as it was made): makes their names durable and writes the
    /// placeholders needed.
    /// - Returns: the manifest to commit, how many files were written, how many entries show a placeholder, and the
    ///   identities the downloads computed, by media key.
    /// - Throws: `KFeedError` `.io` or `.cacheUnwritable` when a file cannot be written.
    func point(
        _ manifest: Manifest,
        at results: [String: ImageFetcher.Outcome],
        in store: CacheStore
    ) throws -> (manifest: Manifest, written: Int, placeholders: Int, identities: [String: PictureIdentity]) {
        var manifest = manifest
        var unusable = self.unusable
        var written = 0
        var placeholders = 0
        var made: [String: PictureIdentity] = [:]
        for (path, outcome) in results {
            switch outcome {
            case .stored(let identity):
                written += 1
                if let identity { made[path] = identity }
            case .failed(let reason): unusable[path] = reason
            }
        }
        var identities: [String: PictureIdentity] = [:]
        for index in manifest.entries.indices {
            if let path = imagePaths[index], unusable[path] == nil {
                manifest.entries[index].image = path
                if let identity = made[path] { identities[manifest.entries[index].media.key] = identity }
            } else {
                manifest.entries[index].image = try store.placeholder(manifest.size)
                manifest.entries[index].placeholder = true
                manifest.entries[index].placeholderReason =
                    imagePaths[index].flatMap { unusable[$0] } ?? "invalid media key"
                placeholders += 1
            }
            if let path = avatarPaths[index], unusable[path] == nil {
                manifest.entries[index].author.avatar = path
            } else {
                manifest.entries[index].author.avatar = try store.placeholder(.avatar)
            }
        }
        return (manifest, written, placeholders, identities)
    }
}

public import Foundation
import KFeedBase
package import KFeedImages
import KFeedX
import Logging

/// The cache directory's layout (`docs/cache.md`) and its one owner: every file name kfeed reads or writes there,
/// the manifest and state, the commit of a generation, and the sweep's rule.
///
/// ```
/// DIR/timeline.json                    the manifest, replaced atomically, always last
/// DIR/state.json                       refresh state (retry_after, last_error, rate limit)
/// DIR/history.json                     what was shown, for the no-repeat window
/// DIR/history-cells.bin                the finer cells of its pictures
/// DIR/candidates.json                  earlier search pages that still hold posts not shown
/// DIR/checks.json                      when each post shown was last known to exist; posts gone
/// DIR/images/<key>-WxH.jpg             post images
/// DIR/avatars/<id>-WxH.jpg             author avatars
/// DIR/renders/<key>-<P>-<digest>.<ext> display renders
/// DIR/placeholder-WxH.jpg              the placeholder of a size
/// DIR/preview.html                     `kfeed preview`'s page
/// DIR/kfeed.log                        the event log
/// DIR/.lock                            held by the refresh in progress
/// ```
///
/// A cache of several feeds (a feeds file) holds one such directory per feed, `DIR/feeds/NAME/`, and the ledger
/// beside them: `CacheRoot` owns those names. What the files hold comes from the layers above: the URLs pictures are
/// downloaded from (`ImagePlan`), the preview page's HTML (`PreviewPage`).
///
/// Reading needs nothing but the directory (no token, no transport); readers in other processes (`kfeed current`,
/// `kfeed serve`, a widget) see the old generation or the new one, whole, because `commit(_:)` is the single
/// atomic step that switches them.
public struct CacheStore: Sendable {
    /// The cache directory.
    public let directory: URL
    let files: CacheDirectory
    /// `timeline.json`'s absolute path, made once: the server checks it on every request, and building a path
    /// through `URL` costs more than the `lstat` itself.
    let manifestPath: String

    /// The manifest's name.
    public static let manifestName = "timeline.json"
    /// The refresh state's name.
    public static let stateName = "state.json"
    /// The history's name.
    package static let historyName = "history.json"
    /// The name of the history's finer cells (``HistoryCells``).
    package static let historyCellsName = "history-cells.bin"
    /// The earlier search pages' name.
    package static let candidatesName = "candidates.json"
    /// The post checks' name.
    package static let checksName = "checks.json"
    /// The preview page's name.
    public static let previewName = "preview.html"
    /// The event log's name.
    public static let logName = "kfeed.log"
    static let lockName = ".lock"
    /// The subdirectories kfeed writes (images, avatars, renders).
    package static let subdirectories = ["images", "avatars", "renders"]

    /// Creates the owner of `directory` (nothing is read or created yet).
    public init(directory: URL) {
        self.files = CacheDirectory(url: directory)
        self.directory = files.url
        self.manifestPath = files.path(Self.manifestName)
    }

    // MARK: - Names

    /// The post image of `mediaKey` at `size`; nil when the key is not a valid media key (names never come from URLs).
    package static func imagePath(mediaKey: String, size: ImageSize) -> String? {
        Media.isValidKey(mediaKey) ? "images/\(mediaKey)-\(size.width)x\(size.height).jpg" : nil
    }

    /// The avatar of user `userID` at `size`; nil when the id is not a valid user id.
    package static func avatarPath(userID: String, size: ImageSize = .avatar) -> String? {
        Post.isValidID(userID) ? "avatars/\(userID)-\(size.width)x\(size.height).jpg" : nil
    }

    /// The placeholder image of `size`.
    package static func placeholderPath(size: ImageSize) -> String {
        "placeholder-\(size.width)x\(size.height).jpg"
    }

    /// Whether `name` is a top-level placeholder's name (`placeholder-….jpg`), of whatever size.
    package static func isPlaceholderPath(_ name: String) -> Bool {
        name.hasPrefix("placeholder-") && name.hasSuffix(".jpg")
    }

    /// The display render of `mediaKey` for profile `profile`, with the file extension `fileExtension`.
    package static func renderPath(mediaKey: String, profile: String, fileExtension: String) -> String? {
        Media.isValidKey(mediaKey) ? "renders/\(mediaKey)-\(profile).\(fileExtension)" : nil
    }

    /// The display render of `mediaKey` for `profile`: the digest in its name is over what the render shows besides
    /// the picture (its caption band, or the placeholder card's reason), so that a render is reused only when that
    /// is the same.
    /// - Parameters:
    ///   - mediaKey: the entry's media key.
    ///   - profile: the panel rendered for.
    ///   - caption: the caption band drawn, nil for the bare picture.
    ///   - placeholder: the entry's placeholder reason, nil when it has its picture.
    /// - Returns: `renders/<media key>-<profile>-<digest>.<ext>`; nil when the key is not a valid media key.
    package static func renderPath(
        mediaKey: String,
        profile: DisplayProfile,
        caption: DisplayCaption?,
        placeholder: String?
    ) -> String? {
        renderPath(
            mediaKey: mediaKey,
            profile: "\(profile.pathComponent)-\(renderDigest(caption, placeholder: placeholder))",
            fileExtension: profile.fileExtension
        )
    }

    /// Eight hex digits of FNV-1a over what a render shows besides the picture.
    private static func renderDigest(_ caption: DisplayCaption?, placeholder: String?) -> String {
        var text = "\(placeholder ?? "")\u{0}"
        if let caption { text += caption.signature }
        var hash: UInt32 = 2_166_136_261
        for byte in text.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return String(format: "%08x", hash)
    }

    /// The absolute path of a file a manifest names.
    public func absolutePath(_ relative: String) -> String {
        files.path(relative)
    }

    // MARK: - Reading

    /// The committed manifest; nil when there is none yet.
    /// - Throws: `KFeedError` `.apiResponse` when `timeline.json` exists but is not a schema-1 manifest.
    public func manifest() throws -> Manifest? {
        guard let data = files.read(Self.manifestName) else { return nil }
        do {
            return try Manifest.decode(data)
        } catch {
            throw KFeedError(
                .apiResponse,
                "\(files.path(Self.manifestName)) is not a kfeed timeline; run kfeed refresh --force",
                underlying: error
            )
        }
    }

    /// The refresh state; nil when there is none or it cannot be read (a refresh then starts afresh).
    public func state() -> RefreshState? {
        files.read(Self.stateName).flatMap { try? InstantFormat.jsonDecoder().decode(RefreshState.self, from: $0) }
    }

    /// What the feed has shown, with its pictures' finer cells where `history-cells.bin` has them; nil when there is
    /// no readable history.
    package func history() -> History? {
        guard
            var history = files.read(Self.historyName).flatMap({
                try? InstantFormat.jsonDecoder().decode(History.self, from: $0)
            })
        else { return nil }
        if let cells = files.read(Self.historyCellsName, limit: HistoryCells.sizeLimit) {
            history.finer = HistoryCells.decode(cells)
        }
        return history
    }

    /// When each post was last known to exist, and the posts gone; nil when there is no readable file.
    package func checks() -> PostChecks? {
        files.read(Self.checksName).flatMap { try? InstantFormat.jsonDecoder().decode(PostChecks.self, from: $0) }
    }

    /// The bytes of a regular file the manifest may name (never through a symlink), at most `limit` bytes.
    public func data(at relative: String, limit: Int = 16 << 20) -> Data? {
        files.read(relative, limit: limit)
    }

    // MARK: - Writing a generation

    /// Creates the directory and its subdirectories and checks it can be written.
    /// - Throws: `KFeedError` `.cacheUnwritable`.
    func prepare() throws {
        try files.prepare(subdirectories: Self.subdirectories)
    }

    /// Takes the refresh lock without waiting. - Throws: `KFeedError` `.lockHeld` when another process holds it.
    func lock() throws -> CacheLock {
        try files.lock(Self.lockName)
    }

    /// Whether `relative` holds an image kfeed wrote and may reuse: a regular file (checked without following a
    /// symlink) holding a whole JPEG of exactly `size`. Anything else — a symlink planted in its place, a truncated
    /// or foreign file — is made again and replaced atomically, never written through.
    func hasImage(_ relative: String, size: ImageSize) -> Bool {
        guard let data = files.read(relative, limit: ImageFetcher.maxImageBytes) else { return false }
        let structure = data.withUnsafeBytes { try? JPEGStructure.parse($0, maxScans: 1) }
        return structure.map { $0.hasEndOfImage && $0.width == size.width && $0.height == size.height } ?? false
    }

    /// Whether the cache holds a whole render at `relative`: a regular file (not followed through a link) that
    /// starts with its format's signature and, for JPEG, ends with EOI.
    func hasRender(_ relative: String) -> Bool {
        guard let data = files.read(relative), data.count > 8 else { return false }
        if relative.hasSuffix(".png") { return data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) }
        if relative.hasSuffix(".bmp") { return data.starts(with: [0x42, 0x4D]) }
        return data.starts(with: [0xFF, 0xD8]) && data.suffix(2).elementsEqual([0xFF, 0xD9])
    }

    /// Writes a new image, avatar or render under its name, atomically; the containing directory is synced by
    /// ``syncSubdirectories()`` once the batch is written.
    func store(_ data: Data, at relative: String) throws {
        try files.write(data, to: relative, syncDirectory: false)
    }

    /// Like ``store(_:at:)``, into a temp file made beforehand (``reserve(_:)``) when there is one.
    func store(_ data: Data, at relative: String, reserved: CacheDirectory.Reserved?) throws {
        guard let reserved else { return try store(data, at: relative) }
        try files.install(try files.stage(data, into: reserved), syncDirectory: false)
    }

    /// An empty temp file beside `relative`, for ``store(_:at:reserved:)`` (see ``ReservedFiles``).
    func reserve(_ relative: String) throws -> CacheDirectory.Reserved {
        try files.reserve(relative)
    }

    /// Removes a temp file ``reserve(_:)`` made that was not written.
    func release(_ reserved: CacheDirectory.Reserved) {
        files.release(reserved)
    }

    /// Makes the renames of a batch of ``store(_:at:)`` durable.
    func syncSubdirectories() throws {
        for name in Self.subdirectories { try syncSubdirectory(name) }
    }

    /// Makes the renames in one of ``subdirectories`` durable.
    func syncSubdirectory(_ name: String) throws {
        try files.sync(directory: files.path(name))
    }

    /// The placeholder of `size`, written once. - Returns: its path.
    func placeholder(_ size: ImageSize) throws -> String {
        let name = Self.placeholderPath(size: size)
        if !hasImage(name, size: size) { try files.write(JPEGThumbnailer.placeholder(size: size), to: name) }
        return name
    }

    /// Replaces `timeline.json` atomically: the commit point of a generation. Every file it names must be written
    /// (and synced) before.
    func commit(_ manifest: Manifest) throws {
        try files.write(try manifest.jsonData(), to: Self.manifestName)
    }

    /// The first half of ``commit(_:)``: `manifest` written and synced under a temp name, which may be done before
    /// the files it names are durable; ``commit(_:)-(CacheDirectory.Staged)`` is the commit.
    func stage(_ manifest: Manifest) throws -> CacheDirectory.Staged {
        try files.stage(try manifest.jsonData(), to: Self.manifestName)
    }

    /// The second half of ``commit(_:)``: the staged manifest renamed to `timeline.json`, then `DIR` fsynced. Every
    /// file it names must be written (and synced) before.
    func commit(_ staged: CacheDirectory.Staged) throws {
        try files.install(staged)
    }

    /// Removes a staged manifest that will not be committed.
    func discard(_ staged: CacheDirectory.Staged) {
        files.discard(staged)
    }

    /// Replaces `history-cells.bin`, then `history.json`, each atomically; written just before the manifest they
    /// describe. With `syncDirectory` false, the new names are durable only after ``syncDirectory()``. A run that
    /// ends between the two leaves cells of pictures the old `history.json` does not record, or records without
    /// cells (compared without the finer test), never another picture's cells: a media key names one picture.
    func write(_ history: History, syncDirectory: Bool = true) throws {
        try files.write(
            HistoryCells.encode(history.recordedFiner),
            to: Self.historyCellsName,
            syncDirectory: syncDirectory
        )
        try files.write(
            try InstantFormat.jsonEncoder().encode(history),
            to: Self.historyName,
            syncDirectory: syncDirectory
        )
    }

    /// Replaces `checks.json` atomically. With `syncDirectory` false, the new name is durable only after
    /// ``syncDirectory()``.
    func write(_ checks: PostChecks, syncDirectory: Bool = true) throws {
        try files.write(
            try InstantFormat.jsonEncoder().encode(checks),
            to: Self.checksName,
            syncDirectory: syncDirectory
        )
    }

    /// Makes the renames of the files written in the cache directory itself with `syncDirectory: false` durable:
    /// one fsync of the directory for a batch of them.
    func syncDirectory() throws {
        try files.sync(directory: files.url.path)
    }

    /// Removes the files of `manifest`'s entries whose post is in `postIDs` (a post gone from X) that no other entry
    /// of `manifest` or of `keeping` names: before the timeline without them is committed, so that a server loading
    /// that timeline no longer finds them on disk.
    /// - Returns: how many files were removed.
    @discardableResult
    func withdraw(_ postIDs: Set<String>, of manifest: Manifest, keeping: Manifest) -> Int {
        var others = manifest
        others.entries.removeAll { postIDs.contains($0.tweetID) }
        let kept = Self.files(of: others).union(Self.files(of: keeping))
        var gone = manifest
        gone.entries.removeAll { !postIDs.contains($0.tweetID) }
        var removed = 0
        for name in Self.files(of: gone).subtracting(kept) where files.remove(name) { removed += 1 }
        // Renders of the gone media the timeline no longer names (made for another profile or caption).
        let keys = Set(gone.entries.map(\.media.key)).filter(Media.isValidKey)
        for name in files.names(in: "renders") where keys.contains(where: { name.hasPrefix("\($0)-") }) {
            if !kept.contains("renders/\(name)") && files.remove("renders/\(name)") { removed += 1 }
        }
        return removed
    }

    /// Replaces `state.json` atomically.
    func write(_ state: RefreshState) throws {
        try files.write(try InstantFormat.jsonEncoder().encode(state), to: Self.stateName)
    }

    /// The first half of ``write(_:)-(RefreshState)``: `state` written and synced under a temp name;
    /// ``install(_:)`` renames it into place, ``discard(_:)`` drops it.
    func stage(_ state: RefreshState) throws -> CacheDirectory.Staged {
        try files.stage(try InstantFormat.jsonEncoder().encode(state), to: Self.stateName)
    }

    /// Renames a file staged in the cache directory (``stage(_:)-(RefreshState)``) into place, then fsyncs `DIR`.
    func install(_ staged: CacheDirectory.Staged) throws {
        try files.install(staged)
    }

    /// Writes `document` (``PreviewPage/write(to:)``'s bytes, which the store does not read) to `DIR/preview.html`
    /// atomically, replacing a symlink rather than following it.
    /// - Returns: the file's URL.
    /// - Throws: `KFeedError` `.cacheUnwritable` when the directory cannot be written, `.io` for a full disk.
    package func writePreview(_ document: Data) throws -> URL {
        try files.write(document, to: Self.previewName)
        return directory.appendingPathComponent(Self.previewName)
    }

    /// Appends one line to `kfeed.log`, through its log handler (``EventLogHandler``).
    func log(_ event: String, at now: Date) {
        let path = files.path(Self.logName)
        let events = Logger(label: "kfeed.events") { _ in EventLogHandler(path: path) }
        events.notice("\(event)", metadata: [EventLogHandler.instantKey: "\(InstantFormat.string(from: now))"])
    }

    // MARK: - Sweeping

    /// Every file a manifest names, relative to the directory.
    package static func files(of manifest: Manifest) -> Set<String> {
        var names: Set<String> = []
        for entry in manifest.entries {
            if let image = entry.image { names.insert(image) }
            if let avatar = entry.author.avatar { names.insert(avatar) }
            for render in (entry.renders ?? [:]).values { names.insert(render) }
        }
        return names
    }

    /// Removes the images, avatars, renders and placeholders that neither `current` nor `previous` names (a reader
    /// that has just read the previous manifest still finds every file it names) nor `spares` lists, and temp files
    /// of killed runs (not those this process is still writing: ``CacheDirectory/isBeingWritten(_:)``).
    /// - Parameters:
    ///   - current: the timeline just committed.
    ///   - previous: the timeline it replaced.
    ///   - spares: more files to keep (the pictures and avatars of posts that are still candidates).
    ///   - withdrawn: posts gone from X: the previous timeline's files for them go too.
    /// - Returns: how many files were removed.
    @discardableResult
    func sweep(
        current: Manifest,
        previous: Manifest?,
        spares: Set<String> = [],
        withdrawn: Set<String> = []
    ) -> Int {
        var previous = previous
        previous?.entries.removeAll { withdrawn.contains($0.tweetID) }
        let keep = Self.files(of: current).union(previous.map(Self.files) ?? []).union(spares)
        var removed = 0
        for name in files.names(in: nil) {
            let isLeftover =
                (name.hasPrefix(".tmp-") && !files.isBeingWritten(name)) || name.hasPrefix(CacheDirectory.probePrefix)
            let isOldPlaceholder = Self.isPlaceholderPath(name) && !keep.contains(name)
            if (isLeftover || isOldPlaceholder) && files.remove(name) { removed += 1 }
        }
        for directory in Self.subdirectories {
            for name in files.names(in: directory) where !keep.contains("\(directory)/\(name)") {
                if files.remove("\(directory)/\(name)") { removed += 1 }
            }
        }
        return removed
    }
}

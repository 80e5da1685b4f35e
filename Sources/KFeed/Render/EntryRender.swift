package import Foundation
package import KFeedBase
package import KFeedImages

/// One entry's display render for one profile, named and made the same way by a refresh (for every entry,
/// `docs/renders.md`) and by `kfeed serve` (on demand, for a profile the refresh did not make).
package struct EntryRender: Sendable {
    /// The panel rendered for.
    package var profile: DisplayProfile
    /// The attribution: the caption band, or the slim line of `--no-caption`.
    package var caption: DisplayCaption
    /// What a placeholder card says when there is no picture.
    package var placeholderReason: String
    /// The render's path relative to the cache directory, as ``CacheStore`` names it:
    /// `renders/<media key>-<profile>-<digest>.<ext>`.
    package var path: String

    /// The render of `entry` for `profile`; nil when the entry's media key cannot name a file.
    /// - Parameters:
    ///   - entry: the timeline entry.
    ///   - profile: the panel.
    ///   - captions: whether the render carries the caption band (avatar, names, time, mark and the post's text);
    ///     without it, the slim line still attributes the post (the mark, name, `@username` and time).
    ///   - timeZone: the zone the post's time is shown in.
    ///   - avatar: the entry's cached avatar (`DIR/avatars/….jpg`), drawn in the caption band.
    package init?(
        _ entry: Manifest.Entry,
        profile: DisplayProfile,
        captions: Bool,
        timeZone: TimeZone,
        avatar: Data?
    ) {
        let time = entry.postedAt.map { PostTime($0, timeZone: timeZone) }
        let caption = DisplayCaption(
            name: entry.author.name,
            username: entry.author.username,
            time: time?.clock ?? "",
            date: time?.day ?? "",
            text: captions ? entry.text : "",
            avatarJPEG: captions ? avatar : nil,
            style: captions ? .band : .line
        )
        guard
            let path = CacheStore.renderPath(
                mediaKey: entry.media.key,
                profile: profile,
                caption: caption,
                placeholder: entry.placeholderReason
            )
        else { return nil }
        self.profile = profile
        self.caption = caption
        self.placeholderReason = entry.placeholderReason ?? "no picture"
        self.path = path
    }

    /// Whether `path` (an entry's `renders[P]`) is this entry's render for `profile` without a caption band (with
    /// the slim line only): a picture a page may show under a caption of its own.
    /// `timeZone` is the one the post's time was drawn in.
    package static func isUncaptioned(
        _ path: String,
        of entry: Manifest.Entry,
        profile: DisplayProfile,
        timeZone: TimeZone
    ) -> Bool {
        EntryRender(entry, profile: profile, captions: false, timeZone: timeZone, avatar: nil)?.path == path
    }

    /// The file's bytes: the picture, or the placeholder card when there is none or it does not decode.
    /// - Parameters:
    ///   - source: the downloaded source picture, or why there is none.
    ///   - hadSource: whether a source was looked for (a placeholder entry has none, and keeps its own reason).
    ///   - budget: the decode memory the render reserves.
    /// - Returns: The file's bytes (PNG, BMP or JPEG).
    /// - Throws: `KFeedError` `.configuration` when a render library or every font is missing.
    package func data(
        from source: ImageFetcher.Fetched,
        hadSource: Bool,
        budget: ImageDecodeBudget
    ) async throws(KFeedError) -> Data {
        let renderer = DisplayRenderer(profile: profile)
        var reason = placeholderReason
        switch source {
        case .failure(let why):
            if hadSource { reason = why }
        case .success(let jpeg):
            do {
                return try await renderer.render(photo: jpeg, caption: caption, budget: budget).data
            } catch {
                guard error.code == .apiResponse else { throw error }
                reason = (error.underlying as? ImageFailure)?.reason ?? "cannot decode the picture"
            }
        }
        return try renderer.renderPlaceholder(reason: reason, caption: caption).data
    }
}

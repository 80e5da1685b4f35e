/// Why a post was not used in the timeline.
package enum SkipReason: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case noMedia = "no media"
    case mediaMissingFromIncludes = "media missing from includes"
    case videoWithoutPreviews = "video or GIF without --video-previews"
    case unsupportedMedia = "no usable image (unknown media type or no URL)"
    case sensitive = "possibly sensitive"
    case duplicateMedia = "duplicate media"
    case authorShareFull = "author's share full"
    case missingAuthor = "author missing from includes"
    case timelineFull = "timeline already full"
    case shownRecently = "shown within the no-repeat window"
    case denied = "account denied (deny)"
    case notAllowed = "account not allowed (allow)"
    case hidden = "hidden (kfeed hide)"

    package var description: String { rawValue }
}

package import Foundation
package import KFeedImages

/// Which URLs to try for an image: the smallest `pbs.twimg.com` rendition that still covers the target, then
/// the plain URL; for avatars, `_400x400`, then `_bigger`, then `_normal`.
package enum ImageRendition {
    /// X's photo renditions by the longest side they fit in (`orig` is unbounded).
    static let photoRenditions: [(name: String, fits: Int)] = [
        ("small", 680), ("medium", 1_200), ("large", 2_048), ("orig", .max),
    ]

    /// The URLs to try, in order, for a post's photo or video preview.
    /// - Parameters:
    ///   - url: the URL X gave (`https://pbs.twimg.com/media/<id>.jpg` for photos).
    ///   - width: the original width, when X gave it.
    ///   - height: the original height, when X gave it.
    ///   - target: the size the image is cropped to.
    /// - Returns: the rendition URL first, then the plain URL; just `url` for other hosts or paths.
    package static func photoCandidates(for url: URL, width: Int?, height: Int?, target: ImageSize) -> [URL] {
        guard url.host?.lowercased() == "pbs.twimg.com", url.path.hasPrefix("/media/"),
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return [url] }
        let name = renditionName(width: width, height: height, target: target)
        let path = components.path
        let format = (path as NSString).pathExtension.lowercased()
        components.path = (path as NSString).deletingPathExtension
        components.percentEncodedQuery = "format=\(format == "png" ? "png" : "jpg")&name=\(name)"
        guard let rendition = components.url else { return [url] }
        var plain = URLComponents(url: url, resolvingAgainstBaseURL: false)
        plain?.query = nil
        return [rendition, plain?.url ?? url]
    }

    /// The smallest rendition whose delivered image covers `target` when cropped to fill it.
    static func renditionName(width: Int?, height: Int?, target: ImageSize) -> String {
        guard let width, let height, width > 0, height > 0 else {
            // Unknown proportions: ask for a box twice the target's longest side, enough for 2:1 photos.
            let need = 2 * max(target.width, target.height)
            return photoRenditions.first { $0.fits >= need }?.name ?? "orig"
        }
        for rendition in photoRenditions {
            let scale = min(1, Double(rendition.fits) / Double(max(width, height)))
            if Double(width) * scale >= Double(target.width) && Double(height) * scale >= Double(target.height) {
                return rendition.name
            }
        }
        // Nothing covers the target: the original is the best there is, and the smallest rendition that does not
        // downscale it is that original.
        return photoRenditions.first { $0.fits >= max(width, height) }?.name ?? "orig"
    }

    /// The URLs to try for an avatar: `_400x400`, `_bigger`, `_normal` (X's `profile_image_url` is `_normal`).
    package static func avatarCandidates(for url: URL) -> [URL] {
        let text = url.absoluteString
        guard let range = text.range(of: "_normal.", options: .backwards) else { return [url] }
        return ["_400x400.", "_bigger.", "_normal."].compactMap {
            URL(string: text.replacingCharacters(in: range, with: $0))
        }
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import KFeed
import KFeedImages

/// Waveshare PhotoPainter's URL mode (its open firmware's "URL rotation"): the frame fetches one URL on its schedule,
/// sending `X-Display-Width`, `X-Display-Height` (the panel's own, landscape) and `X-Display-Orientation`
/// (`landscape` or `portrait`), and `If-None-Match` with the `ETag` it kept (a `304` skips the redraw).
extension ServeResponder {
    static let frameWidthHeader = HTTPField.Name("X-Display-Width")!
    static let frameHeightHeader = HTTPField.Name("X-Display-Height")!
    static let frameOrientationHeader = HTTPField.Name("X-Display-Orientation")!
    /// The request headers a `/current.png` answer depends on.
    static let frameVary = "X-Display-Width, X-Display-Height, X-Display-Orientation"

    /// `GET /current.png` with the frame's headers: the current entry's Spectra 6 render (six inks, a 4-bit palette
    /// PNG) at the frame's size, as it hangs: a portrait frame gets the picture composed for portrait (its width the
    /// panel's short side), which the frame turns onto its landscape panel. Made on demand once per entry and size,
    /// kept until the entry ends like `/current.jpg` (`Vary` on the three headers), with its `ETag`.
    func photoFrame(
        _ moment: Moment,
        snapshot: ServedCache.Snapshot,
        request: Request,
        feed: ServedFeed
    ) async -> ServeAnswer {
        let side = { (name: HTTPField.Name) -> Int? in
            request.headers[name].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
                .flatMap { DisplayProfile.sideRange.contains($0) ? $0 : nil }
        }
        guard var width = side(Self.frameWidthHeader), var height = side(Self.frameHeightHeader) else {
            return .error(
                .badRequest,
                """
                /current.png is for photo frames that send X-Display-Width and X-Display-Height (16 to 4096 pixels); \
                other clients use /current.jpg or /current.jpg?profile=P
                """
            )
        }
        let orientation = request.headers[Self.frameOrientationHeader]?.trimmingCharacters(in: .whitespaces)
            .lowercased()
        if (orientation == "portrait" && width > height) || (orientation == "landscape" && width < height) {
            swap(&width, &height)
        }
        guard width * height <= RenderShelf.maxPixels else {
            return .error(
                .notFound,
                "a \(width)x\(height) frame is larger than the server renders on demand (at most 1920x1080 pixels)"
            )
        }
        guard let entry = moment.entry else { return noEntry(moment) }
        let profile = DisplayProfile(
            name: "\(width)x\(height):spectra6:png",
            width: width,
            height: height,
            kind: .spectra6,
            format: .png
        )
        switch await render(profile, of: entry, moment: moment, snapshot: snapshot, feed: feed, isAsked: false) {
        case .found(_, let file):
            var answer = ServeAnswer.file(file)
            answer.caching = moment.untilEntryEnds
            answer.headers[.vary] = Self.frameVary
            return answer
        case .refused(let why): return .error(.notFound, why)
        case .unavailable(let why):
            var answer = ServeAnswer.error(.serviceUnavailable, why)
            answer.headers[.retryAfter] = String(Self.renderRetrySeconds)
            return answer
        }
    }
}

import Foundation
import KFeedBase

/// Draws the caption band over the bottom of a render: a round avatar, the name over `@username`, and the hour
/// on the right. On palette panels the band is solid white with black text and a black rule above it, all crisp
/// (never dithered); on full-colour panels it darkens the picture and the text is white.
package enum CaptionBand {
    /// What the band showed.
    struct Report: Sendable, Equatable {
        /// The name line as drawn: the name, shortened with `…`, or `@username` when no font could draw the name.
        var nameLine: String
        /// Whether the name could not be drawn and `@username` took its place.
        var fellBackToUsername: Bool
        /// Whether the name line was ellipsised.
        var isEllipsised: Bool
        /// Where the band starts, in pixels from the top.
        var top: Int
        /// The name line's box: left, top, width, height in pixels.
        var nameBox: (x: Int, y: Int, width: Int, height: Int)
        /// The font file of the name line's first glyph.
        var nameFont: String?

        static func == (lhs: Report, rhs: Report) -> Bool {
            lhs.nameLine == rhs.nameLine && lhs.fellBackToUsername == rhs.fellBackToUsername
                && lhs.isEllipsised == rhs.isEllipsised && lhs.top == rhs.top && lhs.nameBox == rhs.nameBox
        }
    }

    /// The band's geometry for a canvas.
    struct Metrics {
        var height: Int
        var padding: Int
        var avatar: Int
        var nameSize: Int
        var usernameSize: Int
        var hourSize: Int

        init(width: Int, height canvasHeight: Int) {
            // 15 % of the short side, at least 32 px (legible), at most half the panel.
            height = min(max(Int((Float(min(width, canvasHeight)) * 0.15).rounded()), 32), max(canvasHeight / 2, 1))
            padding = max(height / 8, 1)
            avatar = max(height - 2 * padding, 1)
            nameSize = max(Int((Float(height) * 0.30).rounded()), 9)
            usernameSize = max(Int((Float(height) * 0.23).rounded()), 8)
            hourSize = max(Int((Float(height) * 0.36).rounded()), 10)
        }
    }

    /// The text colours on the band: the name and hour, and the `@username` under the name.
    private struct Inks {
        var ink: RenderCanvas.Colour
        var secondary: RenderCanvas.Colour
    }

    static func draw(
        _ caption: DisplayCaption,
        on canvas: inout RenderCanvas,
        isFullColour: Bool,
        fonts: FontStack
    ) throws(KFeedError) -> Report {
        let metrics = Metrics(width: canvas.width, height: canvas.height)
        let top = canvas.height - metrics.height
        let inks = drawBackground(on: &canvas, top: top, metrics: metrics, isFullColour: isFullColour)
        let avatarX = metrics.padding * 2
        drawAvatar(caption.avatarJPEG, on: &canvas, x: avatarX, y: top + metrics.padding, metrics: metrics)
        let hourLeft = drawHour(caption.hour, on: &canvas, top: top, metrics: metrics, ink: inks.ink, fonts: fonts)
        let textLeft = Float(avatarX + metrics.avatar + metrics.padding * 2)
        return try drawNames(
            of: caption,
            on: &canvas,
            top: top,
            left: textLeft,
            maxWidth: max(hourLeft - Float(metrics.padding * 3) - textLeft, Float(metrics.nameSize)),
            metrics: metrics,
            inks: inks,
            fonts: fonts
        )
    }

    /// The band itself: on full colour, the picture darkened; on a palette, solid white under a black rule.
    private static func drawBackground(
        on canvas: inout RenderCanvas,
        top: Int,
        metrics: Metrics,
        isFullColour: Bool
    ) -> Inks {
        if isFullColour {
            canvas.shade(x: 0, y: top, width: canvas.width, height: metrics.height, colour: .init(0, 0, 0), alpha: 0.6)
            return Inks(ink: .init(255, 255, 255), secondary: .init(215, 215, 215))
        }
        canvas.fill(
            x: 0,
            y: top,
            width: canvas.width,
            height: metrics.height,
            colour: .init(255, 255, 255),
            isCrisp: true
        )
        let rule = max(metrics.height / 36, 1)
        canvas.fill(x: 0, y: top - rule, width: canvas.width, height: rule, colour: .init(0, 0, 0), isCrisp: true)
        return Inks(ink: .init(0, 0, 0), secondary: .init(60, 60, 60))
    }

    /// The round avatar at `x`, `y`; a grey disc when there is none or it does not decode.
    private static func drawAvatar(_ jpeg: Data?, on canvas: inout RenderCanvas, x: Int, y: Int, metrics: Metrics) {
        let avatarSize = ImageSize(width: metrics.avatar, height: metrics.avatar)
        if let jpeg, let pixels = try? JPEGThumbnailer().pixels(of: jpeg, size: avatarSize) {
            canvas.drawDisc(pixels, diameter: metrics.avatar, x: x, y: y)
        } else {
            let grey = [UInt8](repeating: 170, count: metrics.avatar * metrics.avatar * 4)
            canvas.drawDisc(grey, diameter: metrics.avatar, x: x, y: y)
        }
    }

    /// The hour, right-aligned and centred vertically, at most a third of the width.
    /// - Returns: where the hour starts (the right margin when none was drawn).
    private static func drawHour(
        _ text: String,
        on canvas: inout RenderCanvas,
        top: Int,
        metrics: Metrics,
        ink: RenderCanvas.Colour,
        fonts: FontStack
    ) -> Float {
        let right = Float(canvas.width - metrics.padding * 2)
        guard !text.isEmpty, let hour = fonts.layout(text, pixelSize: metrics.hourSize, bold: true, maxWidth: right / 3)
        else { return right }
        let hourLeft = right - hour.width
        let baseline = Float(top) + Float(metrics.height) / 2 + Float(metrics.hourSize) * 0.36
        fonts.draw(hour, x: hourLeft, baseline: baseline, colour: ink, on: &canvas)
        return hourLeft
    }

    /// The name over `@username` from `left`, each at most `maxWidth`; `@username` alone, centred, in the name's
    /// place when no font can draw the name.
    /// - Throws: `.configuration` when no font can draw `@username` either.
    private static func drawNames(
        of caption: DisplayCaption,
        on canvas: inout RenderCanvas,
        top: Int,
        left textLeft: Float,
        maxWidth: Float,
        metrics: Metrics,
        inks: Inks,
        fonts: FontStack
    ) throws(KFeedError) -> Report {
        let handle = "@" + caption.username
        let nameBaseline = Float(top) + Float(metrics.height) * 0.47
        let usernameBaseline = nameBaseline + Float(metrics.usernameSize) * 1.35
        let nameLine: TextLine
        var fellBack = false
        let trimmedName = caption.name.trimmingCharacters(in: .whitespacesAndNewlines)
        if !trimmedName.isEmpty,
            let line = fonts.layout(trimmedName, pixelSize: metrics.nameSize, bold: true, maxWidth: maxWidth)
        {
            nameLine = line
            if let username = fonts.layout(handle, pixelSize: metrics.usernameSize, bold: false, maxWidth: maxWidth) {
                fonts.draw(username, x: textLeft, baseline: usernameBaseline, colour: inks.secondary, on: &canvas)
            }
        } else {
            guard let line = fonts.layout(handle, pixelSize: metrics.nameSize, bold: true, maxWidth: maxWidth) else {
                throw KFeedError(
                    .configuration,
                    "no installed font can draw the caption '\(handle)': install the Debian package fonts-dejavu-core"
                )
            }
            nameLine = line
            fellBack = true
        }
        let nameY = Float(fellBack ? (nameBaseline + usernameBaseline) / 2 : nameBaseline)
        fonts.draw(nameLine, x: textLeft, baseline: nameY, colour: inks.ink, on: &canvas)
        return Report(
            nameLine: nameLine.text,
            fellBackToUsername: fellBack,
            isEllipsised: nameLine.isEllipsised,
            top: top,
            nameBox: (
                x: Int(textLeft),
                y: Int(nameY) - metrics.nameSize,
                width: Int(nameLine.width.rounded(.up)),
                height: Int(Float(metrics.nameSize) * 1.3)
            ),
            nameFont: fonts.fontPath(of: nameLine)
        )
    }
}

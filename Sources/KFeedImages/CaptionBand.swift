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

    static func draw(
        _ caption: DisplayCaption,
        on canvas: inout RenderCanvas,
        isFullColour: Bool,
        fonts: FontStack
    ) throws(KFeedError) -> Report {
        let metrics = Metrics(width: canvas.width, height: canvas.height)
        let top = canvas.height - metrics.height
        let ink: RenderCanvas.Colour
        let secondary: RenderCanvas.Colour
        if isFullColour {
            canvas.shade(x: 0, y: top, width: canvas.width, height: metrics.height, colour: .init(0, 0, 0), alpha: 0.6)
            ink = .init(255, 255, 255)
            secondary = .init(215, 215, 215)
        } else {
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
            ink = .init(0, 0, 0)
            secondary = .init(60, 60, 60)
        }

        // Avatar.
        let avatarX = metrics.padding * 2
        let avatarY = top + metrics.padding
        let avatarSize = ImageSize(width: metrics.avatar, height: metrics.avatar)
        if let jpeg = caption.avatarJPEG, let pixels = try? JPEGThumbnailer().pixels(of: jpeg, size: avatarSize) {
            canvas.drawDisc(pixels, diameter: metrics.avatar, x: avatarX, y: avatarY)
        } else {
            let grey = [UInt8](repeating: 170, count: metrics.avatar * metrics.avatar * 4)
            canvas.drawDisc(grey, diameter: metrics.avatar, x: avatarX, y: avatarY)
        }

        // Hour, right-aligned and centred vertically.
        let right = Float(canvas.width - metrics.padding * 2)
        var hourLeft = right
        if !caption.hour.isEmpty,
            let hour = fonts.layout(caption.hour, pixelSize: metrics.hourSize, bold: true, maxWidth: right / 3)
        {
            hourLeft = right - hour.width
            let baseline = Float(top) + Float(metrics.height) / 2 + Float(metrics.hourSize) * 0.36
            fonts.draw(hour, x: hourLeft, baseline: baseline, colour: ink, on: &canvas)
        }

        // Name over @username.
        let textLeft = Float(avatarX + metrics.avatar + metrics.padding * 2)
        let maxWidth = max(hourLeft - Float(metrics.padding * 3) - textLeft, Float(metrics.nameSize))
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
                fonts.draw(username, x: textLeft, baseline: usernameBaseline, colour: secondary, on: &canvas)
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
        fonts.draw(nameLine, x: textLeft, baseline: nameY, colour: ink, on: &canvas)
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

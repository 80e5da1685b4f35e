import Foundation
import KFeedBase

/// Draws a render's attribution over the bottom of the picture (`docs/renders.md`, *Attribution*).
///
/// The band (``DisplayCaption/Style/band``): a round avatar, the name over `@username`, the post's time over its
/// day and the X mark on the right, and below them the post's text, wrapped, where the panel has room for it
/// (``textLines(width:height:)``). The line (``DisplayCaption/Style/line``, `--no-caption`): the X mark, the name,
/// `@username` and the post's day and time on one slim line. On palette panels both are solid white with black
/// text and a black rule above them, all crisp (never dithered); on full-colour panels they darken the picture and
/// the text is white.
package enum CaptionBand {
    /// What the attribution showed, and where.
    struct Report: Sendable, Equatable {
        /// A box in pixels: left, top, width, height.
        typealias Box = (x: Int, y: Int, width: Int, height: Int)

        /// The band or the line.
        var style: DisplayCaption.Style
        /// The name line as drawn: the name, shortened with `…`, or `@username` when no font could draw the name.
        var nameLine: String
        /// Whether the name could not be drawn and `@username` took its place.
        var fellBackToUsername: Bool
        /// Whether the name line was ellipsised.
        var isEllipsised: Bool
        /// Where the attribution starts, in pixels from the top.
        var top: Int
        /// The name line's box.
        var nameBox: Box
        /// The font file of the name line's first glyph.
        var nameFont: String?
        /// The X mark's square box.
        var markBox: Box
        /// The time's box (with the day under it in the band, beside it on the line); zero-sized when empty.
        var timeBox: Box
        /// The post's text as drawn, one string a line; empty when the render shows no text.
        var textLines: [String]
        /// The text lines' boxes, top to bottom.
        var textBoxes: [Box]
        /// Whether the whole text is drawn (false when it was cut with `…`, or no font could draw it, or the
        /// panel has no room for text).
        var isTextComplete: Bool

        static func == (lhs: Report, rhs: Report) -> Bool {
            lhs.style == rhs.style && lhs.nameLine == rhs.nameLine && lhs.fellBackToUsername == rhs.fellBackToUsername
                && lhs.isEllipsised == rhs.isEllipsised && lhs.top == rhs.top && lhs.nameBox == rhs.nameBox
                && lhs.markBox == rhs.markBox && lhs.timeBox == rhs.timeBox && lhs.textLines == rhs.textLines
                && lhs.isTextComplete == rhs.isTextComplete
        }
    }

    /// The band's geometry for a canvas.
    struct Metrics {
        /// The height of the band's first part (avatar, names, time, mark), without the text.
        var height: Int
        var padding: Int
        var avatar: Int
        var nameSize: Int
        var usernameSize: Int
        var timeSize: Int
        var markSize: Int
        /// The post text's size and line height, in pixels.
        var textSize: Int
        var lineHeight: Int
        /// How many lines of post text the panel shows.
        var textLines: Int

        init(width: Int, height canvasHeight: Int) {
            let short = min(width, canvasHeight)
            // 15 % of the short side, at least 32 px (legible), at most half the panel.
            height = min(CaptionBand.scaled(short, 0.15, atLeast: 32), max(canvasHeight / 2, 1))
            padding = max(height / 8, 1)
            avatar = max(height - 2 * padding, 1)
            // At least 11, 10 and 11 px: the smallest legible on a 1-bit panel.
            nameSize = CaptionBand.scaled(height, 0.30, atLeast: 11)
            usernameSize = CaptionBand.scaled(height, 0.23, atLeast: 10)
            timeSize = CaptionBand.scaled(height, 0.30, atLeast: 11)
            markSize = CaptionBand.scaled(height, 0.40, atLeast: 10)
            textSize = CaptionBand.scaled(short, 0.03, atLeast: 12)
            lineHeight = Int((Float(textSize) * 1.3).rounded())
            textLines = CaptionBand.textLines(width: width, height: canvasHeight)
        }
    }

    /// `value × factor`, rounded, and at least `minimum`: how every size of the band follows the panel.
    static func scaled(_ value: Int, _ factor: Float, atLeast minimum: Int) -> Int {
        max(Int((Float(value) * factor).rounded()), minimum)
    }

    /// The slim line's geometry for a canvas.
    struct LineMetrics {
        var height: Int
        var padding: Int
        var textSize: Int
        var markSize: Int

        init(width: Int, height canvasHeight: Int) {
            let short = min(width, canvasHeight)
            // 7 % of the short side, at least 14 px, at most a third of the panel.
            height = min(CaptionBand.scaled(short, 0.07, atLeast: 14), max(canvasHeight / 3, 1))
            padding = max(height / 6, 1)
            textSize = CaptionBand.scaled(height, 0.48, atLeast: 8)
            markSize = CaptionBand.scaled(height, 0.52, atLeast: 8)
        }
    }

    /// How many lines of the post's text a panel of `width`×`height` shows in the band: 2, or none on a panel whose
    /// short side is under 240 pixels (its band keeps the name, `@username`, mark and time).
    package static func textLines(width: Int, height: Int) -> Int {
        min(width, height) >= 240 ? 2 : 0
    }

    /// The text colours: the name, time and mark, and the `@username` and day.
    private struct Inks {
        var ink: RenderCanvas.Colour
        var secondary: RenderCanvas.Colour
    }

    /// Draws `caption` over the bottom of `canvas`.
    /// - Throws: `.configuration` when no font can draw `@username`.
    static func draw(
        _ caption: DisplayCaption,
        on canvas: inout RenderCanvas,
        isFullColour: Bool,
        fonts: FontStack
    ) throws(KFeedError) -> Report {
        switch caption.style {
        case .band: try drawBand(caption, on: &canvas, isFullColour: isFullColour, fonts: fonts)
        case .line: try drawLine(caption, on: &canvas, isFullColour: isFullColour, fonts: fonts)
        }
    }

    // MARK: - The band

    private static func drawBand(
        _ caption: DisplayCaption,
        on canvas: inout RenderCanvas,
        isFullColour: Bool,
        fonts: FontStack
    ) throws(KFeedError) -> Report {
        let metrics = Metrics(width: canvas.width, height: canvas.height)
        let textLeft = metrics.padding * 2
        let textWidth = Float(canvas.width - 4 * metrics.padding)
        let wrapped = fonts.wrap(
            caption.text,
            pixelSize: metrics.textSize,
            maxWidth: textWidth,
            maxLines: metrics.textLines
        )
        let lines = wrapped?.lines ?? []
        let textHeight = lines.isEmpty ? 0 : lines.count * metrics.lineHeight + metrics.padding / 2
        let bandHeight = min(metrics.height + textHeight, canvas.height)
        let top = canvas.height - bandHeight
        let inks = drawBackground(on: &canvas, top: top, height: bandHeight, isFullColour: isFullColour)

        let avatarX = metrics.padding * 2
        drawAvatar(caption.avatarJPEG, on: &canvas, x: avatarX, y: top + metrics.padding, metrics: metrics)
        let markX = canvas.width - metrics.padding * 2 - metrics.markSize
        let markY = top + (metrics.height - metrics.markSize) / 2
        XMark.draw(on: &canvas, x: markX, y: markY, size: metrics.markSize, colour: inks.ink)

        let nameBaseline = Float(top) + Float(metrics.height) * 0.47
        let usernameBaseline = nameBaseline + Float(metrics.usernameSize) * 1.35
        let timeRight = Float(markX - metrics.padding * 2)
        let timeBox = drawTime(
            caption,
            on: &canvas,
            right: timeRight,
            baselines: (nameBaseline, usernameBaseline),
            centre: Float(top) + Float(metrics.height) / 2,
            metrics: metrics,
            inks: inks,
            fonts: fonts
        )
        let namesLeft = Float(avatarX + metrics.avatar + metrics.padding * 2)
        let namesRight = timeBox.width > 0 ? Float(timeBox.x) : timeRight
        let names = try drawNames(
            of: caption,
            on: &canvas,
            left: namesLeft,
            maxWidth: max(namesRight - Float(metrics.padding * 3) - namesLeft, Float(metrics.nameSize)),
            baselines: (nameBaseline, usernameBaseline),
            sizes: (metrics.nameSize, metrics.usernameSize),
            inks: inks,
            fonts: fonts
        )

        var textBoxes: [Report.Box] = []
        let firstBaseline =
            Float(top + metrics.height) - Float(metrics.padding) / 2 + Float(metrics.textSize) * 0.95
        for (number, line) in lines.enumerated() {
            let baseline = firstBaseline + Float(number * metrics.lineHeight)
            let isRightToLeft = FontStack.isRightToLeft(line.text)
            let x = isRightToLeft ? Float(canvas.width - textLeft) - line.width : Float(textLeft)
            fonts.draw(line, x: x, baseline: baseline, colour: inks.ink, on: &canvas)
            textBoxes.append(
                (
                    x: Int(x), y: Int(baseline) - metrics.textSize, width: Int(line.width.rounded(.up)),
                    height: Int(Float(metrics.textSize) * 1.3)
                )
            )
        }
        return Report(
            style: .band,
            nameLine: names.line.text,
            fellBackToUsername: names.fellBack,
            isEllipsised: names.line.isEllipsised,
            top: top,
            nameBox: names.box,
            nameFont: fonts.fontPath(of: names.line),
            markBox: (x: markX, y: markY, width: metrics.markSize, height: metrics.markSize),
            timeBox: timeBox,
            textLines: lines.map(\.text),
            textBoxes: textBoxes,
            isTextComplete: FontStack.paragraphs(of: caption.text).isEmpty
                || (wrapped?.isComplete == true && !lines.isEmpty)
        )
    }

    /// The time over the day, right-aligned at `right`; the time alone, centred, without a day.
    /// - Returns: their box, zero-sized when there is no time.
    private static func drawTime(
        _ caption: DisplayCaption,
        on canvas: inout RenderCanvas,
        right: Float,
        baselines: (time: Float, date: Float),
        centre: Float,
        metrics: Metrics,
        inks: Inks,
        fonts: FontStack
    ) -> Report.Box {
        let maxWidth = Float(canvas.width) / 4
        guard !caption.time.isEmpty,
            let time = fonts.layout(caption.time, pixelSize: metrics.timeSize, bold: true, maxWidth: maxWidth)
        else { return (x: Int(right), y: 0, width: 0, height: 0) }
        let date =
            caption.date.isEmpty
            ? nil : fonts.layout(caption.date, pixelSize: metrics.usernameSize, bold: false, maxWidth: maxWidth)
        let timeBaseline = date == nil ? centre + Float(metrics.timeSize) * 0.36 : baselines.time
        fonts.draw(time, x: right - time.width, baseline: timeBaseline, colour: inks.ink, on: &canvas)
        var left = right - time.width
        var bottom = timeBaseline + Float(metrics.timeSize) * 0.3
        if let date {
            fonts.draw(date, x: right - date.width, baseline: baselines.date, colour: inks.secondary, on: &canvas)
            left = min(left, right - date.width)
            bottom = baselines.date + Float(metrics.usernameSize) * 0.3
        }
        let y = Int(timeBaseline) - metrics.timeSize
        return (x: Int(left), y: y, width: Int((right - left).rounded(.up)), height: Int(bottom) - y)
    }

    // MARK: - The line

    private static func drawLine(
        _ caption: DisplayCaption,
        on canvas: inout RenderCanvas,
        isFullColour: Bool,
        fonts: FontStack
    ) throws(KFeedError) -> Report {
        let metrics = LineMetrics(width: canvas.width, height: canvas.height)
        let top = canvas.height - metrics.height
        let inks = drawBackground(on: &canvas, top: top, height: metrics.height, isFullColour: isFullColour)
        let markX = metrics.padding * 2
        let markY = top + (metrics.height - metrics.markSize) / 2
        XMark.draw(on: &canvas, x: markX, y: markY, size: metrics.markSize, colour: inks.ink)
        let baseline = Float(top) + Float(metrics.height) / 2 + Float(metrics.textSize) * 0.36

        // The day and time on the right.
        let right = Float(canvas.width - metrics.padding * 2)
        let when = [caption.date, caption.time].filter { !$0.isEmpty }.joined(separator: " ")
        var timeBox: Report.Box = (x: Int(right), y: 0, width: 0, height: 0)
        if !when.isEmpty,
            let line = fonts.layout(when, pixelSize: metrics.textSize, bold: false, maxWidth: Float(canvas.width) / 3)
        {
            fonts.draw(line, x: right - line.width, baseline: baseline, colour: inks.ink, on: &canvas)
            timeBox = (
                x: Int(right - line.width), y: Int(baseline) - metrics.textSize,
                width: Int(line.width.rounded(.up)), height: Int(Float(metrics.textSize) * 1.3)
            )
        }
        let left = Float(markX + metrics.markSize + metrics.padding * 2)
        let gap = Float(metrics.padding * 2)
        let available = max(Float(timeBox.x) - gap - left, Float(metrics.textSize))
        let handle = "@" + caption.username
        let username = fonts.layout(handle, pixelSize: metrics.textSize, bold: false, maxWidth: available / 2)
        let names = try drawNames(
            of: caption,
            on: &canvas,
            left: left,
            maxWidth: max(available - (username?.width ?? 0) - gap, Float(metrics.textSize)),
            baselines: (baseline, baseline),
            sizes: (metrics.textSize, metrics.textSize),
            inks: inks,
            fonts: fonts,
            drawsUsername: false
        )
        if !names.fellBack, let username {
            let x = left + Float(names.box.width) + gap / 2
            fonts.draw(username, x: x, baseline: baseline, colour: inks.secondary, on: &canvas)
        }
        return Report(
            style: .line,
            nameLine: names.line.text,
            fellBackToUsername: names.fellBack,
            isEllipsised: names.line.isEllipsised,
            top: top,
            nameBox: names.box,
            nameFont: fonts.fontPath(of: names.line),
            markBox: (x: markX, y: markY, width: metrics.markSize, height: metrics.markSize),
            timeBox: timeBox,
            textLines: [],
            textBoxes: [],
            isTextComplete: FontStack.paragraphs(of: caption.text).isEmpty
        )
    }

    // MARK: - Parts

    /// The background: on full colour, the picture darkened; on a palette, solid white under a black rule.
    private static func drawBackground(
        on canvas: inout RenderCanvas,
        top: Int,
        height: Int,
        isFullColour: Bool
    ) -> Inks {
        if isFullColour {
            canvas.shade(x: 0, y: top, width: canvas.width, height: height, colour: .init(0, 0, 0), alpha: 0.6)
            return Inks(ink: .init(255, 255, 255), secondary: .init(215, 215, 215))
        }
        canvas.fill(x: 0, y: top, width: canvas.width, height: height, colour: .init(255, 255, 255), isCrisp: true)
        let rule = max(min(canvas.width, canvas.height) * 15 / 100 / 36, 1)
        canvas.fill(x: 0, y: top - rule, width: canvas.width, height: rule, colour: .init(0, 0, 0), isCrisp: true)
        // `@username` and the day in black too: a dark grey would be the nearest ink's colour on a colour panel
        // (green on Inky's, blue on Spectra 6's); the weight and size tell them from the name and time.
        return Inks(ink: .init(0, 0, 0), secondary: .init(0, 0, 0))
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

    /// The name (bold) from `left`, at most `maxWidth`, and `@username` under it when the baselines differ;
    /// `@username` alone (bold, between the two baselines) in the name's place when no font can draw the name.
    /// - Throws: `.configuration` when no font can draw `@username` either.
    private static func drawNames(
        of caption: DisplayCaption,
        on canvas: inout RenderCanvas,
        left: Float,
        maxWidth: Float,
        baselines: (name: Float, username: Float),
        sizes: (name: Int, username: Int),
        inks: Inks,
        fonts: FontStack,
        drawsUsername: Bool = true
    ) throws(KFeedError) -> (line: TextLine, fellBack: Bool, box: Report.Box) {
        let handle = "@" + caption.username
        let nameLine: TextLine
        var fellBack = false
        let trimmedName = caption.name.trimmingCharacters(in: .whitespacesAndNewlines)
        if !trimmedName.isEmpty,
            let line = fonts.layout(trimmedName, pixelSize: sizes.name, bold: true, maxWidth: maxWidth)
        {
            nameLine = line
            if drawsUsername,
                let username = fonts.layout(handle, pixelSize: sizes.username, bold: false, maxWidth: maxWidth)
            {
                fonts.draw(username, x: left, baseline: baselines.username, colour: inks.secondary, on: &canvas)
            }
        } else {
            guard let line = fonts.layout(handle, pixelSize: sizes.name, bold: true, maxWidth: maxWidth) else {
                throw KFeedError(
                    .configuration,
                    "no installed font can draw the caption '\(handle)': install the Debian package fonts-dejavu-core"
                )
            }
            nameLine = line
            fellBack = true
        }
        let nameY = fellBack ? (baselines.name + baselines.username) / 2 : baselines.name
        fonts.draw(nameLine, x: left, baseline: nameY, colour: inks.ink, on: &canvas)
        let box = (
            x: Int(left), y: Int(nameY) - sizes.name, width: Int(nameLine.width.rounded(.up)),
            height: Int(Float(sizes.name) * 1.3)
        )
        return (nameLine, fellBack, box)
    }
}

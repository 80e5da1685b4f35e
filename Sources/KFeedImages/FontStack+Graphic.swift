extension FontStack {
    /// RGBX pixels of `lines` drawn in `ink` on `paper` (sRGB triples), `width`×`height`, each line at `pixelSize`
    /// from the top left margin; lines that do not fit are shortened, lines no font draws are left out. Nil when
    /// there is no font stack. For the repost benchmark's and tests' text-heavy graphics and caption bands.
    package static func graphic(
        _ lines: [String],
        width: Int,
        height: Int,
        pixelSize: Int,
        ink: [UInt8],
        paper: [UInt8]
    ) -> [UInt8]? {
        guard case .success(let stack) = shared, ink.count == 3, paper.count == 3, width > 0, height > 0 else {
            return nil
        }
        var canvas = RenderCanvas(
            width: width,
            height: height,
            colour: RenderCanvas.Colour(paper[0], paper[1], paper[2])
        )
        let margin = Float(pixelSize) / 2
        var baseline = margin + Float(pixelSize)
        for text in lines where baseline < Float(height) {
            if let line = stack.layout(text, pixelSize: pixelSize, bold: false, maxWidth: Float(width) - 2 * margin) {
                stack.draw(
                    line,
                    x: margin,
                    baseline: baseline,
                    colour: RenderCanvas.Colour(ink[0], ink[1], ink[2]),
                    on: &canvas
                )
            }
            baseline += Float(pixelSize) * 1.3
        }
        return canvas.pixels
    }
}

/// One line of shaped text, ready to draw: glyphs in visual order, left to right, with pen positions in pixels.
package struct TextLine: Sendable {
    /// A glyph of one face at a pen position relative to the line's left edge and baseline.
    struct Glyph: Sendable {
        /// The index of the face in `FontStack`'s open faces.
        var face: Int
        var glyph: UInt32
        var x: Float
        var yOffset: Float
    }

    var glyphs: [Glyph]
    /// The advance of the whole line, in pixels.
    var width: Float
    var pixelSize: Int
    /// The text laid out (with `…` when it was shortened).
    var text: String
    /// Whether the text had to be shortened to fit.
    var isEllipsised: Bool
}

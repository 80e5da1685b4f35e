import CKFeedText
import KFeedBase

/// One font file's face, opened twice: in HarfBuzz (shaping, with its own OpenType functions) and in FreeType
/// (rasterising). Created and used only by `FontStack`, under its lock; freed in `deinit`.
final class FontFace {
    let path: String
    private let face: FT_Face
    private let blob: OpaquePointer
    private let hbFace: OpaquePointer
    private let hbFont: OpaquePointer
    /// Whether FreeType scales outlines (`false` for bitmap fonts such as Noto Color Emoji's CBDT strikes).
    let isScalable: Bool

    init(library: OpaquePointer, path: String, index: Int) throws(KFeedError) {
        self.path = path
        var opened: FT_Face?
        let status = kfeed_ft_new_face(library, path, index, &opened)
        guard status == 0, let opened else {
            throw KFeedError(.configuration, "FreeType cannot open the font \(path) (error \(status))")
        }
        guard let blob = kfeed_hb_blob_create_from_file(path) else {
            _ = kfeed_ft_done_face(opened)
            throw KFeedError(.configuration, "HarfBuzz cannot read the font \(path)")
        }
        face = opened
        self.blob = blob
        hbFace = kfeed_hb_face_create(blob, UInt32(index))
        hbFont = kfeed_hb_font_create(hbFace)
        isScalable = kfeed_ft_face_is_scalable(opened) != 0
    }

    deinit {
        kfeed_hb_font_destroy(hbFont)
        kfeed_hb_face_destroy(hbFace)
        kfeed_hb_blob_destroy(blob)
        _ = kfeed_ft_done_face(face)
    }

    /// A glyph as shaped: its id in this face and its position, in pixels.
    struct ShapedGlyph {
        var glyph: UInt32
        var xOffset: Float
        var yOffset: Float
        var xAdvance: Float
    }

    /// Shapes `text` at `pixelSize` in visual order; `nil` if the buffer could not be allocated.
    func shape(_ text: String, pixelSize: Int, isRightToLeft: Bool) -> [ShapedGlyph]? {
        let scale = Int32(pixelSize * 64)
        kfeed_hb_font_set_scale(hbFont, scale, scale)
        guard let buffer = kfeed_hb_buffer_create() else { return nil }
        defer { kfeed_hb_buffer_destroy(buffer) }
        var utf8 = Array(text.utf8CString)
        utf8.withUnsafeMutableBufferPointer { bytes in
            kfeed_hb_buffer_add_utf8(buffer, bytes.baseAddress, Int32(bytes.count - 1))
        }
        kfeed_hb_buffer_set_direction(buffer, isRightToLeft ? 1 : 0)
        kfeed_hb_buffer_guess_segment_properties(buffer)
        guard kfeed_hb_buffer_allocation_successful(buffer) != 0 else { return nil }
        kfeed_hb_shape(hbFont, buffer)
        var count: UInt32 = 0
        guard let infos = kfeed_hb_buffer_get_glyph_infos(buffer, &count),
            let positions = kfeed_hb_buffer_get_glyph_positions(buffer, &count)
        else { return count == 0 ? [] : nil }
        return (0..<Int(count)).map { index in
            ShapedGlyph(
                glyph: infos[index].codepoint,
                xOffset: Float(positions[index].x_offset) / 64,
                yOffset: Float(positions[index].y_offset) / 64,
                xAdvance: Float(positions[index].x_advance) / 64
            )
        }
    }

    /// Rasterises `glyph` at `pixelSize` with its origin at (`x`, `baseline`) onto `canvas`, in `colour` (colour
    /// bitmaps keep their own colours, scaled from the font's strike to `pixelSize` with a box filter).
    func draw(
        glyph: UInt32,
        pixelSize: Int,
        x: Float,
        baseline: Float,
        colour: RenderCanvas.Colour,
        on canvas: inout RenderCanvas
    ) {
        if isScalable {
            guard kfeed_ft_set_pixel_sizes(face, 0, UInt32(pixelSize)) == 0,
                kfeed_ft_load_glyph(face, glyph, kfeed_ft_load_outline_flags()) == 0,
                kfeed_ft_render_glyph(face) == 0
            else { return }
        } else {
            guard kfeed_ft_face_num_fixed_sizes(face) > 0, kfeed_ft_select_size(face, 0) == 0,
                kfeed_ft_load_glyph(face, glyph, kfeed_ft_load_color_flags()) == 0
            else { return }
        }
        guard let slot = kfeed_ft_face_glyph(face) else { return }
        let bitmap = slot.pointee.bitmap
        guard let buffer = bitmap.buffer, bitmap.rows > 0, bitmap.width > 0 else { return }
        let rows = Int(bitmap.rows)
        let columns = Int(bitmap.width)
        let pitch = Int(bitmap.pitch)
        let left = Int(slot.pointee.bitmap_left)
        let top = Int(slot.pointee.bitmap_top)
        switch UInt32(bitmap.pixel_mode) {
        case KFEED_FT_PIXEL_MODE_GRAY.rawValue:
            let originX = Int(x.rounded()) + left
            let originY = Int(baseline.rounded()) - top
            for row in 0..<rows {
                for column in 0..<columns {
                    let value = buffer[row * pitch + column]
                    guard value > 0 else { continue }
                    canvas.blend(originX + column, originY + row, colour: colour, coverage: Float(value) / 255)
                    canvas.markCrisp(originX + column, originY + row)
                }
            }
        case KFEED_FT_PIXEL_MODE_BGRA.rawValue:
            let strike = max(Float(kfeed_ft_face_y_ppem(face)), 1)
            let scale = Float(pixelSize) / strike
            let originX = x + Float(left) * scale
            let originY = baseline - Float(top) * scale
            let outputColumns = max(Int((Float(columns) * scale).rounded(.up)), 1)
            let outputRows = max(Int((Float(rows) * scale).rounded(.up)), 1)
            for outputRow in 0..<outputRows {
                let firstRow = Int(Float(outputRow) / scale)
                let lastRow = min(max(Int(Float(outputRow + 1) / scale), firstRow + 1), rows)
                for outputColumn in 0..<outputColumns {
                    let firstColumn = Int(Float(outputColumn) / scale)
                    let lastColumn = min(max(Int(Float(outputColumn + 1) / scale), firstColumn + 1), columns)
                    var sum = SIMD4<Float>(repeating: 0)
                    for row in firstRow..<lastRow {
                        for column in firstColumn..<lastColumn {
                            let offset = row * pitch + column * 4
                            sum += SIMD4(
                                Float(buffer[offset + 2]),
                                Float(buffer[offset + 1]),
                                Float(buffer[offset]),
                                Float(buffer[offset + 3])
                            )
                        }
                    }
                    let area = Float(max((lastRow - firstRow) * (lastColumn - firstColumn), 1))
                    let average = sum / area
                    let targetX = Int(originX.rounded()) + outputColumn
                    let targetY = Int(originY.rounded()) + outputRow
                    canvas.composite(
                        targetX,
                        targetY,
                        premultiplied: SIMD3(average.x, average.y, average.z),
                        alpha: average.w / 255
                    )
                    if average.w > 0 { canvas.markCrisp(targetX, targetY) }
                }
            }
        default:
            return
        }
    }
}

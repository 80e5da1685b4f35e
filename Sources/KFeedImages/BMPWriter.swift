import Foundation

/// Writes display renders as Windows BMP (BMP3): a 14-byte file header, a 40-byte `BITMAPINFOHEADER`, a colour
/// table and bottom-up rows padded to 4 bytes. 1-bit for 2 colours (TRMNL's firmware format: 800×480 is exactly
/// 62 + 480 × 100 = 48,062 bytes), 4-bit otherwise; uncompressed, so the size depends only on the dimensions.
enum BMPWriter {
    /// Palette indices (one byte per pixel) as a BMP whose colour table is the palette in index order.
    static func encode(indices: [UInt8], width: Int, height: Int, palette: DisplayPalette) -> Data {
        let bitDepth = palette.colours.count <= 2 ? 1 : 4
        let tableEntries = 1 << bitDepth
        let rowBytes = ((width * bitDepth + 7) / 8 + 3) / 4 * 4
        let pixelOffset = 14 + 40 + tableEntries * 4
        let fileSize = pixelOffset + rowBytes * height
        var data = Data(capacity: fileSize)
        func u16(_ value: Int) { data.append(contentsOf: [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)]) }
        func u32(_ value: Int) {
            u16(value & 0xFFFF)
            u16(value >> 16 & 0xFFFF)
        }
        // BITMAPFILEHEADER
        data.append(contentsOf: Array("BM".utf8))
        u32(fileSize)
        u32(0)  // reserved
        u32(pixelOffset)
        // BITMAPINFOHEADER
        u32(40)
        u32(width)
        u32(height)  // positive: bottom-up rows
        u16(1)  // planes
        u16(bitDepth)
        u32(0)  // BI_RGB, uncompressed
        u32(rowBytes * height)
        u32(2_835)  // 72 dpi, in pixels per metre
        u32(2_835)
        u32(tableEntries)
        u32(0)  // all colours important
        // Colour table: blue, green, red, reserved; unused entries black.
        for index in 0..<tableEntries {
            let colour = index < palette.colours.count ? palette.colours[index] : SIMD3(0, 0, 0)
            data.append(contentsOf: [colour.z, colour.y, colour.x, 0])
        }
        let rows = PNGWriter.pack(indices, width: width, height: height, bitDepth: bitDepth, rowAlignment: 4)
        for y in stride(from: height - 1, through: 0, by: -1) {
            data.append(contentsOf: rows[(y * rowBytes)..<((y + 1) * rowBytes)])
        }
        return data
    }
}

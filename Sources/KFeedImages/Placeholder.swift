/// The pixels of kfeed's own placeholder: a calm diagonal blue-grey gradient with a soft ring in the middle.
enum Placeholder {
    /// RGBX pixels, `width`×`height`.
    static func pixels(width: Int, height: Int) -> [UInt8] {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        let top = SIMD3<Float>(0x5B, 0x6F, 0x86)  // slate blue
        let bottom = SIMD3<Float>(0xA9, 0xB8, 0xC8)  // pale blue-grey
        let mark = SIMD3<Float>(0xEE, 0xF2, 0xF6)
        let centreX = Float(width) / 2
        let centreY = Float(height) / 2
        let radius = Float(min(width, height)) * 0.18
        let thickness = max(Float(min(width, height)) * 0.035, 1.5)
        let diagonal = max(Float(width + height), 1)
        for y in 0..<height {
            for x in 0..<width {
                let t = (Float(x) * 0.35 + Float(y)) / (diagonal * 0.675)
                var colour = top + (bottom - top) * min(max(t, 0), 1)
                let dx = Float(x) + 0.5 - centreX
                let dy = Float(y) + 0.5 - centreY
                let distance = ((dx * dx + dy * dy).squareRoot() - radius).magnitude
                let coverage = min(max(thickness / 2 + 0.5 - distance, 0), 1) * 0.85  // anti-aliased ring
                colour += (mark - colour) * coverage
                let offset = (y * width + x) * 4
                pixels[offset] = UInt8(colour.x.rounded())
                pixels[offset + 1] = UInt8(colour.y.rounded())
                pixels[offset + 2] = UInt8(colour.z.rounded())
            }
        }
        return pixels
    }
}

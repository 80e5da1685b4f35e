/// An RGBX image being composed, with a mask of the pixels that must stay crisp (not error-diffused).
package struct RenderCanvas: Sendable {
    /// An sRGB colour.
    typealias Colour = SIMD3<UInt8>

    let width: Int
    let height: Int
    /// RGBX, rows packed.
    var pixels: [UInt8]
    /// One byte per pixel: non-zero where the ditherer takes the nearest colour without diffusing.
    var crisp: [UInt8]

    /// A canvas filled with `colour`.
    init(width: Int, height: Int, colour: Colour = Colour(255, 255, 255)) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 255, count: width * height * 4)
        crisp = [UInt8](repeating: 0, count: width * height)
        fill(x: 0, y: 0, width: width, height: height, colour: colour, isCrisp: false)
    }

    /// A canvas holding `pixels` (RGBX of exactly `width`×`height`).
    init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 4, "pixels do not match \(width)x\(height)")
        self.width = width
        self.height = height
        self.pixels = pixels
        crisp = [UInt8](repeating: 0, count: width * height)
    }

    /// Fills a rectangle (clipped to the canvas).
    mutating func fill(x: Int, y: Int, width: Int, height: Int, colour: Colour, isCrisp: Bool) {
        let (rows, columns) = clip(x: x, y: y, width: width, height: height)
        for row in rows {
            for column in columns {
                let index = row * self.width + column
                pixels[index * 4] = colour.x
                pixels[index * 4 + 1] = colour.y
                pixels[index * 4 + 2] = colour.z
                crisp[index] = isCrisp ? 1 : 0
            }
        }
    }

    /// Lays `colour` over a rectangle with opacity `alpha` (0…1), leaving it diffusable.
    mutating func shade(x: Int, y: Int, width: Int, height: Int, colour: Colour, alpha: Float) {
        let (rows, columns) = clip(x: x, y: y, width: width, height: height)
        for row in rows {
            for column in columns {
                blend(column, row, colour: colour, coverage: alpha)
            }
        }
    }

    /// Blends `colour` into one pixel with `coverage` (0…1, in sRGB-encoded values, like most text renderers).
    mutating func blend(_ x: Int, _ y: Int, colour: Colour, coverage: Float) {
        guard x >= 0, y >= 0, x < width, y < height, coverage > 0 else { return }
        let offset = (y * width + x) * 4
        let alpha = min(coverage, 1)
        pixels[offset] = mix(pixels[offset], colour.x, alpha)
        pixels[offset + 1] = mix(pixels[offset + 1], colour.y, alpha)
        pixels[offset + 2] = mix(pixels[offset + 2], colour.z, alpha)
    }

    /// Lays a premultiplied colour (`rgb` already multiplied by `alpha`, 0…255) over one pixel.
    mutating func composite(_ x: Int, _ y: Int, premultiplied rgb: SIMD3<Float>, alpha: Float) {
        guard x >= 0, y >= 0, x < width, y < height, alpha > 0 else { return }
        let offset = (y * width + x) * 4
        let keep = 1 - min(alpha, 1)
        for channel in 0..<3 {
            let value = rgb[channel] + Float(pixels[offset + channel]) * keep
            pixels[offset + channel] = UInt8(min(max(value, 0), 255).rounded())
        }
    }

    /// Draws an RGBX `image` of `diameter`² inside a circle at (`x`, `y`), its edge anti-aliased, and marks its
    /// inside for dithering.
    mutating func drawDisc(_ image: [UInt8], diameter: Int, x: Int, y: Int) {
        guard diameter > 0, image.count >= diameter * diameter * 4 else { return }
        let radius = Float(diameter) / 2
        for row in 0..<diameter {
            for column in 0..<diameter {
                let dx = Float(column) + 0.5 - radius
                let dy = Float(row) + 0.5 - radius
                let coverage = min(max(radius - (dx * dx + dy * dy).squareRoot() + 0.5, 0), 1)
                let source = (row * diameter + column) * 4
                let colour = Colour(image[source], image[source + 1], image[source + 2])
                blend(x + column, y + row, colour: colour, coverage: coverage)
                // The picture inside is dithered like the photo; its anti-aliased rim stays crisp.
                if coverage >= 0.5, x + column >= 0, y + row >= 0, x + column < width, y + row < height {
                    crisp[(y + row) * width + x + column] = 0
                }
            }
        }
    }

    /// The rows and columns of a rectangle inside the canvas (empty when it lies outside or is empty).
    private func clip(x: Int, y: Int, width: Int, height: Int) -> (rows: Range<Int>, columns: Range<Int>) {
        let top = min(max(y, 0), self.height)
        let left = min(max(x, 0), self.width)
        let bottom = max(min(y + max(height, 0), self.height), top)
        let right = max(min(x + max(width, 0), self.width), left)
        return (top..<bottom, left..<right)
    }

    private func mix(_ background: UInt8, _ foreground: UInt8, _ alpha: Float) -> UInt8 {
        UInt8((Float(background) + (Float(foreground) - Float(background)) * alpha).rounded())
    }
}

extension RenderCanvas {
    /// Marks one pixel crisp (clipped to the canvas).
    mutating func markCrisp(_ x: Int, _ y: Int) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        crisp[y * width + x] = 1
    }
}

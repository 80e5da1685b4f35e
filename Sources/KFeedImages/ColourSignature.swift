package import Foundation

/// What a viewer sees of a picture at a glance: the picture shrunk to ``side``×``side`` cells, each cell's colour in
/// OKLab (a perceptual colour space: equal distances look about equally different). ``distance(to:)`` is the mean
/// colour difference of the cells once the two pictures are lined up.
///
/// The difference hash (``PerceptualHash``) sees only the grey layout of a picture, so it calls a whole teaser
/// series (one frame, member by member, other colours) one picture, and a crop or a border moves many of its bits.
/// Here, another rendition, a re-encode, a crop of up to 5 % or a border of up to 8 px leave every cell within a
/// couple of units once lined up; a different picture of the same layout differs in colour or content over most
/// cells. `bench/reposts.sh` measures both sides on generated families and on the photo corpus.
package struct ColourSignature: Sendable, Hashable {
    /// Cells a side.
    package static let side = 16
    /// The largest ``distance(to:)`` at which two pictures are the same photo: reposts measure up to 2.6, distinct
    /// pictures from 5.6 (`bench/reposts.sh`).
    package static let samePictureThreshold: Float = 4

    /// L, a and b of each cell, row by row, each quantised to a byte (L × 255; a and b as 128 + 320 × value).
    package let cells: [UInt8]
    /// The cells as OKLab, smoothed by a 3×3 binomial filter (a sub-cell misalignment then costs little).
    private let smoothed: [Float]

    package init?(cells: [UInt8]) {
        guard cells.count == Self.side * Self.side * 3 else { return nil }
        self.cells = cells
        self.smoothed = Self.smooth(cells)
    }

    /// The signature of a JPEG (a widget thumbnail): decoded, centre-cropped to a square and resampled to
    /// ``side``×``side`` by `thumbnailer`; nil when it cannot be decoded.
    package static func of(jpeg: Data, thumbnailer: JPEGThumbnailer = JPEGThumbnailer()) -> ColourSignature? {
        let size = ImageSize(width: side, height: side)
        guard let pixels = try? thumbnailer.pixels(of: jpeg, size: size) else { return nil }
        return of(rgbx: pixels)
    }

    /// The signature of ``side``×``side`` packed RGBX pixels.
    package static func of(rgbx pixels: [UInt8]) -> ColourSignature? {
        let count = side * side
        guard pixels.count >= count * 4 else { return nil }
        var cells = [UInt8](repeating: 0, count: count * 3)
        for index in 0..<count {
            let lab = OKLab(red: pixels[index * 4], green: pixels[index * 4 + 1], blue: pixels[index * 4 + 2])
            cells[index * 3] = quantise(lab.l * 255)
            cells[index * 3 + 1] = quantise(128 + lab.a * 320)
            cells[index * 3 + 2] = quantise(128 + lab.b * 320)
        }
        return ColourSignature(cells: cells)
    }

    /// The mean colour difference of the cells (OKLab units × 100; about 1 is just noticeable) at the best of a few
    /// alignments: `other` scaled by 0.94, 1 or 1.06 about the centre and shifted by up to 1.5 cells each way in half
    /// cells, what a crop or a border does to a centre-cropped thumbnail. Pictures that differ by more than three
    /// thresholds lined up as they are (no repost measures over 6) are not searched further.
    package func distance(to other: ColourSignature) -> Float {
        let direct = meanDifference(to: other, scale: 1, dx: 0, dy: 0)
        guard direct <= 3 * Self.samePictureThreshold else { return direct }
        var best = direct
        for scale: Float in [0.94, 1, 1.06] {
            for dy in stride(from: Float(-1.5), through: 1.5, by: 0.5) {
                for dx in stride(from: Float(-1.5), through: 1.5, by: 0.5) {
                    best = min(best, meanDifference(to: other, scale: scale, dx: dx, dy: dy))
                }
            }
        }
        return best
    }

    /// Whether `other` is within ``samePictureThreshold``.
    package func isSamePicture(as other: ColourSignature) -> Bool {
        distance(to: other) <= Self.samePictureThreshold
    }

    /// The cells as base64 (how `history.json` stores them).
    package var base64: String { Data(cells).base64EncodedString() }

    /// Reads ``base64``.
    package init?(base64: String) {
        guard let data = Data(base64Encoded: base64) else { return nil }
        self.init(cells: [UInt8](data))
    }

    package static func == (lhs: ColourSignature, rhs: ColourSignature) -> Bool { lhs.cells == rhs.cells }

    package func hash(into hasher: inout Hasher) { hasher.combine(cells) }

    /// The mean difference between each cell of this signature and `other` sampled (bilinearly) where the cell
    /// lands after scaling about the centre and shifting; cells that land outside `other` are left out.
    private func meanDifference(to other: ColourSignature, scale: Float, dx: Float, dy: Float) -> Float {
        let side = Self.side
        let centre = Float(side) / 2
        let last = Float(side - 1)
        var total: Float = 0
        var count = 0
        for y in 0..<side {
            let sy = (Float(y) + 0.5 - centre) * scale + centre - 0.5 + dy
            guard sy >= 0, sy <= last else { continue }
            let y0 = min(Int(sy), side - 2)
            let fy = sy - Float(y0)
            for x in 0..<side {
                let sx = (Float(x) + 0.5 - centre) * scale + centre - 0.5 + dx
                guard sx >= 0, sx <= last else { continue }
                let x0 = min(Int(sx), side - 2)
                let fx = sx - Float(x0)
                let top = (y0 * side + x0) * 3
                let bottom = top + side * 3
                var squared: Float = 0
                for channel in 0..<3 {
                    let upper = other.smoothed[top + channel] * (1 - fx) + other.smoothed[top + 3 + channel] * fx
                    let lower =
                        other.smoothed[bottom + channel] * (1 - fx) + other.smoothed[bottom + 3 + channel] * fx
                    let difference = smoothed[(y * side + x) * 3 + channel] - (upper * (1 - fy) + lower * fy)
                    squared += difference * difference
                }
                total += squared.squareRoot()
                count += 1
            }
        }
        return count == 0 ? .infinity : total / Float(count) * 100
    }

    /// The cells as OKLab, each the 1-2-1 weighted mean of its 3×3 neighbourhood (within the grid).
    private static func smooth(_ cells: [UInt8]) -> [Float] {
        let lab = cells.indices.map { index in
            index % 3 == 0 ? Float(cells[index]) / 255 : (Float(cells[index]) - 128) / 320
        }
        let weights: [Float] = [1, 2, 1]
        var smoothed = [Float](repeating: 0, count: lab.count)
        for y in 0..<side {
            for x in 0..<side {
                for channel in 0..<3 {
                    var sum: Float = 0
                    var total: Float = 0
                    for ky in max(0, y - 1)...min(side - 1, y + 1) {
                        for kx in max(0, x - 1)...min(side - 1, x + 1) {
                            let weight = weights[ky - y + 1] * weights[kx - x + 1]
                            sum += weight * lab[(ky * side + kx) * 3 + channel]
                            total += weight
                        }
                    }
                    smoothed[(y * side + x) * 3 + channel] = sum / total
                }
            }
        }
        return smoothed
    }

    private static func quantise(_ value: Double) -> UInt8 {
        UInt8(min(255, max(0, value.rounded())))
    }
}

/// A colour in OKLab (Björn Ottosson, 2020): lightness 0…1 and two opponent axes, about −0.4…0.4.
struct OKLab: Sendable, Hashable {
    var l: Double
    var a: Double
    var b: Double

    /// Converts an sRGB colour.
    init(red: UInt8, green: UInt8, blue: UInt8) {
        let r = Self.linear[Int(red)]
        let g = Self.linear[Int(green)]
        let b = Self.linear[Int(blue)]
        let long = cbrt(0.412_221_470_8 * r + 0.536_332_536_3 * g + 0.051_445_992_9 * b)
        let medium = cbrt(0.211_903_498_2 * r + 0.680_699_545_1 * g + 0.107_396_956_6 * b)
        let short = cbrt(0.088_302_461_9 * r + 0.281_718_837_6 * g + 0.629_978_700_5 * b)
        self.l = 0.210_454_255_3 * long + 0.793_617_785_0 * medium - 0.004_072_046_8 * short
        self.a = 1.977_998_495_1 * long - 2.428_592_205_0 * medium + 0.450_593_709_9 * short
        self.b = 0.025_904_037_1 * long + 0.782_771_766_2 * medium - 0.808_675_766_0 * short
    }

    /// sRGB's transfer function undone, for each byte.
    private static let linear: [Double] = (0...255).map { byte in
        let value = Double(byte) / 255
        return value <= 0.040_45 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }
}

import Foundation

/// Error diffusion to an exact palette: serpentine Floyd–Steinberg, with a tone step for 1-bit.
///
/// - Greys (mono, grey4, grey16) are dithered on luma (Rec. 709 weights on the sRGB-encoded values), not in
///   linear light: sRGB values are close to perceptually even, so the error spreads evenly over shadows and
///   highlights, and e-paper's dot gain (an isolated black dot covers more than its cell) already darkens a
///   linear-light mix; ImageMagick's `-dither FloydSteinberg -remap` does the same, so the benchmark compares
///   like with like.
/// - 1-bit gets a tone step first, so a photo still reads with two colours: levels stretched from the 1st to the
///   99th percentile of the photo's luma (when that range spans at least 48 of 255), an unsharp mask (radius 2,
///   amount 0.8) that keeps edges and faces from dissolving into noise, a gentle S-curve (20 % smoothstep) that
///   pushes midtones apart, and a midtone lift (gamma 0.85) against e-paper's dot gain, which otherwise closes
///   dark midtones (faces, fur) into solid black.
/// - Colours (color7) diffuse the error in linear-light RGB (so a mix of two inks averages right) and pick the
///   nearest palette colour in Oklab (perceptual distance, so a dark blue is not mistaken for black).
///
/// Pixels flagged crisp (caption text and its background) take the nearest colour without diffusing, so text
/// edges stay sharp and no error leaks between the caption and the photo. The output holds one palette index
/// per pixel; every value is below the palette's count.
enum Ditherer {
    /// Palette indices for RGBX `pixels` (`width`×`height`); `crisp[i] != 0` marks pixels that are not diffused.
    static func indices(
        rgbx pixels: [UInt8],
        width: Int,
        height: Int,
        palette: DisplayPalette,
        crisp: [UInt8],
        toneStep: Bool
    ) -> [UInt8] {
        precondition(pixels.count >= width * height * 4 && crisp.count >= width * height, "buffers too small")
        if palette.isEvenGreys {
            let levels = palette.colours.count
            guard toneStep else {
                // No plane of its own: each pixel's luma is taken as the diffusion reaches it.
                return pixels.withUnsafeBufferPointer { source in
                    let luma = { (index: Int) -> Float in
                        let red = Float(source[index * 4])
                        let green = Float(source[index * 4 + 1])
                        let blue = Float(source[index * 4 + 2])
                        return 0.2126 * red + 0.7152 * green + 0.0722 * blue
                    }
                    return ditherGreys(width: width, height: height, levels: levels, crisp: crisp, crispLuma: luma) {
                        luma($0)
                    }
                }
            }
            let luma = lumaPlane(pixels, count: width * height)
            // The tone step is applied to each pixel as the diffusion reaches it: no toned plane is written.
            guard let tone = ToneStep(luma: luma, width: width, height: height, crisp: crisp) else {
                return luma.withUnsafeBufferPointer { luma in
                    ditherGreys(width: width, height: height, levels: levels, crisp: crisp, crispLuma: { luma[$0] }) {
                        luma[$0]
                    }
                }
            }
            return luma.withUnsafeBufferPointer { luma in
                tone.blurred.withUnsafeBufferPointer { blurred in
                    tone.curve.withUnsafeBufferPointer { curve in
                        ditherGreys(width: width, height: height, levels: levels, crisp: crisp, crispLuma: { luma[$0] })
                        {
                            ToneStep.value(
                                luma[$0],
                                blurred: blurred[$0],
                                low: tone.low,
                                scale: tone.scale,
                                curve: curve
                            )
                        }
                    }
                }
            }
        }
        return ditherColours(pixels, width: width, height: height, palette: palette, crisp: crisp)
    }

    /// Rec. 709 luma of sRGB-encoded values, 0…255.
    static func lumaPlane(_ pixels: [UInt8], count: Int) -> [Float] {
        var luma = [Float](repeating: 0, count: count)
        pixels.withUnsafeBufferPointer { source in
            for index in 0..<count {
                let red = Float(source[index * 4])
                let green = Float(source[index * 4 + 1])
                let blue = Float(source[index * 4 + 2])
                luma[index] = 0.2126 * red + 0.7152 * green + 0.0722 * blue
            }
        }
        return luma
    }

    // MARK: - Tone step (1-bit)

    static let unsharpRadius = 2
    static let unsharpAmount: Float = 0.8
    static let curveStrength: Float = 0.2
    static let midtoneGamma: Float = 0.85

    /// Levels, unsharp mask, S-curve and midtone lift over the non-crisp pixels (see the type's documentation), in
    /// place: the same values the diffusion takes through ``ToneStep`` as it reaches each pixel.
    static func applyToneStep(_ luma: inout [Float], width: Int, height: Int, crisp: [UInt8]) {
        guard let tone = ToneStep(luma: luma, width: width, height: height, crisp: crisp) else { return }
        tone.curve.withUnsafeBufferPointer { curve in
            for index in luma.indices where crisp[index] == 0 {
                luma[index] = ToneStep.value(
                    luma[index],
                    blurred: tone.blurred[index],
                    low: tone.low,
                    scale: tone.scale,
                    curve: curve
                )
            }
        }
    }

    /// The 1-bit tone step of one picture: its levels (from the non-crisp pixels' histogram), its blurred luma for
    /// the unsharp mask, and the S-curve with the midtone lift as a table, applied to a pixel by ``value(_:blurred:low:scale:curve:)``.
    struct ToneStep {
        /// The luma that becomes black, and the stretch that takes the levels' range to 0…1.
        var low: Float
        var scale: Float
        /// The luma blurred twice by a box of ``unsharpRadius``.
        var blurred: [Float]
        /// S-curve and midtone lift for 0…1 at ``curveSteps`` + 1 evenly spaced points (and the last once more),
        /// × 255: linear interpolation between them is within 0.1 of `powf`'s value, far below a grey level,
        /// at a fraction of its cost (a `powf` per pixel was 5 % of a `trmnl` render).
        var curve: [Float]

        static let curveSteps = 1024

        /// The tone step of `luma`; nil when every pixel is crisp (nothing to tone).
        init?(luma: [Float], width: Int, height: Int, crisp: [UInt8]) {
            var histogram = [Int](repeating: 0, count: 256)
            var counted = 0
            for index in luma.indices where crisp[index] == 0 {
                histogram[Int(min(max(luma[index], 0), 255))] += 1
                counted += 1
            }
            guard counted > 0 else { return nil }
            func percentile(_ fraction: Double) -> Float {
                let target = Int(Double(counted) * fraction)
                var sum = 0
                for (value, count) in histogram.enumerated() {
                    sum += count
                    if sum > target { return Float(value) }
                }
                return 255
            }
            var low = percentile(0.01)
            var high = percentile(0.99)
            if high - low < 48 {  // a flat picture (fog, a wall): stretching would only amplify noise
                low = 0
                high = 255
            }
            self.low = low
            scale = 1 / max(high - low, 1)
            blurred = boxBlurTwice(luma, width: width, height: height, radius: unsharpRadius)
            curve = (0...Self.curveSteps + 1).map { step in
                let x = Float(min(step, Self.curveSteps)) / Float(Self.curveSteps)
                let smooth = x * x * (3 - 2 * x)
                return powf(x + curveStrength * (smooth - x), midtoneGamma) * 255
            }
        }

        /// A pixel's toned luma, 0…255, from its luma and blurred luma.
        @inline(__always)
        static func value(
            _ luma: Float,
            blurred: Float,
            low: Float,
            scale: Float,
            curve: UnsafeBufferPointer<Float>
        ) -> Float {
            let sharpened = luma + unsharpAmount * (luma - blurred)
            let position = min(max((sharpened - low) * scale, 0), 1) * Float(curveSteps)
            let step = Int(position)
            let below = curve[step]
            return below + (position - Float(step)) * (curve[step + 1] - below)
        }
    }

    /// An array of `count` elements of a trivial type that the caller writes in full before reading any (no zeroing
    /// pass over a plane of megabytes).
    static func uninitialized<Element: BitwiseCopyable>(_ type: Element.Type, count: Int) -> [Element] {
        [Element](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    }

    /// Two passes of a separable box blur (close to a Gaussian of the same radius), edges clamped.
    static func boxBlurTwice(_ plane: [Float], width: Int, height: Int, radius: Int) -> [Float] {
        // Not zeroed first: each pass writes every element before the next reads it.
        var blurred = uninitialized(Float.self, count: plane.count)
        var scratch = uninitialized(Float.self, count: plane.count)
        plane.withUnsafeBufferPointer { source in
            blurred.withUnsafeMutableBufferPointer { destination in
                scratch.withUnsafeMutableBufferPointer { between in
                    boxBlur(source, between, into: destination, width: width, height: height, radius: radius)
                    let once = UnsafeBufferPointer(destination)
                    boxBlur(once, between, into: destination, width: width, height: height, radius: radius)
                }
            }
        }
        return blurred
    }

    /// One separable box blur of `source` into `destination` (which may be the same memory), through `scratch`.
    private static func boxBlur(
        _ source: UnsafeBufferPointer<Float>,
        _ scratch: UnsafeMutableBufferPointer<Float>,
        into plane: UnsafeMutableBufferPointer<Float>,
        width: Int,
        height: Int,
        radius: Int
    ) {
        let norm = 1 / Float(2 * radius + 1)
        // Horizontal: source → scratch.
        for y in 0..<height {
            let row = y * width
            var sum: Float = 0
            for offset in -radius...radius { sum += source[row + min(max(offset, 0), width - 1)] }
            for x in 0..<width {
                scratch[row + x] = sum * norm
                sum += source[row + min(x + radius + 1, width - 1)] - source[row + max(x - radius, 0)]
            }
        }
        // Vertical: scratch → plane, a running sum per column, row after row (the same sums as column after column,
        // in cache order).
        var sums = [Float](repeating: 0, count: width)
        for offset in -radius...radius {
            let row = min(max(offset, 0), height - 1) * width
            for x in 0..<width { sums[x] += scratch[row + x] }
        }
        for y in 0..<height {
            let row = y * width
            let entering = min(y + radius + 1, height - 1) * width
            let leaving = max(y - radius, 0) * width
            for x in 0..<width {
                plane[row + x] = sums[x] * norm
                sums[x] += scratch[entering + x] - scratch[leaving + x]
            }
        }
    }

    // MARK: - Greys

    /// Serpentine Floyd–Steinberg on a luma plane to `levels` evenly spaced greys: the diffusion of `diffuse`,
    /// written out over raw buffers for `Float` (the hot loop of every grey render: 2.6 million pixels for TRMNL X).
    /// `luma(i)` is the value pixel i is diffused at (its Rec. 709 luma, or its toned luma), 0…255; a crisp pixel
    /// takes the nearest grey to `crispLuma(i)`.
    @inline(__always)
    static func ditherGreys(
        width: Int,
        height: Int,
        levels: Int,
        crisp: [UInt8],
        crispLuma: (Int) -> Float,
        luma: (Int) -> Float
    ) -> [UInt8] {
        let stepValue = 255 / Float(levels - 1)
        let perStep = 1 / stepValue
        var output = uninitialized(UInt8.self, count: width * height)  // every pixel is written
        var rows = [Float](repeating: 0, count: 2 * (width + 2))
        crisp.withUnsafeBufferPointer { crisp in
            output.withUnsafeMutableBufferPointer { output in
                rows.withUnsafeMutableBufferPointer { rows in
                    // Error rows with one cell of margin on each side.
                    var current = rows.baseAddress!
                    var next = current + (width + 2)
                    for y in 0..<height {
                        let leftToRight = y % 2 == 0
                        let direction = leftToRight ? 1 : -1
                        var x = leftToRight ? 0 : width - 1
                        let row = y * width
                        // The error passed to the next pixel of the row is kept in a register, not added into
                        // `current` and read back: the same sums in the same order, without a store and load in
                        // the chain from one pixel to the next.
                        var carried: Float = 0
                        for _ in 0..<width {
                            let index = row + x
                            let cell = x + 1
                            if crisp[index] != 0 {
                                // Values are 0…255, so adding a half and truncating rounds to the nearest step.
                                let level = min(max(crispLuma(index), 0), 255) * perStep + 0.5
                                output[index] = UInt8(min(Int(level), levels - 1))
                                carried = 0
                            } else {
                                let wanted = min(max(luma(index) + (current[cell] + carried), 0), 255)
                                let chosen = min(Int(wanted * perStep + 0.5), levels - 1)
                                output[index] = UInt8(truncatingIfNeeded: chosen)
                                let error = wanted - Float(chosen) * stepValue
                                carried = error * (7.0 / 16)
                                next[cell - direction] += error * (3.0 / 16)
                                next[cell] += error * (5.0 / 16)
                                next[cell + direction] += error * (1.0 / 16)
                            }
                            x += direction
                        }
                        swap(&current, &next)
                        next.update(repeating: 0, count: width + 2)
                    }
                }
            }
        }
        return output
    }

    // MARK: - Colours

    /// sRGB-encoded 0…255 to linear light 0…1.
    static let linearTable: [Float] = (0..<256).map { value in
        let encoded = Float(value) / 255
        return encoded <= 0.040_45 ? encoded / 12.92 : powf((encoded + 0.055) / 1.055, 2.4)
    }

    /// Oklab of a linear-light sRGB colour (Björn Ottosson's matrices).
    static func oklab(_ linear: SIMD3<Float>) -> SIMD3<Float> {
        let l = 0.412_221_470_8 * linear.x + 0.536_332_536_3 * linear.y + 0.051_445_992_9 * linear.z
        let m = 0.211_903_498_2 * linear.x + 0.680_699_545_1 * linear.y + 0.107_396_956_6 * linear.z
        let s = 0.088_302_461_9 * linear.x + 0.281_718_837_6 * linear.y + 0.629_978_700_5 * linear.z
        let lc = cbrtf(max(l, 0))
        let mc = cbrtf(max(m, 0))
        let sc = cbrtf(max(s, 0))
        return SIMD3(
            0.210_454_255_3 * lc + 0.793_617_785_0 * mc - 0.004_072_046_8 * sc,
            1.977_998_495_1 * lc - 2.428_592_205_0 * mc + 0.450_593_709_9 * sc,
            0.025_904_037_1 * lc + 0.782_771_766_2 * mc - 0.808_675_766_0 * sc
        )
    }

    /// Serpentine Floyd–Steinberg in linear light, nearest ink in Oklab, against the palette's `inks` (what the
    /// panel shows). When the palette maps white to the paper, every pixel is first scaled, channel by channel in
    /// linear light, by the paper white's value, and the diffused colour is kept within the inks' range.
    static func ditherColours(
        _ pixels: [UInt8],
        width: Int,
        height: Int,
        palette: DisplayPalette,
        crisp: [UInt8]
    ) -> [UInt8] {
        let linearPalette = palette.inks.map {
            SIMD3(linearTable[Int($0.x)], linearTable[Int($0.y)], linearTable[Int($0.z)])
        }
        let labPalette = linearPalette.map(oklab)
        func nearest(_ colour: SIMD3<Float>) -> Int {
            let lab = oklab(colour)
            var best = 0
            var bestDistance = Float.infinity
            for (index, candidate) in labPalette.enumerated() {
                let delta = lab - candidate
                let distance = (delta * delta).sum()
                if distance < bestDistance {
                    bestDistance = distance
                    best = index
                }
            }
            return best
        }
        let zero = SIMD3<Float>(repeating: 0)
        var low = zero
        var high = SIMD3<Float>(repeating: 1)
        var paper = SIMD3<Float>(repeating: 1)
        if palette.mapsWhiteToPaper {
            // The inks' range in each channel, with a margin: the paper's darkest tones sit close to black, and a
            // clamp at 0 would drop the negative error of a dark ink chosen there, lightening shadows on average.
            low = SIMD3(repeating: -0.1)
            high = linearPalette.reduce(zero) { pointwiseMax($0, $1) } + 0.1
            if let white = palette.colours.firstIndex(of: SIMD3(255, 255, 255)) { paper = linearPalette[white] }
        }
        return diffuse(
            width: width,
            height: height,
            crisp: crisp,
            pixel: { index in
                SIMD3(
                    linearTable[Int(pixels[index * 4])],
                    linearTable[Int(pixels[index * 4 + 1])],
                    linearTable[Int(pixels[index * 4 + 2])]
                ) * paper
            },
            clamp: { $0.clamped(lowerBound: low, upperBound: high) },
            nearest: nearest,
            value: { linearPalette[$0] }
        )
    }

    // MARK: - Diffusion

    /// Serpentine Floyd–Steinberg over `width`×`height` pixels, for greys (`Float`) and colours (`SIMD3<Float>`)
    /// alike: `pixel(i)` is pixel i's colour, `clamp` keeps a colour plus its diffused error in range, `nearest`
    /// picks the palette index for a colour and `value` gives that index's colour. Crisp pixels take the nearest
    /// index for their own colour and neither take nor pass on error.
    @inline(__always)
    private static func diffuse<Colour: DiffusedColour>(
        width: Int,
        height: Int,
        crisp: [UInt8],
        pixel: (Int) -> Colour,
        clamp: (Colour) -> Colour,
        nearest: (Colour) -> Int,
        value: (Int) -> Colour
    ) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: width * height)
        // Error rows with one cell of margin on each side.
        var current = [Colour](repeating: .zero, count: width + 2)
        var next = [Colour](repeating: .zero, count: width + 2)
        for y in 0..<height {
            let leftToRight = y % 2 == 0
            let direction = leftToRight ? 1 : -1
            var x = leftToRight ? 0 : width - 1
            for _ in 0..<width {
                let index = y * width + x
                let cell = x + 1
                if crisp[index] != 0 {
                    output[index] = UInt8(nearest(pixel(index)))
                } else {
                    let wanted = clamp(pixel(index) + current[cell])
                    let chosen = nearest(wanted)
                    output[index] = UInt8(chosen)
                    let error = wanted - value(chosen)
                    current[cell + direction] += error * (7.0 / 16)
                    next[cell - direction] += error * (3.0 / 16)
                    next[cell] += error * (5.0 / 16)
                    next[cell + direction] += error * (1.0 / 16)
                }
                x += direction
            }
            swap(&current, &next)
            for cell in next.indices { next[cell] = .zero }
        }
        return output
    }
}

/// What error diffusion needs of a colour: a zero, sums and differences, and scaling by a weight.
protocol DiffusedColour {
    static var zero: Self { get }
    static func + (lhs: Self, rhs: Self) -> Self
    static func - (lhs: Self, rhs: Self) -> Self
    static func += (lhs: inout Self, rhs: Self)
    static func * (lhs: Self, rhs: Float) -> Self
}

extension Float: DiffusedColour {}
extension SIMD3<Float>: DiffusedColour {}

import CKFeedTurboJPEG
package import Foundation
package import KFeedBase

/// Renders a timeline entry for an e-ink panel or photo frame: the picture cover-cropped to the panel, a caption
/// band like the seed widget's, dithered to the panel's palette and written in its file format.
///
/// The source picture is decoded by ``JPEGThumbnailer``'s machinery (DCT scaling, progressive first pass, EXIF
/// orientation, Lanczos-3 to the exact size, centre crop like `scaledToFill`). The caption is composited before
/// dithering, so it is in the palette too. Palette kinds are dithered with serpentine Floyd–Steinberg (see
/// `Ditherer` for the tone step of 1-bit panels and the colour space of each kind); every pixel of a PNG or
/// BMP render is exactly one palette colour. PNGs go through libspng at the palette's bit depth with zlib level 9;
/// JPEGs are baseline (never progressive) through TurboJPEG.
///
/// libspng, fontconfig, FreeType and HarfBuzz are loaded on the first render, never at start-up. Calls are
/// synchronous and CPU-bound (about 0.1 s of CPU for 800×480 from a 2560×1600 photo): run them off the cooperative
/// pool, at most one per core.
package struct DisplayRenderer: Sendable {
    /// The panel rendered for.
    package var profile: DisplayProfile

    /// Creates a renderer for `profile`.
    package init(profile: DisplayProfile) {
        self.profile = profile
    }

    /// Renders an entry's picture.
    /// - Parameters:
    ///   - jpeg: the source picture's bytes; at least ``DisplayProfile/sourceSize`` after the crop looks best.
    ///   - caption: the attribution (the band, or the slim line of `--no-caption`), or `nil` for the bare picture
    ///     (benchmarks and tests; kfeed's own renders always carry one).
    /// - Returns: The file's bytes and extension.
    /// - Throws: `KFeedError` `.apiResponse` when the picture cannot be decoded (its ``ImageFailure`` is the
    ///   `underlying` error: render ``renderPlaceholder(reason:caption:)`` with its reason instead);
    ///   `.configuration` when a library or every font is missing (the message names the Debian package).
    package func render(photo jpeg: Data, caption: DisplayCaption?) throws(KFeedError) -> DisplayRender {
        let size = ImageSize(width: profile.width, height: profile.height)
        let pixels: [UInt8]
        do {
            pixels = try thumbnailer.pixels(of: jpeg, size: size)
        } catch {
            throw KFeedError(
                .apiResponse,
                "cannot render the picture for display profile \(profile.name): \(error.reason)",
                underlying: error
            )
        }
        var canvas = RenderCanvas(width: profile.width, height: profile.height, pixels: pixels)
        return try finish(&canvas, caption: caption)
    }

    /// Like ``render(photo:caption:)``, but first reserves the render's working memory in `budget` (the decode's
    /// estimate plus the canvas and dithering planes), and renders on a thread of its own, off the cooperative
    /// pool, as ``JPEGThumbnailer/thumbnail(of:size:budget:)`` does.
    package func render(
        photo jpeg: Data,
        caption: DisplayCaption?,
        budget: ImageDecodeBudget
    ) async throws(KFeedError) -> DisplayRender {
        let cost: Int
        do {
            cost = try thumbnailer.memoryCost(of: jpeg, size: profile.sourceSize) + workingMemory
        } catch {
            throw KFeedError(
                .apiResponse,
                "cannot render the picture for display profile \(profile.name): \(error.reason)",
                underlying: error
            )
        }
        return try await budget.detached(reserving: cost) {
            Result { () throws(KFeedError) -> DisplayRender in try render(photo: jpeg, caption: caption) }
        }.get()
    }

    /// The picture's decoder: for a dithered panel, libjpeg decodes at the smallest scale M/8 that covers it (3/8 of
    /// a 2560×1600 photo for 800×480) and Lanczos-2 makes the exact size from there: after error diffusion to a few
    /// greys or inks, neither the headroom of the thumbnails' 2× decode nor Lanczos-3's third lobe shows
    /// (docs/renders.md, "Benchmark"), and they cost up to 7× the pixels to decode and half as many taps again to
    /// resample. Photo frames' and Inkplates' JPEGs, seen as they are, keep the thumbnails' decoder.
    var thumbnailer: JPEGThumbnailer {
        profile.isDithered
            ? JPEGThumbnailer(decodeOversampling: 1, decodesAnyEighth: true, resamplingLobes: 2) : JPEGThumbnailer()
    }

    /// Bytes a render holds beside the decode: the RGBX canvas and its crisp mask, the luma plane and the blur's
    /// two planes, the indices and their packed rows, and the encoded file (generously).
    var workingMemory: Int { profile.width * profile.height * 24 }

    /// Renders a placeholder entry: a card with `reason` (for example the manifest's `placeholder_reason`).
    /// - Throws: `KFeedError` `.configuration` when a library or every font is missing.
    package func renderPlaceholder(reason: String, caption: DisplayCaption?) throws(KFeedError) -> DisplayRender {
        var canvas = RenderCanvas(width: profile.width, height: profile.height)
        let fonts = try FontStack.shared.get()
        let black = RenderCanvas.Colour(0, 0, 0)
        let white = RenderCanvas.Colour(255, 255, 255)
        canvas.fill(x: 0, y: 0, width: profile.width, height: profile.height, colour: white, isCrisp: true)
        // The attribution first: the card takes the space above it.
        var report: CaptionBand.Report?
        if let caption {
            report = try CaptionBand.draw(caption, on: &canvas, isFullColour: !profile.isDithered, fonts: fonts)
        }
        let areaHeight = report?.top ?? profile.height
        let inset = max(min(profile.width, profile.height) / 20, 4)
        let rule = max(min(profile.width, profile.height) / 160, 1)
        // A frame inside the picture area.
        let frameHeight = areaHeight - 2 * inset
        canvas.fill(
            x: inset,
            y: inset,
            width: profile.width - 2 * inset,
            height: frameHeight,
            colour: black,
            isCrisp: true
        )
        canvas.fill(
            x: inset + rule,
            y: inset + rule,
            width: profile.width - 2 * (inset + rule),
            height: frameHeight - 2 * rule,
            colour: white,
            isCrisp: true
        )
        let maxWidth = Float(profile.width - 4 * inset)
        let titleSize = max(areaHeight / 12, 10)
        let reasonSize = max(areaHeight / 18, 9)
        let centre = Float(areaHeight) / 2
        if let title = fonts.layout("No picture", pixelSize: titleSize, bold: true, maxWidth: maxWidth) {
            let x = (Float(profile.width) - title.width) / 2
            fonts.draw(title, x: x, baseline: centre - Float(titleSize) * 0.2, colour: black, on: &canvas)
        }
        let text = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        if !text.isEmpty, let line = fonts.layout(text, pixelSize: reasonSize, bold: false, maxWidth: maxWidth) {
            let x = (Float(profile.width) - line.width) / 2
            fonts.draw(line, x: x, baseline: centre + Float(reasonSize) * 1.4, colour: black, on: &canvas)
        }
        return try encode(canvas, report: report)
    }

    /// Adds the attribution, then dithers and encodes.
    private func finish(_ canvas: inout RenderCanvas, caption: DisplayCaption?) throws(KFeedError) -> DisplayRender {
        var report: CaptionBand.Report?
        if let caption {
            report = try CaptionBand.draw(
                caption,
                on: &canvas,
                isFullColour: !profile.isDithered,
                fonts: try FontStack.shared.get()
            )
        }
        return try encode(canvas, report: report)
    }

    /// Dithers and encodes a composed canvas, within the profile's byte cap.
    private func encode(_ canvas: RenderCanvas, report: CaptionBand.Report?) throws(KFeedError) -> DisplayRender {
        var render = try encode(canvas, step: .diffused)
        if let maxBytes = profile.maxBytes, render.data.count >= maxBytes, profile.isDithered {
            // Deterministic fallbacks, each only when the one before is over the cap (see docs/renders.md, "Byte
            // cap"): zlib's smallest setting (not for 1-bit, whose run-length setting is within 0.5 % of it); for
            // greys, fewer of the panel's greys diffused (16 → 6 → 4 → 2), which bounds the samples' entropy (6
            // greys: 2.6 bits a pixel); last, the nearest colour without error diffusion.
            for step in fallbacks where render.data.count >= maxBytes {
                render = try encode(canvas, step: step)
                render.isDegraded = step != .smallest
            }
            guard render.data.count < maxBytes else {
                throw KFeedError(
                    .io,
                    "the \(profile.name) render needs \(render.data.count) bytes, not under its cap of \(maxBytes)"
                )
            }
        }
        render.caption = report
        return render
    }

    /// The byte cap's fallbacks for this profile, in order.
    private var fallbacks: [EncodeStep] {
        guard let palette = DisplayPalette.of(profile.kind), profile.format == .png else { return [.nearest] }
        var steps: [EncodeStep] = profile.kind == .mono ? [] : [.smallest]
        if palette.isEvenGreys {
            // Fewer greys that are among the panel's own (16 → 6, 4, 2; 4 → 2), most first.
            let intervals = palette.colours.count - 1
            for spacing in 2...max(intervals, 2) where intervals % spacing == 0 {
                steps.append(.fewerGreys(intervals / spacing + 1))
            }
        }
        return steps + [.nearest]
    }

    /// How a palette render is made: the first try, then the byte cap's fallbacks in order.
    private enum EncodeStep: Equatable {
        /// Error diffusion, zlib's fast setting for the size.
        case diffused
        /// Error diffusion, zlib level 9.
        case smallest
        /// The nearest colour, no diffusion, zlib's fast setting.
        case nearest
        /// Greys only: diffused to this many evenly spaced levels (written at the profile's depth), zlib's fast
        /// setting (fewer greys deflate better; level 9 takes 0.7 s at TRMNL X's size).
        case fewerGreys(Int)
    }

    private func encode(_ canvas: RenderCanvas, step: EncodeStep) throws(KFeedError) -> DisplayRender {
        let width = canvas.width
        let height = canvas.height
        let data: Data
        if let palette = DisplayPalette.of(profile.kind), profile.isDithered {
            let crisp = step == .nearest ? [UInt8](repeating: 1, count: width * height) : canvas.crisp
            var indices: [UInt8]
            if case .fewerGreys(let fewer) = step, palette.isEvenGreys {
                let levels = palette.colours.count
                let scale = UInt8((levels - 1) / (fewer - 1))
                indices = Ditherer.indices(
                    rgbx: canvas.pixels,
                    width: width,
                    height: height,
                    palette: .greys(fewer),
                    crisp: crisp,
                    toneStep: false
                )
                for index in indices.indices { indices[index] &*= scale }
            } else {
                indices = Ditherer.indices(
                    rgbx: canvas.pixels,
                    width: width,
                    height: height,
                    palette: palette,
                    crisp: crisp,
                    toneStep: profile.kind == .mono
                )
            }
            switch profile.format {
            case .png:
                data = try PNGWriter.encode(
                    indices: indices,
                    width: width,
                    height: height,
                    palette: palette,
                    smallest: step == .smallest
                )
            case .bmp: data = BMPWriter.encode(indices: indices, width: width, height: height, palette: palette)
            case .jpeg: throw KFeedError(.usage, "display profile \(profile.name): JPEG cannot keep a palette exact")
            }
        } else {
            switch profile.format {
            case .png: data = try PNGWriter.encodeRGB(rgbx: canvas.pixels, width: width, height: height)
            case .bmp:
                throw KFeedError(.usage, "display profile \(profile.name): BMP renders are 1-bit or palette only")
            case .jpeg: data = try encodeJPEG(canvas)
            }
        }
        return DisplayRender(data: data, profile: profile)
    }

    /// A baseline JPEG: greyscale (Rec. 709 luma) for grey kinds, 4:2:0 colour for `rgb`.
    private func encodeJPEG(_ canvas: RenderCanvas) throws(KFeedError) -> Data {
        let isGrey = profile.kind != .rgb
        let count = canvas.width * canvas.height
        let pixels: [UInt8] =
            isGrey
            ? Ditherer.lumaPlane(canvas.pixels, count: count).map { UInt8(min(max($0.rounded(), 0), 255)) }
            : canvas.pixels
        let result = pixels.withUnsafeBytes { bytes in
            Result { () throws(ImageFailure) -> Data in
                try TurboJPEGHandle(.compressor).compress(
                    bytes,
                    width: canvas.width,
                    height: canvas.height,
                    pitch: canvas.width * (isGrey ? 1 : 4),
                    pixelFormat: Int32(isGrey ? TJPF_GRAY.rawValue : TJPF_RGBX.rawValue),
                    subsampling: Int32(isGrey ? TJSAMP_GRAY.rawValue : TJSAMP_420.rawValue),
                    quality: profile.jpegQuality
                )
            }
        }
        switch result {
        case .success(let data): return data
        case .failure(let error):
            throw KFeedError(
                .io,
                "cannot encode the \(profile.name) render as JPEG: \(error.reason)",
                underlying: error
            )
        }
    }
}

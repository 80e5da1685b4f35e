import CKFeedTurboJPEG
package import Foundation

/// Turns a JPEG into a widget thumbnail: decode small, orient, centre-crop like `scaledToFill`, resample, encode.
///
/// Every input is checked before anything large is allocated: the `FF D8 FF` signature, the frame size against
/// ``Limits``, the scan count and the end-of-image marker. Decoding uses libjpeg-turbo's DCT-domain scaling to
/// the smallest fast factor (1/8, 1/4, 1/2, 1/1) that leaves at least ``decodeOversampling``× the target, through
/// its libjpeg API a few rows at a time (`JPEGRowReader`: only the crop's columns and rows, never the whole
/// decoded image), into a Lanczos-3 resampler that makes the exact size. Progressive JPEGs that end up at 1/8,
/// 1/4 or 1/2 are decoded by `ProgressiveFirstPassDecoder` instead, which reads only their first-pass scans, at
/// the smallest of those scales leaving ``firstPassCoverage``× the target (resampled up from there). Output is a baseline 4:4:4 JPEG at quality 85 with no
/// metadata: at widget sizes, halving the colour resolution (4:2:0) costs more fidelity than anything before the
/// encoder (bench/images.sh).
///
/// The type is a `Sendable` value; each call creates and destroys its own decoder and encoder, so calls can run
/// in parallel. Calls are synchronous and CPU-bound: run at most one per core, and gate memory with
/// ``thumbnail(of:size:budget:)`` when progressive files may arrive.
package struct JPEGThumbnailer: Sendable {
    /// Inputs refused before decoding.
    package struct Limits: Sendable, Hashable {
        /// The longest accepted side, in pixels.
        package var maxSide: Int
        /// The largest accepted width × height, in pixels.
        package var maxPixels: Int
        /// The most scans accepted (progressive JPEGs use about 10; scan bombs thousands).
        package var maxScans: Int
        /// The most working memory one decode may need, in bytes (the estimate of ``memoryCost(of:size:)``).
        package var maxDecodeMemory: Int

        /// Creates limits; the defaults are 16384 px a side, 50 MP, 100 scans and 104 MiB.
        package init(
            maxSide: Int = 16_384,
            maxPixels: Int = 50_000_000,
            maxScans: Int = 100,
            maxDecodeMemory: Int = 104 << 20
        ) {
            self.maxSide = maxSide
            self.maxPixels = maxPixels
            self.maxScans = maxScans
            self.maxDecodeMemory = maxDecodeMemory
        }
    }

    /// Inputs refused before decoding.
    package var limits: Limits
    /// For libjpeg decodes, the decoded crop is at least this many times the target size (when the source
    /// allows): 2 keeps Lanczos-3 sharp after libjpeg's scaled inverse DCTs; 1 is faster and slightly softer.
    /// Progressive JPEGs decoded by `ProgressiveFirstPassDecoder` always use 1.
    package var decodeOversampling: Double
    /// Whether libjpeg may decode at any scale M/8 (M = 1…8), not only at the SIMD ones (1/8, 1/4, 1/2, 1/1): the
    /// smallest that leaves ``decodeOversampling``× the target. Display renders that are dithered decode this way
    /// at 1×: 3/8 of a 2560×1600 photo (960×600) for 800×480, where the SIMD scales would decode all of it.
    /// Progressive files the first-pass decoder reads keep its scales.
    package var decodesAnyEighth: Bool
    /// The resampling kernel's lobes: Lanczos-3 (``Resampler/lobes``) for thumbnails; dithered renders take 2.
    package var resamplingLobes: Double
    /// Which code runs the resampler's inner loops (the same pixels either way): the fastest the CPU runs, unless a
    /// benchmark or a test asks for the portable one.
    package var resamplingKernel = ResamplingKernel.fastest
    /// The JPEG quality of thumbnails, 1…100.
    package static let quality = 85
    /// The least share of the target, per side, that a progressive JPEG's first-pass decode may leave before it is
    /// resampled (up, when below 1). The decode's cost grows with the square of its scale, so taking 1/4 where the
    /// target needs a little over it (a 2560-px photo to 720 px: 640 px) rather than 1/2 does a third of the work.
    /// From 1 to 0.7 on the benchmark corpus (`bench/images.sh`, 25 photos, 17 progressive): CPU −35 % at 720×340
    /// and −29 % at 340×340; SSIM (R, G, B) mean 0.9552 → 0.9513 and 0.9564 → 0.9528, minimum 0.8898 → 0.8898 and
    /// 0.9056 → 0.8845, where vipsthumbnail scores 0.9333 and 0.9272, minimum 0.8192 and 0.8400.
    package static let firstPassCoverage = 0.7
    /// The chroma subsampling of thumbnails: none. 4:4:4 makes a thumbnail about 30 % larger than 4:2:0 and
    /// raises its SSIM against a full-resolution reference by about 0.014 (bench/images.sh, 338×338).
    static let subsampling = JPEGEncoder.Subsampling.s444

    /// Creates a thumbnailer.
    package init(
        limits: Limits = .init(),
        decodeOversampling: Double = 2,
        decodesAnyEighth: Bool = false,
        resamplingLobes: Double = 3
    ) {
        self.limits = limits
        self.decodeOversampling = max(decodeOversampling, 1)
        self.decodesAnyEighth = decodesAnyEighth
        self.resamplingLobes = min(max(resamplingLobes, 1), Resampler.lobes)
    }

    /// Decodes, orients, centre-crops to the aspect of `size` (like `scaledToFill`), resamples and encodes.
    /// - Parameters:
    ///   - jpeg: the downloaded body.
    ///   - size: the exact output size, in displayed (oriented) pixels.
    /// - Returns: A baseline 4:4:4 JPEG of exactly `size`, quality 85, without metadata.
    /// - Throws: ``ImageFailure`` (typed): not a JPEG, too large, truncated, corrupt, too many scans, CMYK.
    package func thumbnail(of jpeg: Data, size: ImageSize) throws(ImageFailure) -> Data {
        try thumbnailAndPixels(of: jpeg, size: size).jpeg
    }

    /// Like ``thumbnail(of:size:)``, with the pixels the thumbnail encodes.
    package func thumbnailAndPixels(of jpeg: Data, size: ImageSize) throws(ImageFailure) -> Thumbnail {
        try withBytes(of: jpeg) { bytes throws(ImageFailure) in
            let plan = try plan(for: bytes, size: size)
            return try render(bytes, plan)
        }
    }

    /// Like ``thumbnail(of:size:)``, but first reserves the decode's working memory in `budget`, and decodes on a
    /// thread of its own: CPU-bound work must not hold one of the cooperative pool's threads (two on a 2-core
    /// machine), or every other task — transfers finishing, a test's server — waits behind it.
    package func thumbnail(
        of jpeg: Data,
        size: ImageSize,
        budget: ImageDecodeBudget
    ) async throws(ImageFailure)
        -> Data
    {
        try await thumbnail(of: jpeg, size: size, budget: budget) { $0.jpeg }
    }

    /// Like ``thumbnail(of:size:budget:)``, then `finish` on the same thread, with the pixels the thumbnail
    /// encodes (a refresh computes the picture's identity there, from them, beside the other downloads and decodes).
    /// With `lanes`, on one of their threads: at most `lanes.count` thumbnails are made at once, each as soon as a
    /// lane's thread is free.
    package func thumbnail<T: Sendable>(
        of jpeg: Data,
        size: ImageSize,
        budget: ImageDecodeBudget,
        lanes: DecodeLanes? = nil,
        then finish: @escaping @Sendable (Thumbnail) -> T
    ) async throws(ImageFailure) -> T {
        let cost = try memoryCost(of: jpeg, size: size)
        return try await budget.detached(reserving: cost, on: lanes) {
            Result { () throws(ImageFailure) -> T in finish(try thumbnailAndPixels(of: jpeg, size: size)) }
        }.get()
    }

    /// The size the picture shows at: its frame's, with the sides swapped when its EXIF orientation turns it.
    package func displaySize(of jpeg: Data) throws(ImageFailure) -> ImageSize {
        try withBytes(of: jpeg) { bytes throws(ImageFailure) in
            let structure = try JPEGStructure.parse(bytes, maxScans: limits.maxScans)
            let (width, height) = (structure.width, structure.height)
            return structure.orientation.swapsAxes
                ? ImageSize(width: height, height: width) : ImageSize(width: width, height: height)
        }
    }

    /// The working memory, in bytes, that thumbnailing `jpeg` at `size` will allocate (headers only).
    /// - Throws: The same header failures as ``thumbnail(of:size:)``.
    package func memoryCost(of jpeg: Data, size: ImageSize) throws(ImageFailure) -> Int {
        try withBytes(of: jpeg) { bytes throws(ImageFailure) in try plan(for: bytes, size: size).memoryCost }
    }

    /// A valid baseline JPEG of exactly `size`, generated by kfeed: a calm gradient with a ring.
    package static func placeholder(size: ImageSize) -> Data {
        let width = max(size.width, 1)
        let height = max(size.height, 1)
        do {
            return try JPEGEncoder.encode(
                Placeholder.pixels(width: width, height: height),
                width: width,
                height: height,
                format: .rgbx,
                subsampling: subsampling,
                quality: quality
            )
        } catch {
            // Encoding valid in-memory pixels fails only when TurboJPEG cannot allocate; nothing sane remains.
            fatalError("kfeed: cannot encode a \(width)x\(height) placeholder: \(error)")
        }
    }

    // MARK: - Planning

    /// Everything decided from the headers, before any large allocation.
    struct Plan {
        var structure: JPEGStructure
        var factor: TurboJPEGHandle.ScalingFactor
        /// Whether `ProgressiveFirstPassDecoder` decodes instead of libjpeg.
        var usesFirstPass: Bool
        var decodedWidth: Int
        var decodedHeight: Int
        var window: Resampler.Window
        /// Output size before orientation.
        var storedWidth: Int
        var storedHeight: Int
        var size: ImageSize
        var memoryCost: Int
    }

    func plan(for jpeg: UnsafeRawBufferPointer, size: ImageSize) throws(ImageFailure) -> Plan {
        guard size.width > 0, size.height > 0 else {
            throw ImageFailure.encodingFailed.with(detail: "target size \(size)")
        }
        let structure = try JPEGStructure.parse(jpeg, maxScans: limits.maxScans)
        try checkLimits(width: structure.width, height: structure.height)
        switch structure.process {
        case .lossless, .hierarchical: throw ImageFailure.unsupported.with(detail: "\(structure.process) JPEG")
        case .baseline, .extendedSequential, .progressive: break
        }
        guard structure.precision == 8 else {
            throw ImageFailure.unsupported.with(detail: "\(structure.precision)-bit samples")
        }
        guard structure.components.count != 4 else { throw .cmykNotSupported }
        guard structure.components.count == 1 || structure.components.count == 3 else {
            throw ImageFailure.unsupported.with(detail: "\(structure.components.count) components")
        }
        guard structure.hasEndOfImage else { throw ImageFailure.truncated.with(detail: "no end-of-image marker") }

        let (storedWidth, storedHeight, scale) = Self.storedTarget(structure, size)
        let cropWidth = min(Double(storedWidth) / scale, Double(structure.width))
        let cropHeight = min(Double(storedHeight) / scale, Double(structure.height))
        // Prefer the smallest factor leaving `decodeOversampling`× the target; for progressive files the first-pass
        // decoder reads, ``firstPassCoverage``× (its samples are exact block averages, not a reduced inverse DCT's
        // point samples, and need no headroom). If that needs more memory than allowed, fall back to smaller factors
        // that still cover the target once (progressive files: that share of it).
        let firstPass = ProgressiveFirstPassDecoder.supports(structure)
        let factors =
            decodesAnyEighth && !firstPass ? TurboJPEGHandle.eighthScalingFactors : TurboJPEGHandle.fastScalingFactors
        let oversampling = firstPass ? Self.firstPassCoverage : decodeOversampling
        let coverage = firstPass ? Self.firstPassCoverage : 1
        let preferred = Self.smallest(of: factors, leaving: oversampling * scale)
        let covering = Self.smallest(of: factors, leaving: coverage * scale)
        var candidate = preferred
        var cost = 0
        while true {
            cost = Self.memoryCost(structure, factor: factors[candidate], size: size)
            guard cost > limits.maxDecodeMemory else { break }
            guard candidate > min(covering, preferred) else {
                throw ImageFailure.tooLarge.with(detail: "needs \(cost >> 20) MiB to decode")
            }
            candidate -= 1
        }
        let factor = factors[candidate]
        let usesFirstPass = Self.usesFirstPass(structure, factor: factor)
        let decodedWidth = factor.scaled(structure.width)
        let decodedHeight = factor.scaled(structure.height)
        let window = Resampler.Window(
            x: (Double(structure.width) - cropWidth) / 2 * factor.value,
            y: (Double(structure.height) - cropHeight) / 2 * factor.value,
            width: cropWidth * factor.value,
            height: cropHeight * factor.value
        )
        return Plan(
            structure: structure,
            factor: factor,
            usesFirstPass: usesFirstPass,
            decodedWidth: decodedWidth,
            decodedHeight: decodedHeight,
            window: window,
            storedWidth: storedWidth,
            storedHeight: storedHeight,
            size: size,
            memoryCost: cost
        )
    }

    /// Whether a progressive JPEG is decoded at `factor` by `ProgressiveFirstPassDecoder`: at 1/8, 1/4 and
    /// 1/2, where its first-pass scans carry what the thumbnail shows. Full-size decodes stay with libjpeg.
    static func usesFirstPass(_ structure: JPEGStructure, factor: TurboJPEGHandle.ScalingFactor) -> Bool {
        factor.eighths <= 4 && ProgressiveFirstPassDecoder.supports(structure)
    }

    /// Bytes allocated while decoding at `factor`: the output, and the working memory: the first-pass decoder's
    /// planes and, generously, its decoded picture as RGBX (it now hands the resampler one row at a time), or
    /// libjpeg's coefficients of a progressive or multi-scan JPEG (or an MCU row of
    /// samples) plus 1 MiB for its tables and buffers (it decodes a few rows at a time).
    static func memoryCost(
        _ structure: JPEGStructure,
        factor: TurboJPEGHandle.ScalingFactor,
        size: ImageSize
    ) -> Int {
        let working =
            if usesFirstPass(structure, factor: factor) {
                ProgressiveFirstPassDecoder.workingMemory(structure, eighths: factor.eighths)
                    + factor.scaled(structure.width) * factor.scaled(structure.height) * 4
            } else if structure.buffersCoefficients {
                structure.coefficientBytes + (1 << 20)
            } else {
                structure.width * 16 * structure.components.count * 2 + (1 << 20)
            }
        return size.width * size.height * 8 + working
    }

    private func checkLimits(width: Int, height: Int) throws(ImageFailure) {
        guard width > 0, height > 0 else { throw ImageFailure.corrupt.with(detail: "frame size \(width)x\(height)") }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard width <= limits.maxSide, height <= limits.maxSide, !overflow, pixels <= limits.maxPixels else {
            throw ImageFailure.tooLarge.with(detail: "\(width)x\(height)")
        }
    }

    // MARK: - Rendering

    func render(_ jpeg: UnsafeRawBufferPointer, _ plan: Plan) throws(ImageFailure) -> Thumbnail {
        var pixels = [UInt8](repeating: 0, count: plan.size.width * plan.size.height * 4)
        let result = pixels.withUnsafeMutableBytes { output in
            Result { () throws(ImageFailure) -> Data in
                try decodeAndResample(jpeg, plan, into: output)
                let encoder = try TurboJPEGHandle(.compressor)
                return try encoder.compress(
                    UnsafeRawBufferPointer(output),
                    width: plan.size.width,
                    height: plan.size.height,
                    pitch: plan.size.width * 4,
                    pixelFormat: Int32(TJPF_RGBX.rawValue),
                    subsampling: Self.subsampling.turboJPEG,
                    quality: Self.quality
                )
            }
        }
        return Thumbnail(jpeg: try result.get(), pixels: pixels, size: plan.size)
    }

    /// Decodes, orients, centre-crops and resamples like ``thumbnail(of:size:)``, without encoding: the RGBX
    /// pixels of exactly `size` (displayed orientation), rows packed. Display renders start from these.
    package func pixels(of jpeg: Data, size: ImageSize) throws(ImageFailure) -> [UInt8] {
        try withBytes(of: jpeg) { bytes throws(ImageFailure) in
            let plan = try plan(for: bytes, size: size)
            // Not zeroed first: the resampler writes every pixel (a decode that fails throws the buffer away).
            var result: Result<Void, ImageFailure> = .success(())
            let count = size.width * size.height * 4
            let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                result = Result { () throws(ImageFailure) in
                    try decodeAndResample(bytes, plan, into: UnsafeMutableRawBufferPointer(buffer))
                }
                initialized = count
            }
            try result.get()
            return pixels
        }
    }

    /// Decodes `jpeg` as `plan` says and resamples it into `output`, an RGBX image of `plan.size`.
    ///
    /// libjpeg decodes only the crop's columns, a few rows at a time, straight into the resampler; the first-pass
    /// decoder decodes its whole (small) picture's samples first, and converts each row as the resampler reads it.
    private func decodeAndResample(
        _ jpeg: UnsafeRawBufferPointer,
        _ plan: Plan,
        into output: UnsafeMutableRawBufferPointer
    ) throws(ImageFailure) {
        func resample(_ source: Resampler.Source) {
            Resampler.resample(
                source: source,
                window: plan.window,
                outputWidth: plan.storedWidth,
                outputHeight: plan.storedHeight,
                orientation: plan.structure.orientation,
                lobes: resamplingLobes,
                kernel: resamplingKernel,
                into: output
            )
        }
        if plan.usesFirstPass {
            try ProgressiveFirstPassDecoder.withRows(
                jpeg,
                structure: plan.structure,
                eighths: plan.factor.eighths,
                resample
            )
        } else {
            // One more column on each side (the reader keeps to the image) keeps the window's edge columns away
            // from the crop's edges, where libjpeg's chroma upsampling lacks a neighbour.
            let columns = plan.window.columns(limit: plan.decodedWidth)
            let reader = try JPEGRowReader(
                jpeg,
                eighths: plan.factor.eighths,
                columns: columns.lowerBound - 1..<columns.upperBound + 1
            )
            guard reader.width == plan.decodedWidth, reader.height == plan.decodedHeight else {
                throw ImageFailure.corrupt.with(detail: "libjpeg and the header disagree on the size")
            }
            resample(reader.source)
            if let failure = reader.failure { throw failure }
        }
    }

    fileprivate func withBytes<R>(
        of data: Data,
        _ body: (UnsafeRawBufferPointer) throws(ImageFailure) -> R
    ) throws(ImageFailure) -> R {
        let result = data.withUnsafeBytes { bytes in Result { () throws(ImageFailure) -> R in try body(bytes) } }
        return try result.get()
    }
}

extension JPEGThumbnailer {
    /// The DCT scale (eighths: 1, 2, 4 or 8) this thumbnailer would decode `jpeg` at for `size`; for benchmarks.
    package func decodeScaleInEighths(of jpeg: Data, size: ImageSize) throws(ImageFailure) -> Int {
        try withBytes(of: jpeg) { bytes throws(ImageFailure) in try plan(for: bytes, size: size).factor.eighths }
    }

    /// The smallest fast DCT scale (eighths) at which `jpeg` still covers `size` once its crop is taken, whatever
    /// this thumbnailer would choose: the decode floor `bench/images.sh` measures with `djpeg -scale M/8`.
    package func coveringScaleInEighths(of jpeg: Data, size: ImageSize) throws(ImageFailure) -> Int {
        try withBytes(of: jpeg) { bytes throws(ImageFailure) in
            let structure = try JPEGStructure.parse(bytes, maxScans: limits.maxScans)
            let factors = TurboJPEGHandle.fastScalingFactors
            return factors[Self.smallest(of: factors, leaving: Self.storedTarget(structure, size).scale)].eighths
        }
    }

    /// `size` in `structure`'s stored orientation, and the scale that maps the centre crop of the full-resolution
    /// stored pixels filling it onto it.
    static func storedTarget(
        _ structure: JPEGStructure,
        _ size: ImageSize
    ) -> (width: Int, height: Int, scale: Double) {
        let width = structure.orientation.swapsAxes ? size.height : size.width
        let height = structure.orientation.swapsAxes ? size.width : size.height
        return (width, height, max(Double(width) / Double(structure.width), Double(height) / Double(structure.height)))
    }

    /// The index of the smallest of `factors` (smallest first) that is at least `scale`, or of the largest.
    static func smallest(of factors: [TurboJPEGHandle.ScalingFactor], leaving scale: Double) -> Int {
        factors.firstIndex { $0.value >= scale * (1 - 1e-9) } ?? factors.count - 1
    }
}

import CKFeedTurboJPEG
import Foundation

/// The one owner of a TurboJPEG 2.x handle: created in `init`, destroyed in `deinit`, used by one operation.
///
/// Every return code is checked and turned into ``ImageFailure`` with `tjGetErrorStr2`'s text attached.
/// TurboJPEG warnings (for example premature end of data) are failures too. After any failure the handle
/// refuses further calls, so a handle in an unknown state is never reused; it is destroyed with its owner.
package final class TurboJPEGHandle {
    enum Kind { case decompressor, compressor }

    /// What `tjDecompressHeader3` reports.
    struct Header: Equatable {
        var width: Int
        var height: Int
        /// A `TJSAMP_*` value.
        var subsampling: Int32
        /// A `TJCS_*` value.
        var colorspace: Int32
    }

    /// A DCT scaling factor `numerator/denominator`.
    struct ScalingFactor: Equatable, Sendable {
        var numerator: Int
        var denominator: Int

        var value: Double { Double(numerator) / Double(denominator) }

        /// The factor in eighths (1/4 is 2), rounded down.
        var eighths: Int { numerator * 8 / max(denominator, 1) }

        /// `TJSCALED(dimension, self)`: the decoded size of a side at this factor (rounded up).
        func scaled(_ dimension: Int) -> Int {
            Int(kfeed_tj_scaled(Int32(dimension), tjscalingfactor(num: Int32(numerator), denom: Int32(denominator))))
        }
    }

    /// The factors with SIMD IDCTs in libjpeg-turbo (1/8, 1/4, 1/2, 1/1) that this library reports, ascending.
    static let fastScalingFactors: [ScalingFactor] = {
        var count: Int32 = 0
        guard let list = tjGetScalingFactors(&count), count > 0 else {
            return [ScalingFactor(numerator: 1, denominator: 1)]
        }
        let fast = UnsafeBufferPointer(start: list, count: Int(count))
            .map { ScalingFactor(numerator: Int($0.num), denominator: Int($0.denom)) }
            .filter {
                [1, 2, 4, 8].contains($0.eighths)
                    && $0.numerator * 8 % $0.denominator == 0
            }
            .sorted { $0.value < $1.value }
        return fast.isEmpty ? [ScalingFactor(numerator: 1, denominator: 1)] : fast
    }()

    /// Every factor M/8 for M = 1…8 (libjpeg decodes each; only 1/8, 1/4, 1/2 and 1/1 have SIMD inverse DCTs),
    /// ascending.
    static let eighthScalingFactors: [ScalingFactor] = (1...8).map { ScalingFactor(numerator: $0, denominator: 8) }

    private let handle: UnsafeMutableRawPointer
    private var hasFailed = false

    /// Creates a decompressor or compressor.
    init(_ kind: Kind) throws(ImageFailure) {
        let created = kind == .decompressor ? tjInitDecompress() : tjInitCompress()
        guard let created else {
            throw ImageFailure(reason: "TurboJPEG unavailable", detail: String(cString: tjGetErrorStr2(nil)))
        }
        handle = created
    }

    deinit { tjDestroy(handle) }

    /// Reads the frame header. Out-values start at zero; non-positive sizes are errors.
    func header(of jpeg: UnsafeRawBufferPointer) throws(ImageFailure) -> Header {
        try checkUsable()
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        let status = tjDecompressHeader3(
            handle,
            jpeg.baseAddress?.assumingMemoryBound(to: UInt8.self),
            UInt(jpeg.count),
            &width,
            &height,
            &subsampling,
            &colorspace
        )
        try check(status)
        guard width > 0, height > 0 else {
            hasFailed = true
            throw ImageFailure.corrupt.with(detail: "header reports \(width)x\(height)")
        }
        return Header(width: Int(width), height: Int(height), subsampling: subsampling, colorspace: colorspace)
    }

    /// Decodes `jpeg` as RGBX at `width`×`height` (the `TJSCALED` size of one scaling factor) into `destination`.
    ///
    /// Passes `TJFLAG_LIMITSCANS` and `TJFLAG_STOPONWARNING`; a warning is a failure.
    func decompressRGBX(
        _ jpeg: UnsafeRawBufferPointer,
        width: Int,
        height: Int,
        into destination: UnsafeMutableRawBufferPointer
    ) throws(ImageFailure) {
        try checkUsable()
        precondition(destination.count >= width * height * 4, "destination too small for \(width)x\(height) RGBX")
        let status = tjDecompress2(
            handle,
            jpeg.baseAddress?.assumingMemoryBound(to: UInt8.self),
            UInt(jpeg.count),
            destination.baseAddress?.assumingMemoryBound(to: UInt8.self),
            Int32(width),
            Int32(width * 4),
            Int32(height),
            Int32(TJPF_RGBX.rawValue),
            TJFLAG_LIMITSCANS | TJFLAG_STOPONWARNING
        )
        try check(status)
    }

    /// Encodes packed pixels as a baseline JPEG (progressive if `flags` says so) without metadata.
    /// - Parameters:
    ///   - pixels: the packed image.
    ///   - width: its width in pixels.
    ///   - height: its height in pixels.
    ///   - pitch: bytes per row.
    ///   - pixelFormat: a `TJPF_*` value.
    ///   - subsampling: a `TJSAMP_*` value.
    ///   - quality: 1…100.
    ///   - flags: extra `TJFLAG_*` bits (tests pass `TJFLAG_PROGRESSIVE`).
    /// - Returns: The JPEG bytes.
    /// - Throws: ``ImageFailure/encodingFailed`` with TurboJPEG's text.
    func compress(
        _ pixels: UnsafeRawBufferPointer,
        width: Int,
        height: Int,
        pitch: Int,
        pixelFormat: Int32,
        subsampling: Int32,
        quality: Int,
        flags: Int32 = 0
    ) throws(ImageFailure) -> Data {
        try checkUsable()
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        defer { if let output { tjFree(output) } }
        let status = tjCompress2(
            handle,
            pixels.baseAddress?.assumingMemoryBound(to: UInt8.self),
            Int32(width),
            Int32(pitch),
            Int32(height),
            pixelFormat,
            &output,
            &size,
            subsampling,
            Int32(quality),
            flags
        )
        try check(status, failure: .encodingFailed)
        guard let output, size > 0 else {
            hasFailed = true
            throw ImageFailure.encodingFailed.with(detail: "TurboJPEG returned no data")
        }
        return Data(bytes: output, count: Int(size))
    }

    private func checkUsable() throws(ImageFailure) {
        guard !hasFailed else { throw ImageFailure.corrupt.with(detail: "TurboJPEG handle reused after a failure") }
    }

    /// Turns a non-zero status into a failure, classifying TurboJPEG's error text; poisons the handle.
    private func check(_ status: Int32, failure: ImageFailure? = nil) throws(ImageFailure) {
        guard status != 0 else { return }
        hasFailed = true
        let text = String(cString: tjGetErrorStr2(handle))
        let isWarning = tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue)
        let detail = isWarning ? "warning: \(text)" : text
        if let failure { throw failure.with(detail: detail) }
        throw Self.classify(text).with(detail: detail)
    }

    static func classify(_ text: String) -> ImageFailure {
        let lowered = text.lowercased()
        if lowered.contains("premature end") { return .truncated }
        if lowered.contains("scans") { return .tooManyScans }
        if lowered.contains("unsupported jpeg process") || lowered.contains("unsupported jpeg data precision") {
            return .unsupported
        }
        if lowered.contains("color conversion") { return .cmykNotSupported }
        return .corrupt
    }
}

import Foundation

/// What a bounded walk over a JPEG's markers tells before any decoding: frame, components, scans, orientation.
///
/// The walk reads segment headers up to the first scan, then skips entropy-coded data with `memchr` to count
/// scans and find the end-of-image marker. It allocates nothing proportional to the image.
package struct JPEGStructure: Sendable, Equatable {
    /// How the frame is coded.
    enum Process: Sendable, Equatable {
        case baseline, extendedSequential, progressive, lossless, hierarchical
    }

    /// One colour component's identifier and sampling factors.
    struct Component: Sendable, Equatable {
        var identifier: UInt8
        var horizontalSampling: Int
        var verticalSampling: Int
    }

    var process: Process
    /// Whether the entropy coding is arithmetic (SOF9…SOF15) rather than Huffman.
    var isArithmeticCoded: Bool
    var precision: Int
    package var width: Int
    package var height: Int
    var components: [Component]
    /// `identity` when there is no EXIF orientation.
    var orientation: EXIFOrientation
    /// Whether three components hold RGB rather than YCbCr, by libjpeg's rules: no JFIF marker, and an Adobe
    /// marker saying "no transform" or, without one, the component identifiers `R`, `G`, `B`.
    var isRGB = false
    /// Start-of-scan markers seen.
    var scanCount: Int
    /// Whether an end-of-image marker follows the last scan.
    package var hasEndOfImage: Bool

    /// Whether libjpeg buffers the whole image's DCT coefficients while decoding (progressive or multi-scan).
    var buffersCoefficients: Bool { process == .progressive || scanCount > 1 }

    /// The largest horizontal and vertical sampling factors: an MCU is 8× these in pixels.
    var maxHorizontalSampling: Int { components.map(\.horizontalSampling).max() ?? 1 }
    var maxVerticalSampling: Int { components.map(\.verticalSampling).max() ?? 1 }

    /// MCUs across and down: the frame rounded up to whole MCUs.
    var mcusWide: Int { ceilDivide(width, 8 * maxHorizontalSampling) }
    var mcusHigh: Int { ceilDivide(height, 8 * maxVerticalSampling) }

    /// Bytes of DCT coefficients libjpeg allocates when ``buffersCoefficients``: 128 bytes per 8×8 block of every
    /// component, over whole MCUs.
    var coefficientBytes: Int {
        let (mcusWide, mcusHigh) = (mcusWide, mcusHigh)
        return components.reduce(0) { total, component in
            total + mcusWide * component.horizontalSampling * mcusHigh * component.verticalSampling * 128
        }
    }

    /// Walks the markers of `jpeg`.
    /// - Throws: ``ImageFailure/notJPEG`` without `FF D8 FF`; ``ImageFailure/tooManyScans`` past `maxScans`;
    ///   ``ImageFailure/truncated`` when a segment or the header runs past the end; ``ImageFailure/corrupt``.
    package static func parse(_ jpeg: UnsafeRawBufferPointer, maxScans: Int) throws(ImageFailure) -> JPEGStructure {
        guard jpeg.count >= 3, jpeg[0] == 0xFF, jpeg[1] == 0xD8, jpeg[2] == 0xFF else { throw .notJPEG }
        var frame: JPEGStructure?
        var orientation: EXIFOrientation?
        var sawJFIF = false
        var adobeTransform: UInt8?
        var position = 2
        // Header segments, up to and including the first SOS.
        while true {
            let segment = try Self.segment(jpeg, at: position)
            position = segment.next
            let marker = segment.marker
            let payload = segment.payload
            switch marker {
            case 0x01, 0xD0...0xD7: continue  // standalone markers
            case 0xD8, 0xD9: throw ImageFailure.corrupt.with(detail: "marker \(marker) before the first scan")
            default: break
            }
            switch marker {
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                guard frame == nil else { throw ImageFailure.corrupt.with(detail: "second frame header") }
                frame = try parseFrame(marker: marker, payload)
            case 0xDE: throw ImageFailure.unsupported.with(detail: "hierarchical JPEG")
            case 0xE0 where payload.starts(with: Array("JFIF\0".utf8)):
                sawJFIF = true
            case 0xE1 where orientation == nil:
                orientation = EXIFOrientation.parse(app1: payload)
            case 0xEE where payload.count >= 12 && payload.starts(with: Array("Adobe".utf8)):
                adobeTransform = payload[11]
            case 0xDA:
                guard var found = frame else { throw ImageFailure.corrupt.with(detail: "scan before frame header") }
                found.orientation = orientation ?? .identity
                if found.components.count == 3, !sawJFIF {
                    found.isRGB =
                        adobeTransform.map { $0 == 0 } ?? (found.components.map(\.identifier) == [82, 71, 66])
                }
                try countScans(jpeg, from: position, maxScans: maxScans, into: &found)
                return found
            default: break
            }
        }
    }

    private static func parseFrame(
        marker: UInt8,
        _ payload: UnsafeRawBufferPointer
    ) throws(ImageFailure)
        -> JPEGStructure
    {
        guard payload.count >= 6 else { throw ImageFailure.corrupt.with(detail: "short frame header") }
        let count = Int(payload[5])
        guard count >= 1, payload.count >= 6 + 3 * count else {
            throw ImageFailure.corrupt.with(detail: "frame header with \(count) components")
        }
        var components: [Component] = []
        for index in 0..<count {
            let sampling = payload[6 + 3 * index + 1]
            let h = Int(sampling >> 4)
            let v = Int(sampling & 0x0F)
            guard (1...4).contains(h), (1...4).contains(v) else {
                throw ImageFailure.corrupt.with(detail: "sampling factors \(h)x\(v)")
            }
            components.append(Component(identifier: payload[6 + 3 * index], horizontalSampling: h, verticalSampling: v))
        }
        let process: Process
        switch marker {
        case 0xC0: process = .baseline
        case 0xC1, 0xC9: process = .extendedSequential
        case 0xC2, 0xCA: process = .progressive
        case 0xC3, 0xCB: process = .lossless
        default: process = .hierarchical
        }
        return JPEGStructure(
            process: process,
            isArithmeticCoded: marker >= 0xC9,
            precision: Int(payload[0]),
            width: Int(payload[3]) << 8 | Int(payload[4]),
            height: Int(payload[1]) << 8 | Int(payload[2]),
            components: components,
            orientation: .identity,
            scanCount: 0,
            hasEndOfImage: false
        )
    }

    /// Skips entropy-coded data from `start` (just after the first SOS header), counting scans up to EOI.
    private static func countScans(
        _ jpeg: UnsafeRawBufferPointer,
        from start: Int,
        maxScans: Int,
        into structure: inout JPEGStructure
    ) throws(ImageFailure) {
        guard let bytes = jpeg.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        structure.scanCount = 1
        var position = start
        while true {
            position = JPEGBitReader.nextMarker(bytes, jpeg.count, from: position, stoppingAtRestarts: false)
            guard position < jpeg.count - 1 else { return }
            let marker = jpeg[position + 1]
            if marker == 0x01 {  // TEM stands alone: reading a length there would skip the scans behind it
                position += 2
                continue
            }
            if marker == 0xD9 {
                structure.hasEndOfImage = true
                return
            }
            guard position + 4 <= jpeg.count else { return }
            let length = Int(jpeg[position + 2]) << 8 | Int(jpeg[position + 3])
            guard length >= 2 else { throw ImageFailure.corrupt.with(detail: "segment length \(length)") }
            if marker == 0xDA {
                structure.scanCount += 1
                guard structure.scanCount <= maxScans else {
                    throw ImageFailure.tooManyScans.with(detail: "more than \(maxScans) scans")
                }
            }
            position += 2 + length
        }
    }

    /// One marker and its segment.
    struct Segment {
        /// The marker byte after `FF`.
        var marker: UInt8
        /// The segment's payload after its length; empty for standalone markers (`SOI`, `EOI`, `RSTn`, `TEM`).
        var payload: UnsafeRawBufferPointer
        /// The offset just after the segment.
        var next: Int
    }

    /// The marker segment at `position`, which must hold `FF` (fill bytes before the marker are skipped): the one
    /// walk over a JPEG's markers, shared by ``parse(_:maxScans:)`` and the first-pass decoder.
    /// - Throws: ``ImageFailure/truncated`` when it runs past the end, ``ImageFailure/corrupt`` for a missing marker
    ///   or a length under 2.
    static func segment(_ jpeg: UnsafeRawBufferPointer, at start: Int) throws(ImageFailure) -> Segment {
        guard start < jpeg.count, jpeg[start] == 0xFF else {
            throw start >= jpeg.count ? .truncated : ImageFailure.corrupt.with(detail: "expected a marker")
        }
        var position = start
        while position < jpeg.count, jpeg[position] == 0xFF { position += 1 }  // fill bytes
        guard position < jpeg.count else { throw .truncated }
        let marker = jpeg[position]
        position += 1
        if marker == 0x01 || (0xD0...0xD9).contains(marker) {
            return Segment(
                marker: marker,
                payload: UnsafeRawBufferPointer(rebasing: jpeg[position..<position]),
                next: position
            )
        }
        guard position + 2 <= jpeg.count else { throw .truncated }
        let length = Int(jpeg[position]) << 8 | Int(jpeg[position + 1])
        guard length >= 2 else { throw ImageFailure.corrupt.with(detail: "segment length \(length)") }
        guard position + length <= jpeg.count else { throw .truncated }
        let payload = UnsafeRawBufferPointer(rebasing: jpeg[(position + 2)..<(position + length)])
        return Segment(marker: marker, payload: payload, next: position + length)
    }
}

/// `numerator / denominator`, rounded up (both positive).
func ceilDivide(_ numerator: Int, _ denominator: Int) -> Int { (numerator + denominator - 1) / denominator }

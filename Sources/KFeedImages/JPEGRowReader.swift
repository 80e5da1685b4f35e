import CKFeedJPEG
import Foundation

/// Decodes a JPEG as RGBX a few rows at a time with libjpeg-turbo, so a thumbnail never holds the whole decoded
/// image: only the columns a crop reads are decoded (`jpeg_crop_scanline`), rows above it are skipped without
/// colour conversion (`jpeg_skip_scanlines`), and rows below it are never decoded.
///
/// Rows are asked for in increasing order; each pointer stays valid until the next call. The first failure (a
/// libjpeg error or warning, as TurboJPEG's `TJFLAG_STOPONWARNING` would report it) is kept in ``failure`` and
/// later rows read as black: check it once the rows are used.
final class JPEGRowReader {
    /// The decoded size at the chosen scale (before cropping).
    let width: Int
    let height: Int
    /// The columns each row holds: the ones asked for, widened by libjpeg to whole iMCUs.
    let columns: Range<Int>
    /// The first failure, if any.
    private(set) var failure: ImageFailure?

    private let reader: UnsafeMutablePointer<kfeed_jpeg_reader>
    private let rowBytes: Int
    private let rowsPerRead: Int
    private let buffer: UnsafeMutablePointer<UInt8>
    private let rowPointers: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>
    /// The rows in `buffer`: `bufferedFirst ..< bufferedFirst + bufferedCount`.
    private var bufferedFirst = 0
    private var bufferedCount = 0

    /// Starts decoding `jpeg` (which must outlive the reader) at `eighths`/8 of its size, for `columns`.
    init(_ jpeg: UnsafeRawBufferPointer, eighths: Int, columns wanted: Range<Int>) throws(ImageFailure) {
        guard let reader = kfeed_jpeg_create() else {
            throw ImageFailure(reason: "libjpeg unavailable", detail: "cannot load libjpeg.so.62")
        }
        self.reader = reader
        var width: UInt32 = 0
        var height: UInt32 = 0
        let bytes = jpeg.baseAddress?.assumingMemoryBound(to: UInt8.self)
        var started = kfeed_jpeg_start(reader, bytes, UInt(jpeg.count), UInt32(eighths), &width, &height) == 0
        started = started && width > 0 && height > 0
        // The columns asked for, within the image (at least one).
        let lower = started ? min(max(wanted.lowerBound, 0), Int(width) - 1) : 0
        let upper = started ? max(min(wanted.upperBound, Int(width)), lower + 1) : 1
        var offset = UInt32(lower)
        var span = UInt32(upper - lower)
        if started, lower > 0 || upper < Int(width) {
            started = kfeed_jpeg_crop(reader, &offset, &span) == 0
        }
        guard started else {
            let failure = Self.failure(of: reader)
            kfeed_jpeg_destroy(reader)
            throw failure
        }
        self.width = Int(width)
        self.height = Int(height)
        columns = Int(offset)..<Int(offset) + Int(span)
        rowBytes = Int(span) * 4
        rowsPerRead = max(Int(kfeed_jpeg_rows_per_read(reader)), 1)
        buffer = .allocate(capacity: rowBytes * rowsPerRead)
        buffer.initialize(repeating: 0, count: rowBytes * rowsPerRead)
        rowPointers = .allocate(capacity: rowsPerRead)
        for index in 0..<rowsPerRead { rowPointers[index] = buffer + index * rowBytes }
    }

    deinit {
        kfeed_jpeg_destroy(reader)
        buffer.deallocate()
        rowPointers.deallocate()
    }

    /// The rows as the resampler reads them.
    var source: Resampler.Source {
        Resampler.Source(
            width: width,
            height: height,
            firstColumn: columns.lowerBound,
            columnCount: columns.count,
            row: row
        )
    }

    /// Row `index` (0 ..< `height`), starting at column `columns.lowerBound`.
    func row(_ index: Int) -> UnsafePointer<UInt8> {
        precondition(index >= bufferedFirst && index < height, "rows are read once, in order")
        if index >= bufferedFirst + bufferedCount, failure == nil { fill(from: index) }
        guard failure == nil else { return UnsafePointer(buffer) }
        return UnsafePointer(buffer + (index - bufferedFirst) * rowBytes)
    }

    private func fill(from index: Int) {
        let next = Int(kfeed_jpeg_next_row(reader))
        if index > next, kfeed_jpeg_skip(reader, UInt32(index - next)) != 0 { return fail() }
        var read: UInt32 = 0
        guard kfeed_jpeg_read(reader, rowPointers, UInt32(rowsPerRead), &read) == 0 else { return fail() }
        guard read > 0 else {
            failure = ImageFailure.truncated.with(detail: "no row \(index) of \(height)")
            return zero()
        }
        bufferedFirst = index
        bufferedCount = Int(read)
    }

    private func fail() {
        failure = Self.failure(of: reader)
        zero()
    }

    private func zero() { buffer.update(repeating: 0, count: rowBytes) }

    private static func failure(of reader: UnsafeMutablePointer<kfeed_jpeg_reader>) -> ImageFailure {
        let text = withUnsafeBytes(of: reader.pointee.message) {
            String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
        }
        return TurboJPEGHandle.classify(text).with(detail: text.isEmpty ? "libjpeg failed" : text)
    }
}

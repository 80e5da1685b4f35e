import Foundation
import KFeedBase
import KFeedTestSupport
import Testing

@testable import KFeed
@testable import KFeedImages

struct JPEGRowReaderTests {
    /// TurboJPEG's whole-image RGBX decode at `eighths`/8: the reference.
    func wholeDecode(_ jpeg: Data, eighths: Int) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        try jpeg.withUnsafeBytes { bytes in
            let handle = try TurboJPEGHandle(.decompressor)
            let header = try handle.header(of: bytes)
            let factor = try #require(TurboJPEGHandle.fastScalingFactors.first { $0.eighths == eighths })
            let (width, height) = (factor.scaled(header.width), factor.scaled(header.height))
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            try pixels.withUnsafeMutableBytes {
                try handle.decompressRGBX(bytes, width: width, height: height, into: $0)
            }
            return (width, height, pixels)
        }
    }

    /// Rows `rows` of `jpeg` at `eighths`/8, columns `columns`, read through a `JPEGRowReader`.
    func readRows(
        _ jpeg: Data,
        eighths: Int,
        columns: Range<Int>,
        rows: Range<Int>
    ) throws -> (reader: Range<Int>, rows: [[UInt8]], failure: ImageFailure?) {
        try jpeg.withUnsafeBytes { bytes in
            let reader = try JPEGRowReader(bytes, eighths: eighths, columns: columns)
            #expect(reader.columns.lowerBound <= columns.lowerBound && reader.columns.upperBound >= columns.upperBound)
            let read = rows.map { row in
                let start = reader.row(row) + (columns.lowerBound - reader.columns.lowerBound) * 4
                return Array(UnsafeBufferPointer(start: start, count: columns.count * 4))
            }
            return (reader.columns, read, reader.failure)
        }
    }

    /// 203×131 (not whole MCUs either way), 4:2:0, smooth with a little noise so chroma upsampling has something
    /// to interpolate.
    static func photo() throws -> Data {
        let (width, height) = (203, 131)
        let mixed = zip(
            TestJPEG.noise(width: width, height: height, seed: 7),
            TestJPEG.gradient(width: width, height: height)
        )
        .map { UInt8(Int($0) / 4 + Int($1) * 3 / 4) }
        return try TestJPEG.jpeg(mixed, width: width, height: height, subsampling: .s420)
    }

    @Test(arguments: [
        (8, 37..<150, 5..<120), (8, 0..<203, 0..<131), (4, 11..<80, 0..<66), (2, 3..<40, 9..<33), (1, 0..<9, 2..<17),
    ])
    func rowsAreTurboJPEGsRowsForTheColumnsAskedFor(eighths: Int, columns: Range<Int>, rows: Range<Int>) throws {
        let photo = try Self.photo()
        let whole = try wholeDecode(photo, eighths: eighths)
        let read = try readRows(photo, eighths: eighths, columns: columns, rows: rows)
        #expect(read.failure == nil)
        for (index, row) in zip(rows, read.rows) {
            let start = (index * whole.width + columns.lowerBound) * 4
            let expected = Array(whole.pixels[start..<start + columns.count * 4])
            // Columns at a crop edge libjpeg chose may upsample chroma without their outer neighbour.
            let differing = zip(row, expected).enumerated().filter { $1.0 != $1.1 }.map {
                $0.offset / 4 + columns.lowerBound
            }
            let cropEdges = [read.reader.lowerBound, read.reader.upperBound - 1].filter {
                $0 != 0 && $0 != whole.width - 1
            }
            #expect(differing.allSatisfy(cropEdges.contains), "row \(index): columns \(Set(differing).sorted())")
        }
    }

    @Test(arguments: [(-5, 3), (150, 10_000), (0, Int.max), (202, 203), (500, 600)])
    func columnsAskedForOutsideTheImageAreClampedToIt(lower: Int, upper: Int) throws {
        let photo = try Self.photo()
        try photo.withUnsafeBytes { bytes in
            let reader = try JPEGRowReader(bytes, eighths: 8, columns: lower..<upper)
            #expect(reader.columns.lowerBound >= 0 && reader.columns.upperBound <= 203 && !reader.columns.isEmpty)
            #expect(reader.columns.contains(min(max(lower, 0), 202)))
            _ = reader.row(130)
            #expect(reader.failure == nil)
        }
    }

    @Test func greyJPEGsReadAsGreyRGBX() throws {
        let grey = [UInt8]((0..<(40 * 24)).map { UInt8($0 % 251) })
        let jpeg = try TestJPEG.jpeg(grey, width: 40, height: 24, format: .gray, subsampling: .gray)
        let read = try readRows(jpeg, eighths: 8, columns: 0..<40, rows: 0..<24)
        #expect(read.failure == nil)
        for row in read.rows {
            for pixel in stride(from: 0, to: row.count, by: 4) {
                #expect(row[pixel] == row[pixel + 1] && row[pixel] == row[pixel + 2])
            }
        }
    }

    @Test func dataEndingEarlyIsATruncatedJPEG() throws {
        let photo = try Self.photo()
        let cut = photo.prefix(photo.count * 2 / 3)
        let read = try readRows(Data(cut), eighths: 8, columns: 0..<203, rows: 0..<131)
        #expect(read.failure?.reason == ImageFailure.truncated.reason)
        // Rows past the failure read as black rather than as stale pixels.
        #expect(read.rows.last?.allSatisfy { $0 == 0 } == true)
    }

    @Test func corruptEntropyDataFails() throws {
        let photo = try Self.photo()
        var bytes = [UInt8](photo)
        let scan = try #require(TestJPEG.firstScanOffset(in: photo))
        for index in stride(from: scan + 40, to: bytes.count - 2, by: 7) { bytes[index] = 0xFF }
        let read = try readRows(Data(bytes), eighths: 8, columns: 0..<203, rows: 0..<131)
        #expect(read.failure != nil)
    }

    @Test func bytesThatAreNotAJPEGFailAtTheStart() {
        let body = Data("<!DOCTYPE html><html></html>".utf8)
        #expect(throws: ImageFailure.self) {
            try body.withUnsafeBytes { _ = try JPEGRowReader($0, eighths: 8, columns: 0..<10) }
        }
    }
}

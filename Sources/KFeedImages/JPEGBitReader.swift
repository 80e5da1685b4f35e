import Foundation

/// Reads entropy-coded bits MSB first, unstuffing `FF 00`, and stops at the next marker, after which it supplies
/// zeros and remembers that it did (`isOverrun`), as libjpeg warns on "premature end of data segment".
struct JPEGBitReader {
    let bytes: UnsafePointer<UInt8>
    let end: Int
    var position: Int
    /// Unread bits, left-aligned.
    var buffer: UInt64 = 0
    var count = 0
    /// Zero bits appended past a marker; reading into them means the scan's data ended early.
    var padding = 0
    var atMarker = false

    init(_ jpeg: UnsafeRawBufferPointer, position: Int) {
        bytes = jpeg.baseAddress!.assumingMemoryBound(to: UInt8.self)
        end = jpeg.count
        self.position = position
    }

    var isOverrun: Bool { count < padding }

    @inline(__always) mutating func fill() {
        while count <= 56 {
            var byte: UInt64 = 0
            if atMarker {
                padding += 8
            } else if position < end, bytes[position] != 0xFF {
                byte = UInt64(bytes[position])
                position += 1
            } else {
                var next = position + 1
                while next < end, bytes[next] == 0xFF { next += 1 }
                if next < end, bytes[next] == 0 {
                    byte = 0xFF
                    position = next + 1
                } else {
                    atMarker = true
                    padding += 8
                }
            }
            buffer |= byte << (56 - count)
            count += 8
        }
    }

    @inline(__always) mutating func bits(_ n: Int) -> Int32 {
        if count < n { fill() }
        let value = Int32(truncatingIfNeeded: buffer &>> (64 - n))
        buffer &<<= n
        count -= n
        return value
    }

    /// `n` bits as a signed coefficient difference (the JPEG "extend" rule); 0 bits is 0.
    @inline(__always) mutating func signed(_ n: Int) -> Int32 {
        guard n > 0 else { return 0 }
        let value = bits(n)
        return value < 1 << (n - 1) ? value - (1 << n) + 1 : value
    }

    @inline(__always) mutating func decode(_ table: JPEGHuffmanTable) throws(ImageFailure) -> Int {
        if count < 16 { fill() }
        let entry = table.lookahead[Int(buffer &>> (64 - JPEGHuffmanTable.lookaheadBits))]
        if entry != 0 {
            let length = Int(entry >> 8)
            buffer &<<= length
            count -= length
            return Int(entry & 0xFF)
        }
        for length in (JPEGHuffmanTable.lookaheadBits + 1)...16 {
            let code = Int32(truncatingIfNeeded: buffer &>> (64 - length))
            if code <= table.codes[length] {
                buffer &<<= length
                count -= length
                return Int(table.values[Int(code + table.codes[17 + length])])
            }
        }
        throw isOverrun ? ImageFailure.truncated : ImageFailure.corrupt.with(detail: "bad Huffman code")
    }

    /// Skips to just after the next restart marker and starts a new bit stream.
    mutating func restart() throws(ImageFailure) {
        guard !isOverrun else { throw ImageFailure.truncated.with(detail: "scan data ends early") }
        let marker = Self.nextMarker(bytes, end, from: position, stoppingAtRestarts: true)
        guard marker + 1 < end, (0xD0...0xD7).contains(bytes[marker + 1]) else {
            throw ImageFailure.corrupt.with(detail: "missing restart marker")
        }
        position = marker + 2
        buffer = 0
        count = 0
        padding = 0
        atMarker = false
    }

    /// The offset of the next marker's `FF` at or after `start` (`end` if none), skipping stuffed bytes, fill
    /// bytes and, unless asked to stop there, restart markers.
    static func nextMarker(_ bytes: UnsafePointer<UInt8>, _ end: Int, from start: Int, stoppingAtRestarts: Bool) -> Int
    {
        var position = start
        while position < end - 1 {
            guard let found = memchr(bytes + position, 0xFF, end - 1 - position) else { return end }
            position = UnsafeRawPointer(found) - UnsafeRawPointer(bytes)
            let next = bytes[position + 1]
            switch next {
            case 0x00: position += 2
            case 0xFF: position += 1
            case 0xD0...0xD7 where !stoppingAtRestarts: position += 2
            default: return position
            }
        }
        return end
    }
}

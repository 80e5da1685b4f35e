/// One Huffman table: a 9-bit lookahead for short codes, canonical ranges for longer ones. A plain value over
/// raw allocations (no reference counting in the decoding loops); its owner calls ``deallocate()``.
struct JPEGHuffmanTable {
    static let lookaheadBits = 9
    /// `length << 8 | symbol` for each 9-bit prefix whose code is at most 9 bits; 0 otherwise.
    let lookahead: UnsafeMutablePointer<UInt16>
    /// At 1…16, the largest code of that length, or -1; at 17 + length, `values` index minus first code.
    let codes: UnsafeMutablePointer<Int32>
    let values: UnsafeMutablePointer<UInt8>

    init(counts: UnsafeRawBufferPointer, values symbols: UnsafeRawBufferPointer) throws(ImageFailure) {
        lookahead = .allocate(capacity: 1 << Self.lookaheadBits)
        lookahead.initialize(repeating: 0, count: 1 << Self.lookaheadBits)
        codes = .allocate(capacity: 34)
        codes.initialize(repeating: -1, count: 34)
        values = .allocate(capacity: 256)
        values.initialize(repeating: 0, count: 256)
        for (index, symbol) in symbols.enumerated() { values[index] = symbol }
        var code: Int32 = 0
        var index: Int32 = 0
        for length in 1...16 {
            let count = Int32(counts[length - 1])
            if count > 0 {
                codes[17 + length] = index - code
                for _ in 0..<count {
                    guard code < 1 << length else {
                        deallocate()
                        throw ImageFailure.corrupt.with(detail: "Huffman table overfull")
                    }
                    if length <= Self.lookaheadBits {
                        let shift = Self.lookaheadBits - length
                        let entry = UInt16(length << 8) | UInt16(values[Int(index)])
                        for prefix in Int(code) << shift..<Int(code + 1) << shift { lookahead[prefix] = entry }
                    }
                    code += 1
                    index += 1
                }
                codes[length] = code - 1
            }
            code <<= 1
        }
    }

    func deallocate() {
        lookahead.deallocate()
        codes.deallocate()
        values.deallocate()
    }
}

import Foundation

/// Decodes a progressive Huffman JPEG straight to 1/8, 1/4 or 1/2 scale, reading only what a thumbnail can show.
///
/// A progressive JPEG first sends every DCT coefficient at reduced precision (first-pass scans, `Ah = 0`), then
/// refines the AC coefficients bit by bit (refinement scans), which hold most of the bytes. This decoder reads
/// the first-pass scans and the DC refinements, and skips the AC refinement scans unread. At 1/8 it skips the
/// AC first passes too: only DC is needed. Each coefficient is added straight into its block's k×k output
/// samples, each the exact average of the (8/k)×(8/k) pixels it covers. No coefficient buffer is kept: memory is
/// one DC value per block plus the k×k samples, 8 bytes a block at 1/8 and 20 at 1/4 against libjpeg's 128.
///
/// At 1/8 the samples are the exact block averages, like libjpeg's 1/8 scale. At 1/4 and 1/2 the AC
/// coefficients lack their last one or two refinement bits. On the 17 progressive photos of the benchmark
/// corpus that cost about 0.003 SSIM after downscaling, for reading 25–50 % of the bytes. Chroma is
/// replicated, as libjpeg does at 1/8.
///
/// Only Huffman-coded progressive frames of 8-bit YCbCr or grayscale, whose sampling factors divide the
/// largest, are handled (``supports(_:)``); ``JPEGThumbnailer`` uses TurboJPEG for everything else.
/// Corrupt or truncated entropy data is a failure, never a grey half-image.
enum ProgressiveFirstPassDecoder {
    /// Whether this decoder can decode `structure`.
    static func supports(_ structure: JPEGStructure) -> Bool {
        let maxH = structure.components.map(\.horizontalSampling).max() ?? 1
        let maxV = structure.components.map(\.verticalSampling).max() ?? 1
        let lumaIsLargest =
            structure.components.first.map { $0.horizontalSampling == maxH && $0.verticalSampling == maxV } ?? false
        return structure.process == .progressive && !structure.isArithmeticCoded && structure.precision == 8
            && (structure.components.count == 1 || (structure.components.count == 3 && !structure.isRGB))
            && lumaIsLargest
            && structure.components.allSatisfy { maxH % $0.horizontalSampling == 0 && maxV % $0.verticalSampling == 0 }
    }

    /// The bytes of working memory ``decode(_:structure:eighths:into:)`` allocates besides its output.
    static func workingMemory(_ structure: JPEGStructure, eighths: Int) -> Int {
        Geometry(structure, eighths: eighths).components.reduce(0) { total, component in
            let samples = component.samplesPerBlock * component.samplesPerBlock
            return total + component.paddedBlocksWide * component.paddedBlocksHigh
                * (samples * MemoryLayout<Float>.size + MemoryLayout<Int32>.size)
        }
    }

    /// Decodes `jpeg` at `eighths`/8 (1, 2 or 4) into RGBX pixels, `ceil(width × eighths / 8)` by
    /// `ceil(height × eighths / 8)`, the sizes TurboJPEG's scaling gives.
    /// - Throws: ``ImageFailure/corrupt`` for invalid tables, scans or codes; ``ImageFailure/truncated`` when a
    ///   scan's data ends early.
    static func decode(
        _ jpeg: UnsafeRawBufferPointer,
        structure: JPEGStructure,
        eighths: Int,
        into output: UnsafeMutableRawBufferPointer
    ) throws(ImageFailure) {
        precondition([1, 2, 4].contains(eighths), "the first-pass decoder scales to 1/8, 1/4 or 1/2")
        var state = DecodeState(geometry: Geometry(structure, eighths: eighths))
        defer { state.deallocate() }
        try state.run(jpeg)
        state.convert(width: ceilDivide(structure.width * eighths, 8), eighths: eighths, into: output)
    }
}

// MARK: - Geometry

/// Block grids of a frame's components.
private struct Geometry {
    struct Component {
        var identifier: UInt8
        var h: Int
        var v: Int
        /// Blocks covering the component's samples, for single-component scans.
        var blocksWide: Int
        var blocksHigh: Int
        /// Blocks covering whole MCUs, for interleaved scans and storage.
        var paddedBlocksWide: Int
        var paddedBlocksHigh: Int
        /// Output samples per block side, k: the output scale's, doubled (up to 4) for components subsampled
        /// both ways, as libjpeg scales chroma up through the inverse DCT instead of upsampling it.
        var samplesPerBlock: Int
    }

    var width: Int
    var height: Int
    var maxH: Int
    var maxV: Int
    var mcusWide: Int
    var mcusHigh: Int
    var components: [Component]

    init(_ structure: JPEGStructure, eighths: Int) {
        width = structure.width
        height = structure.height
        maxH = structure.components.map(\.horizontalSampling).max() ?? 1
        maxV = structure.components.map(\.verticalSampling).max() ?? 1
        mcusWide = ceilDivide(width, 8 * maxH)
        mcusHigh = ceilDivide(height, 8 * maxV)
        components = structure.components.map { [width, height, maxH, maxV, mcusWide, mcusHigh] component in
            let h = component.horizontalSampling
            let v = component.verticalSampling
            var samplesPerBlock = eighths
            while samplesPerBlock < 4, (maxH / h) % (2 * samplesPerBlock / eighths) == 0,
                (maxV / v) % (2 * samplesPerBlock / eighths) == 0
            {
                samplesPerBlock *= 2
            }
            return Component(
                identifier: component.identifier,
                h: h,
                v: v,
                blocksWide: ceilDivide(ceilDivide(width * h, maxH), 8),
                blocksHigh: ceilDivide(ceilDivide(height * v, maxV), 8),
                paddedBlocksWide: mcusWide * h,
                paddedBlocksHigh: mcusHigh * v,
                samplesPerBlock: samplesPerBlock
            )
        }
    }
}

// MARK: - Huffman decoding

/// One Huffman table: a 9-bit lookahead for short codes, canonical ranges for longer ones. A plain value over
/// raw allocations (no reference counting in the decoding loops); its owner calls ``deallocate()``.
private struct HuffmanTable {
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
            guard code <= 1 << length else {
                deallocate()
                throw ImageFailure.corrupt.with(detail: "Huffman table overfull")
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

/// Reads entropy-coded bits MSB first, unstuffing `FF 00`, and stops at the next marker, after which it supplies
/// zeros and remembers that it did (`isOverrun`), as libjpeg warns on "premature end of data segment".
private struct BitReader {
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

    @inline(__always) mutating func decode(_ table: HuffmanTable) throws(ImageFailure) -> Int {
        if count < 16 { fill() }
        let entry = table.lookahead[Int(buffer &>> (64 - HuffmanTable.lookaheadBits))]
        if entry != 0 {
            let length = Int(entry >> 8)
            buffer &<<= length
            count -= length
            return Int(entry & 0xFF)
        }
        for length in (HuffmanTable.lookaheadBits + 1)...16 {
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
        let marker = nextMarker(bytes, end, from: position, stoppingAtRestarts: true)
        guard marker + 1 < end, (0xD0...0xD7).contains(bytes[marker + 1]) else {
            throw ImageFailure.corrupt.with(detail: "missing restart marker")
        }
        position = marker + 2
        buffer = 0
        count = 0
        padding = 0
        atMarker = false
    }
}

/// The offset of the next marker's `FF` at or after `start` (`end` if none), skipping stuffed bytes, fill
/// bytes and, unless asked to stop there, restart markers.
private func nextMarker(_ bytes: UnsafePointer<UInt8>, _ end: Int, from start: Int, stoppingAtRestarts: Bool) -> Int {
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

// MARK: - Decoding

/// Zig-zag position → natural (row-major) position in an 8×8 block.
private let naturalOrder: [Int] = [
    0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21,
    28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61,
    54, 47, 55, 62, 63,
]

private struct DecodeState {
    struct Scan {
        var components: [Int]
        var dcTables: [Int]
        var acTables: [Int]
        var spectralStart: Int
        var spectralEnd: Int
        var high: Int
        var low: Int
    }

    let geometry: Geometry
    /// Per component: the DC coefficient of each padded block.
    let dc: [UnsafeMutableBufferPointer<Int32>]
    /// Per component: the block's k×k samples (k is its `samplesPerBlock`), in a plane of padded blocks; AC
    /// contributions, then DC and the level shift added by ``resolve()``.
    let planes: [UnsafeMutableBufferPointer<Float>]
    /// Per component: `64 × k²` weights by zig-zag position (dequantised, block-averaged inverse DCT), set at the
    /// component's first scan, as libjpeg latches quantisation tables.
    var weights: [[Float]?]
    var hasDC: [Bool]
    var quantTableOfComponent: [Int]
    var quantTables: [[Int32]?] = Array(repeating: nil, count: 4)
    var dcTables: [HuffmanTable?] = Array(repeating: nil, count: 4)
    var acTables: [HuffmanTable?] = Array(repeating: nil, count: 4)
    var restartInterval = 0

    init(geometry: Geometry) {
        self.geometry = geometry
        dc = geometry.components.map { component in
            let buffer = UnsafeMutableBufferPointer<Int32>.allocate(
                capacity: component.paddedBlocksWide * component.paddedBlocksHigh
            )
            buffer.initialize(repeating: 0)
            return buffer
        }
        planes = geometry.components.map { component in
            let buffer = UnsafeMutableBufferPointer<Float>.allocate(
                capacity: component.paddedBlocksWide * component.paddedBlocksHigh * component.samplesPerBlock
                    * component.samplesPerBlock
            )
            buffer.initialize(repeating: 0)
            return buffer
        }
        weights = Array(repeating: nil, count: geometry.components.count)
        hasDC = Array(repeating: false, count: geometry.components.count)
        quantTableOfComponent = Array(repeating: 0, count: geometry.components.count)
    }

    func deallocate() {
        for buffer in dc { buffer.deallocate() }
        for buffer in planes { buffer.deallocate() }
        for table in dcTables + acTables { table?.deallocate() }
    }

    /// Walks the markers from after SOI to EOI, decoding or skipping each scan.
    mutating func run(_ jpeg: UnsafeRawBufferPointer) throws(ImageFailure) {
        let bytes = jpeg.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var position = 2
        while true {
            while position < jpeg.count, bytes[position] == 0xFF { position += 1 }
            guard position < jpeg.count else { throw ImageFailure.truncated.with(detail: "no end-of-image marker") }
            let marker = bytes[position]
            position += 1
            switch marker {
            case 0xD9:
                guard hasDC.allSatisfy({ $0 }) else {
                    throw ImageFailure.corrupt.with(detail: "a component has no DC scan")
                }
                resolve()
                return
            case 0x01, 0xD0...0xD7: continue
            default: break
            }
            guard position + 2 <= jpeg.count else { throw ImageFailure.truncated }
            let length = Int(bytes[position]) << 8 | Int(bytes[position + 1])
            guard length >= 2, position + length <= jpeg.count else { throw ImageFailure.truncated }
            let payload = UnsafeRawBufferPointer(rebasing: jpeg[(position + 2)..<(position + length)])
            position += length
            switch marker {
            case 0xC2: try readFrame(payload)
            case 0xC4: try readHuffmanTables(payload)
            case 0xDB: try readQuantTables(payload)
            case 0xDD:
                guard payload.count >= 2 else { throw ImageFailure.corrupt.with(detail: "short DRI") }
                restartInterval = Int(payload[0]) << 8 | Int(payload[1])
            case 0xDA:
                let scan = try readScan(payload)
                var reader = BitReader(jpeg, position: position)
                if try decode(scan, &reader) {
                    guard !reader.isOverrun else { throw ImageFailure.truncated.with(detail: "scan data ends early") }
                }
                position = nextMarker(bytes, jpeg.count, from: reader.position, stoppingAtRestarts: false)
                guard position < jpeg.count else { throw ImageFailure.truncated.with(detail: "no end-of-image marker") }
            default: break
            }
            guard position < jpeg.count, bytes[position] == 0xFF else {
                throw ImageFailure.corrupt.with(detail: "expected a marker")
            }
        }
    }

    private mutating func readFrame(_ payload: UnsafeRawBufferPointer) throws(ImageFailure) {
        guard payload.count >= 6 + 3 * geometry.components.count else {
            throw ImageFailure.corrupt.with(detail: "short frame header")
        }
        for index in geometry.components.indices {
            let table = Int(payload[6 + 3 * index + 2])
            guard table < 4 else { throw ImageFailure.corrupt.with(detail: "quantisation table \(table)") }
            quantTableOfComponent[index] = table
        }
    }

    private mutating func readHuffmanTables(_ payload: UnsafeRawBufferPointer) throws(ImageFailure) {
        var offset = 0
        while offset < payload.count {
            guard offset + 17 <= payload.count else { throw ImageFailure.corrupt.with(detail: "short DHT") }
            let kind = payload[offset] >> 4
            let slot = Int(payload[offset] & 0x0F)
            let counts = UnsafeRawBufferPointer(rebasing: payload[(offset + 1)..<(offset + 17)])
            let total = counts.reduce(0) { $0 + Int($1) }
            guard kind <= 1, slot < 4, total <= 256, offset + 17 + total <= payload.count else {
                throw ImageFailure.corrupt.with(detail: "bad DHT")
            }
            let symbols = UnsafeRawBufferPointer(rebasing: payload[(offset + 17)..<(offset + 17 + total)])
            let table = try HuffmanTable(counts: counts, values: symbols)
            if kind == 0 {
                dcTables[slot]?.deallocate()
                dcTables[slot] = table
            } else {
                acTables[slot]?.deallocate()
                acTables[slot] = table
            }
            offset += 17 + total
        }
    }

    private mutating func readQuantTables(_ payload: UnsafeRawBufferPointer) throws(ImageFailure) {
        var offset = 0
        while offset < payload.count {
            let wide = payload[offset] >> 4 != 0
            let slot = Int(payload[offset] & 0x0F)
            let size = wide ? 128 : 64
            guard slot < 4, offset + 1 + size <= payload.count else {
                throw ImageFailure.corrupt.with(detail: "bad DQT")
            }
            var natural = [Int32](repeating: 0, count: 64)
            for zigzag in 0..<64 {
                let at = offset + 1 + (wide ? 2 * zigzag : zigzag)
                natural[naturalOrder[zigzag]] =
                    wide ? Int32(payload[at]) << 8 | Int32(payload[at + 1]) : Int32(payload[at])
            }
            quantTables[slot] = natural
            offset += 1 + size
        }
    }

    private func readScan(_ payload: UnsafeRawBufferPointer) throws(ImageFailure) -> Scan {
        guard payload.count >= 1 else { throw ImageFailure.corrupt.with(detail: "short SOS") }
        let count = Int(payload[0])
        guard (1...4).contains(count), payload.count >= 4 + 2 * count else {
            throw ImageFailure.corrupt.with(detail: "SOS with \(count) components")
        }
        var scan = Scan(
            components: [],
            dcTables: [],
            acTables: [],
            spectralStart: Int(payload[1 + 2 * count]),
            spectralEnd: Int(payload[2 + 2 * count]),
            high: Int(payload[3 + 2 * count] >> 4),
            low: Int(payload[3 + 2 * count] & 0x0F)
        )
        for index in 0..<count {
            let identifier = payload[1 + 2 * index]
            guard let component = geometry.components.firstIndex(where: { $0.identifier == identifier }) else {
                throw ImageFailure.corrupt.with(detail: "scan names component \(identifier)")
            }
            scan.components.append(component)
            scan.dcTables.append(Int(payload[2 + 2 * index] >> 4))
            scan.acTables.append(Int(payload[2 + 2 * index] & 0x0F))
        }
        let isDC = scan.spectralStart == 0
        guard scan.spectralStart <= scan.spectralEnd, scan.spectralEnd <= 63, isDC == (scan.spectralEnd == 0),
            isDC || count == 1, scan.low <= 13, scan.high <= 13, scan.dcTables.allSatisfy({ $0 < 4 }),
            scan.acTables.allSatisfy({ $0 < 4 })
        else {
            throw ImageFailure.corrupt.with(detail: "bad progressive scan parameters")
        }
        return scan
    }

    /// Decodes `scan` if it carries what this scale needs; returns whether it read the scan's data.
    private mutating func decode(_ scan: Scan, _ reader: inout BitReader) throws(ImageFailure) -> Bool {
        for component in scan.components where weights[component] == nil {
            guard let table = quantTables[quantTableOfComponent[component]] else {
                throw ImageFailure.corrupt.with(detail: "undefined quantisation table")
            }
            weights[component] = Self.weights(quantTable: table, scale: geometry.components[component].samplesPerBlock)
        }
        switch (scan.spectralStart == 0, scan.high == 0) {
        case (true, true):
            try decodeDCFirst(scan, &reader)
            for component in scan.components { hasDC[component] = true }
        case (true, false):
            try decodeDCRefinement(scan, &reader)
        case (false, true) where geometry.components[scan.components[0]].samplesPerBlock > 1:
            try decodeACFirst(scan, &reader)
        default:
            return false  // AC refinement bits, or AC at 1/8: not needed.
        }
        return true
    }

    /// The contribution of coefficient 1, by zig-zag position, to each of the k×k block-average samples.
    static func weights(quantTable: [Int32], scale: Int) -> [Float] {
        let span = 8 / scale
        // average[u][i]: the mean of C(u)·cos((2x+1)uπ/16) over the i-th span of x.
        let average = (0..<8).map { u in
            (0..<scale).map { part in
                let sum = (part * span..<(part + 1) * span).reduce(0.0) { total, x in
                    total + cos(Double((2 * x + 1) * u) * .pi / 16)
                }
                let value = (u == 0 ? 1 / 2.0.squareRoot() : 1) * sum / Double(span)
                return abs(value) < 1e-9 ? 0 : value
            }
        }
        var weights = [Float](repeating: 0, count: 64 * scale * scale)
        for zigzag in 0..<64 {
            let row = naturalOrder[zigzag] / 8
            let column = naturalOrder[zigzag] % 8
            for y in 0..<scale {
                for x in 0..<scale {
                    let value = Double(quantTable[row * 8 + column]) * average[row][y] * average[column][x] / 4
                    weights[zigzag * scale * scale + y * scale + x] = Float(value)
                }
            }
        }
        return weights
    }

    /// One block of a scan, in coding order.
    struct Block {
        /// The component's index in the scan.
        var index: Int
        var x: Int
        var y: Int
        /// Whether a restart marker came just before this block: DC predictions and band runs start again.
        var restarted: Bool
    }

    /// Calls `body` for every block of the scan in coding order, restarting the bit stream at each restart
    /// interval.
    @inline(__always) private func forEachBlock(
        _ scan: Scan,
        _ reader: inout BitReader,
        _ body: (Block, inout BitReader) throws(ImageFailure) -> Void
    ) throws(ImageFailure) {
        let restartInterval = restartInterval
        var untilRestart = restartInterval
        // Units (MCUs, or blocks in a one-component scan) left before the next restart marker.
        @inline(__always) func restartIfDue(_ reader: inout BitReader) throws(ImageFailure) -> Bool {
            guard restartInterval > 0 else { return false }
            var restarted = false
            if untilRestart == 0 {
                try reader.restart()
                untilRestart = restartInterval
                restarted = true
            }
            untilRestart -= 1
            return restarted
        }
        if scan.components.count == 1 {
            let component = geometry.components[scan.components[0]]
            for y in 0..<component.blocksHigh {
                for x in 0..<component.blocksWide {
                    let restarted = try restartIfDue(&reader)
                    try body(Block(index: 0, x: x, y: y, restarted: restarted), &reader)
                }
            }
            return
        }
        let components = scan.components.map { geometry.components[$0] }
        for mcuY in 0..<geometry.mcusHigh {
            for mcuX in 0..<geometry.mcusWide {
                var restarted = try restartIfDue(&reader)
                for (index, component) in components.enumerated() {
                    for y in 0..<component.v {
                        for x in 0..<component.h {
                            let block = Block(
                                index: index,
                                x: mcuX * component.h + x,
                                y: mcuY * component.v + y,
                                restarted: restarted
                            )
                            try body(block, &reader)
                            restarted = false
                        }
                    }
                }
            }
        }
    }

    private func decodeDCFirst(_ scan: Scan, _ reader: inout BitReader) throws(ImageFailure) {
        var tables: [HuffmanTable] = []
        for slot in scan.dcTables {
            guard let table = dcTables[slot] else { throw ImageFailure.corrupt.with(detail: "undefined DHT") }
            tables.append(table)
        }
        let targets = scan.components.map { (dc[$0].baseAddress!, geometry.components[$0].paddedBlocksWide) }
        var predictions = [Int32](repeating: 0, count: scan.components.count)
        let low = Int32(scan.low)
        try forEachBlock(scan, &reader) { block, reader throws(ImageFailure) in
            if block.restarted { predictions = predictions.map { _ in 0 } }
            let size = try reader.decode(tables[block.index])
            predictions[block.index] &+= reader.signed(size)
            let (coefficients, stride) = targets[block.index]
            coefficients[block.y * stride + block.x] = predictions[block.index] &<< low
        }
    }

    private func decodeDCRefinement(_ scan: Scan, _ reader: inout BitReader) throws(ImageFailure) {
        let targets = scan.components.map { (dc[$0].baseAddress!, geometry.components[$0].paddedBlocksWide) }
        let bit = Int32(1) << scan.low
        try forEachBlock(scan, &reader) { block, reader throws(ImageFailure) in
            if reader.bits(1) != 0 {
                let (coefficients, stride) = targets[block.index]
                coefficients[block.y * stride + block.x] |= bit
            }
        }
    }

    private func decodeACFirst(_ scan: Scan, _ reader: inout BitReader) throws(ImageFailure) {
        guard let table = acTables[scan.acTables[0]] else { throw ImageFailure.corrupt.with(detail: "undefined DHT") }
        let component = scan.components[0]
        let k = geometry.components[component].samplesPerBlock
        let k2 = k * k
        let plane = planes[component].baseAddress!
        let stride = geometry.components[component].paddedBlocksWide * k
        let weights = self.weights[component]!
        // Zig-zag positions whose coefficient moves no sample at this scale (even frequencies cancel over a span).
        let contributes = (0..<64).map { zigzag in (0..<k2).contains { weights[zigzag * k2 + $0] != 0 } }
        let low = Int32(scan.low)
        let start = scan.spectralStart
        let end = scan.spectralEnd
        var endOfBandRun = 0
        try weights.withUnsafeBufferPointer { weights throws(ImageFailure) in
            let weights = weights.baseAddress!
            try contributes.withUnsafeBufferPointer { contributes throws(ImageFailure) in
                try forEachBlock(scan, &reader) { block, reader throws(ImageFailure) in
                    if block.restarted { endOfBandRun = 0 }
                    if endOfBandRun > 0 {
                        endOfBandRun -= 1
                        return
                    }
                    let samples = plane + block.y * k * stride + block.x * k
                    var position = start
                    while position <= end {
                        let symbol = try reader.decode(table)
                        let run = symbol >> 4
                        let size = symbol & 0x0F
                        if size != 0 {
                            position += run
                            guard position <= 63 else {
                                throw ImageFailure.corrupt.with(detail: "AC run past the block")
                            }
                            let value = Float(reader.signed(size) &<< low)
                            if contributes[position] {
                                let row = weights + position * k2
                                for y in 0..<k {
                                    for x in 0..<k { samples[y * stride + x] += value * row[y * k + x] }
                                }
                            }
                            position += 1
                        } else if run == 15 {
                            position += 16
                        } else {
                            endOfBandRun = (1 << run) - 1
                            if run > 0 { endOfBandRun += Int(reader.bits(run)) }
                            break
                        }
                    }
                }
            }
        }
    }

    // MARK: Output

    /// Adds each block's DC contribution and the level shift (128) to its k×k samples.
    private func resolve() {
        for (index, component) in geometry.components.enumerated() {
            let k = component.samplesPerBlock
            let weight = weights[index]?[0] ?? 0
            let coefficients = dc[index].baseAddress!
            let plane = planes[index].baseAddress!
            let stride = component.paddedBlocksWide * k
            for blockY in 0..<component.paddedBlocksHigh {
                for blockX in 0..<component.paddedBlocksWide {
                    let level = Float(coefficients[blockY * component.paddedBlocksWide + blockX]) * weight + 128
                    let samples = plane + blockY * k * stride + blockX * k
                    for y in 0..<k {
                        for x in 0..<k { samples[y * stride + x] += level }
                    }
                }
            }
        }
    }

    /// Where an output pixel takes a component's sample from, along one axis: between `first` and `second`,
    /// `weight` of the way; interpolated like libjpeg's "fancy" upsampling where the component has fewer
    /// samples than the output (chroma), the same sample where it has as many.
    struct Tap {
        var first: Int
        var second: Int
        var weight: Float

        /// Taps for `outputs` pixels over `samples` samples, `ratio` samples per pixel (at most 1).
        static func taps(outputs: Int, samples: Int, ratio: Double) -> [Tap] {
            (0..<outputs).map { output in
                let position = max((Double(output) + 0.5) * ratio - 0.5, 0)
                let first = min(Int(position), samples - 1)
                return Tap(first: first, second: min(first + 1, samples - 1), weight: Float(position - Double(first)))
            }
        }
    }

    /// Writes RGBX pixels, `width` wide, from samples at `eighths`/8: YCbCr (JFIF) converted, or grey
    /// replicated.
    func convert(width: Int, eighths: Int, into output: UnsafeMutableRawBufferPointer) {
        let height = output.count / (4 * width)
        let pixels = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
        @inline(__always) func byte(_ value: Float) -> UInt8 { UInt8(min(max(value + 0.5, 0), 255)) }
        let luma = planes[0].baseAddress!
        let lumaStride = geometry.components[0].paddedBlocksWide * geometry.components[0].samplesPerBlock
        guard geometry.components.count == 3 else {
            for y in 0..<height {
                let row = pixels + y * width * 4
                let source = luma + y * lumaStride
                for x in 0..<width {
                    let grey = byte(source[x])
                    row[4 * x] = grey
                    row[4 * x + 1] = grey
                    row[4 * x + 2] = grey
                    row[4 * x + 3] = 255
                }
            }
            return
        }
        // Luma has the most samples (checked by `supports`); chroma is interpolated to it.
        let chroma = [1, 2].map { index in
            let component = geometry.components[index]
            let k = component.samplesPerBlock
            let columns = Tap.taps(
                outputs: width,
                samples: component.paddedBlocksWide * k,
                ratio: Double(component.h * k) / Double(geometry.maxH * eighths)
            )
            let rows = Tap.taps(
                outputs: height,
                samples: component.paddedBlocksHigh * k,
                ratio: Double(component.v * k) / Double(geometry.maxV * eighths)
            )
            return (
                plane: planes[index].baseAddress!, stride: component.paddedBlocksWide * k, columns: columns, rows: rows
            )
        }
        let (blue, red) = (chroma[0], chroma[1])
        blue.columns.withUnsafeBufferPointer { blueColumns in
            red.columns.withUnsafeBufferPointer { redColumns in
                for y in 0..<height {
                    let row = pixels + y * width * 4
                    let source = luma + y * lumaStride
                    let (blueRow, redRow) = (blue.rows[y], red.rows[y])
                    let blueAbove = blue.plane + blueRow.first * blue.stride
                    let blueBelow = blue.plane + blueRow.second * blue.stride
                    let redAbove = red.plane + redRow.first * red.stride
                    let redBelow = red.plane + redRow.second * red.stride
                    for x in 0..<width {
                        @inline(__always) func sample(
                            _ above: UnsafeMutablePointer<Float>,
                            _ below: UnsafeMutablePointer<Float>,
                            _ tap: Tap,
                            _ rowWeight: Float
                        ) -> Float {
                            let top = above[tap.first] + (above[tap.second] - above[tap.first]) * tap.weight
                            let bottom = below[tap.first] + (below[tap.second] - below[tap.first]) * tap.weight
                            return top + (bottom - top) * rowWeight - 128
                        }
                        let l = source[x]
                        let b = sample(blueAbove, blueBelow, blueColumns[x], blueRow.weight)
                        let r = sample(redAbove, redBelow, redColumns[x], redRow.weight)
                        row[4 * x] = byte(l + 1.402 * r)
                        row[4 * x + 1] = byte(l - 0.344_136 * b - 0.714_136 * r)
                        row[4 * x + 2] = byte(l + 1.772 * b)
                        row[4 * x + 3] = 255
                    }
                }
            }
        }
    }
}

private func ceilDivide(_ numerator: Int, _ denominator: Int) -> Int { (numerator + denominator - 1) / denominator }

import Foundation

extension ProgressiveFirstPassDecoder {
    /// Zig-zag position → natural (row-major) position in an 8×8 block.
    // swift-format-ignore
    static let naturalOrder: [Int] = [
        0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5,
        12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
        35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
        58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
    ]

    struct State {
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
        var dcTables: [JPEGHuffmanTable?] = Array(repeating: nil, count: 4)
        var acTables: [JPEGHuffmanTable?] = Array(repeating: nil, count: 4)
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
                guard position < jpeg.count else { throw ImageFailure.truncated.with(detail: "no end-of-image marker") }
                let segment = try JPEGStructure.segment(jpeg, at: position)
                position = segment.next
                let marker = segment.marker
                let payload = segment.payload
                switch marker {
                case 0xD9:
                    guard hasDC.allSatisfy({ $0 }) else {
                        throw ImageFailure.corrupt.with(detail: "a component has no DC scan")
                    }
                    resolve()
                    return
                default: break
                }
                switch marker {
                case 0xC2: try readFrame(payload)
                case 0xC4: try readJPEGHuffmanTables(payload)
                case 0xDB: try readQuantTables(payload)
                case 0xDD:
                    guard payload.count >= 2 else { throw ImageFailure.corrupt.with(detail: "short DRI") }
                    restartInterval = Int(payload[0]) << 8 | Int(payload[1])
                case 0xDA:
                    let scan = try readScan(payload)
                    var reader = JPEGBitReader(jpeg, position: position)
                    if try decode(scan, &reader) {
                        guard !reader.isOverrun else {
                            throw ImageFailure.truncated.with(detail: "scan data ends early")
                        }
                    }
                    position = JPEGBitReader.nextMarker(
                        bytes,
                        jpeg.count,
                        from: reader.position,
                        stoppingAtRestarts: false
                    )
                    guard position < jpeg.count else {
                        throw ImageFailure.truncated.with(detail: "no end-of-image marker")
                    }
                default: break
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

        private mutating func readJPEGHuffmanTables(_ payload: UnsafeRawBufferPointer) throws(ImageFailure) {
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
                let table = try JPEGHuffmanTable(counts: counts, values: symbols)
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
                    natural[ProgressiveFirstPassDecoder.naturalOrder[zigzag]] =
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
        private mutating func decode(_ scan: Scan, _ reader: inout JPEGBitReader) throws(ImageFailure) -> Bool {
            for component in scan.components where weights[component] == nil {
                guard let table = quantTables[quantTableOfComponent[component]] else {
                    throw ImageFailure.corrupt.with(detail: "undefined quantisation table")
                }
                weights[component] = Self.weights(
                    quantTable: table,
                    scale: geometry.components[component].samplesPerBlock
                )
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
                let row = ProgressiveFirstPassDecoder.naturalOrder[zigzag] / 8
                let column = ProgressiveFirstPassDecoder.naturalOrder[zigzag] % 8
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
            _ reader: inout JPEGBitReader,
            _ body: (Block, inout JPEGBitReader) throws(ImageFailure) -> Void
        ) throws(ImageFailure) {
            let restartInterval = restartInterval
            var untilRestart = restartInterval
            // Units (MCUs, or blocks in a one-component scan) left before the next restart marker.
            @inline(__always) func restartIfDue(_ reader: inout JPEGBitReader) throws(ImageFailure) -> Bool {
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

        private func decodeDCFirst(_ scan: Scan, _ reader: inout JPEGBitReader) throws(ImageFailure) {
            var tables: [JPEGHuffmanTable] = []
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
                guard size <= 15 else { throw ImageFailure.corrupt.with(detail: "DC difference of \(size) bits") }
                predictions[block.index] &+= reader.signed(size)
                let (coefficients, stride) = targets[block.index]
                coefficients[block.y * stride + block.x] = predictions[block.index] &<< low
            }
        }

        private func decodeDCRefinement(_ scan: Scan, _ reader: inout JPEGBitReader) throws(ImageFailure) {
            let targets = scan.components.map { (dc[$0].baseAddress!, geometry.components[$0].paddedBlocksWide) }
            let bit = Int32(1) << scan.low
            try forEachBlock(scan, &reader) { block, reader throws(ImageFailure) in
                if reader.bits(1) != 0 {
                    let (coefficients, stride) = targets[block.index]
                    coefficients[block.y * stride + block.x] |= bit
                }
            }
        }

        private func decodeACFirst(_ scan: Scan, _ reader: inout JPEGBitReader) throws(ImageFailure) {
            guard let table = acTables[scan.acTables[0]] else {
                throw ImageFailure.corrupt.with(detail: "undefined DHT")
            }
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
                    return Tap(
                        first: first,
                        second: min(first + 1, samples - 1),
                        weight: Float(position - Double(first))
                    )
                }
            }
        }

        /// Writes the RGBX pixels of `rows` × `columns` of an image `width` wide, from samples at `eighths`/8: YCbCr
        /// (JFIF) converted, or grey replicated.
        func convert(
            width: Int,
            eighths: Int,
            rows wanted: Range<Int>,
            columns: Range<Int>,
            into output: UnsafeMutableRawBufferPointer
        ) {
            let height = output.count / (4 * width)
            let pixels = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
            @inline(__always) func byte(_ value: Float) -> UInt8 {
                UInt8(truncatingIfNeeded: Int32(min(max(value + 0.5, 0), 255)))
            }
            let luma = planes[0].baseAddress!
            let lumaStride = geometry.components[0].paddedBlocksWide * geometry.components[0].samplesPerBlock
            guard geometry.components.count == 3 else {
                for y in wanted {
                    let row = pixels + y * width * 4
                    let source = luma + y * lumaStride
                    for x in columns {
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
                    plane: planes[index].baseAddress!, stride: component.paddedBlocksWide * k, columns: columns,
                    rows: rows
                )
            }
            let (blue, red) = (chroma[0], chroma[1])
            // Per output row: first the vertical interpolation of each chroma plane's two rows (contiguous), then
            // the horizontal taps per pixel.
            let blueLine = UnsafeMutablePointer<Float>.allocate(capacity: blue.stride)
            let redLine = UnsafeMutablePointer<Float>.allocate(capacity: red.stride)
            defer {
                blueLine.deallocate()
                redLine.deallocate()
            }
            @inline(__always) func interpolateRows(
                _ plane: UnsafeMutablePointer<Float>,
                stride: Int,
                _ tap: Tap,
                into line: UnsafeMutablePointer<Float>
            ) {
                let above = plane + tap.first * stride
                let below = plane + tap.second * stride
                for x in 0..<stride { line[x] = above[x] + (below[x] - above[x]) * tap.weight - 128 }
            }
            blue.columns.withUnsafeBufferPointer { blueColumns in
                red.columns.withUnsafeBufferPointer { redColumns in
                    for y in wanted {
                        interpolateRows(blue.plane, stride: blue.stride, blue.rows[y], into: blueLine)
                        interpolateRows(red.plane, stride: red.stride, red.rows[y], into: redLine)
                        let row = pixels + y * width * 4
                        let source = luma + y * lumaStride
                        for x in columns {
                            let (blueTap, redTap) = (blueColumns[x], redColumns[x])
                            let l = source[x]
                            let b =
                                blueLine[blueTap.first] + (blueLine[blueTap.second] - blueLine[blueTap.first])
                                * blueTap.weight
                            let r =
                                redLine[redTap.first] + (redLine[redTap.second] - redLine[redTap.first]) * redTap.weight
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
}

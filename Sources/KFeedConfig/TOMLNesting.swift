/// How deep a TOML document nests, measured before toml++ (under TOMLKit) reads it.
///
/// toml++ 3.4.0 builds one table per part of a dotted key or a table header, and one node per level of arrays and
/// inline tables; copying the parsed document (TOMLKit's `tableCreateFromString` in `Table.cpp` copies it) and
/// freeing it recurse once per level, on the reading thread's stack. Measured with toml++ built as `swift build`
/// builds it (C++ at -O0), on a 512 KiB thread stack: a key or header of 1,120 parts, arrays nested 242 deep or
/// inline tables nested 138 deep overflow it (about 470 bytes a key part, 2.2 KiB an array and 3.8 KiB an inline
/// table); on an 8 MiB stack, a key of 18,069 parts. toml++'s own limit on nested values (256) is past the 512 KiB
/// figures. The limits here stay far below all of them: together at their worst (32 inline tables, the rest key
/// parts) they take under 200 KiB of stack at -O0. kfeed's own keys have at most 3 parts (`serve.trmnl.DEVICE`)
/// and its values at most one level (a list of strings).
///
/// Not a TOML reader: it follows strings (basic, literal and multi-line, escapes included) and comments so that
/// what they hold is not counted, and counts everything else as dotted runs and brackets. A dotted run is a key, or
/// a number or date (`1.5`, `07:32:00.999`), which have at most 3 parts; TOMLKit reads and reports the rest.
package enum TOMLNesting {
    /// The most parts of one key or table header (`a.b.c` has 3).
    package static let maxKeyParts = 64
    /// The most arrays and inline tables open at once.
    package static let maxValueNesting = 32
    /// The most tables and values one inside another: a header's parts, then every dotted key's parts and every
    /// array or inline table down to a value.
    package static let maxDepth = 128

    /// What is too deep.
    package enum Excess: Sendable, Equatable {
        /// A key or table header of this many parts (over ``maxKeyParts``).
        case keyParts(Int)
        /// Arrays and inline tables nested past ``maxValueNesting``.
        case valueNesting
        /// Tables and values nested past ``maxDepth``, counting headers, keys and values together.
        case depth
    }

    /// The first place, in the document's order, that nests too deep: its 1-based line and what is too deep there.
    package static func firstExcess(in text: String) -> (line: Int, excess: Excess)? {
        var scanner = Scanner()
        return text.utf8.withContiguousStorageIfAvailable { scanner.scan($0) } ?? scanner.scan(Array(text.utf8))
    }

    /// One pass over the bytes; see ``TOMLNesting``.
    private struct Scanner {
        var line = 1
        /// Whether only spaces and tabs precede this point on its line.
        var atLineStart = true
        /// Parts of the current table header (`[a.b]` is 2, `[[a.b]]` 3: the array and its table).
        var tableDepth = 0
        /// What each open array or inline table adds to the depth, and their sum.
        var open: [Int] = []
        var openDepth = 0
        /// Inside a table header: 1 for `[`, 2 for `[[`; 0 outside.
        var header = 0
        /// The dotted run being read: its parts, the line it began on, and whether a dot asks for another part.
        var runParts = 0
        var runLine = 1
        var runWantsPart = false
        /// Parts of the key before the last `=`, not yet given to a value.
        var keyParts = 0
        var found: (line: Int, excess: Excess)?

        mutating func scan<Bytes: RandomAccessCollection>(_ bytes: Bytes) -> (line: Int, excess: Excess)?
        where Bytes.Element == UInt8, Bytes.Index == Int {
            var index = bytes.startIndex
            while index < bytes.endIndex, found == nil {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                    index += 1
                case UInt8(ascii: "\n"):
                    endRun()
                    line += 1
                    atLineStart = true
                    index += 1
                case UInt8(ascii: "#"):
                    while index < bytes.endIndex, bytes[index] != UInt8(ascii: "\n") { index += 1 }
                case UInt8(ascii: "\""), UInt8(ascii: "'"):
                    atLineStart = false
                    index = skipString(bytes, from: index)
                    part()
                case UInt8(ascii: "."):
                    atLineStart = false
                    if runParts == 0 { runLine = line }
                    runWantsPart = true
                    index += 1
                case _ where Self.isBare(byte):
                    atLineStart = false
                    while index < bytes.endIndex, Self.isBare(bytes[index]) { index += 1 }
                    part()
                default:
                    endRun()
                    punctuation(byte, next: index + 1 < bytes.endIndex ? bytes[index + 1] : 0, index: &index)
                }
            }
            if found == nil { endRun() }
            return found
        }

        /// A bare word or a quoted string: another part of the current run, or the first of a new one.
        mutating func part() {
            if runParts > 0, !runWantsPart { endRun() }
            if runParts == 0 { runLine = line }
            runParts += 1
            runWantsPart = false
        }

        /// Ends the current run; a key's parts wait for the `=`, a header's for its `]`.
        mutating func endRun() {
            guard runParts > 0 || runWantsPart else { return }
            if runParts > maxKeyParts { report(.keyParts(runParts), at: runLine) }
            keyParts = runParts
            runParts = 0
            runWantsPart = false
        }

        mutating func punctuation(_ byte: UInt8, next: UInt8, index: inout Int) {
            let lineStart = atLineStart
            atLineStart = false
            index += 1
            switch byte {
            case UInt8(ascii: "="):
                check(tableDepth + openDepth + keyParts)
            case UInt8(ascii: "[") where lineStart && open.isEmpty && header == 0:
                header = 1
                if next == UInt8(ascii: "[") {
                    header = 2
                    index += 1
                }
                keyParts = 0
            case UInt8(ascii: "]") where header > 0:
                tableDepth = keyParts + header - 1
                check(tableDepth)
                if header == 2, next == UInt8(ascii: "]") { index += 1 }
                header = 0
                keyParts = 0
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                // A value's array or inline table, after its key (none inside an array).
                let adds = keyParts + 1
                keyParts = 0
                open.append(adds)
                openDepth += adds
                if open.count > maxValueNesting { report(.valueNesting, at: line) }
                check(tableDepth + openDepth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                openDepth -= open.popLast() ?? 0
                keyParts = 0
            default:
                keyParts = 0
            }
        }

        mutating func check(_ depth: Int) {
            if depth > maxDepth { report(.depth, at: line) }
        }

        mutating func report(_ excess: Excess, at line: Int) {
            if found == nil { found = (line, excess) }
        }

        /// The index after the string that starts at `start` (`"`, `'`, `"""` or `'''`), counting its lines.
        mutating func skipString<Bytes: RandomAccessCollection>(_ bytes: Bytes, from start: Int) -> Int
        where Bytes.Element == UInt8, Bytes.Index == Int {
            let quote = bytes[start]
            let escapes = quote == UInt8(ascii: "\"")
            let isTriple = start + 2 < bytes.endIndex && bytes[start + 1] == quote && bytes[start + 2] == quote
            var index = start + (isTriple ? 3 : 1)
            while index < bytes.endIndex {
                let byte = bytes[index]
                if escapes, byte == UInt8(ascii: "\\") {
                    if index + 1 < bytes.endIndex, bytes[index + 1] == UInt8(ascii: "\n") { line += 1 }
                    index += 2
                    continue
                }
                if byte == UInt8(ascii: "\n") {
                    guard isTriple else { return index }  // an unterminated one-line string: TOMLKit reports it
                    line += 1
                }
                index += 1
                if byte == quote {
                    guard isTriple else { return index }
                    if index + 1 < bytes.endIndex, bytes[index] == quote, bytes[index + 1] == quote {
                        var end = index + 2
                        while end < bytes.endIndex, bytes[end] == quote, end < index + 4 { end += 1 }  // `""""` ends
                        return end
                    }
                }
            }
            return index
        }

        /// Bytes of bare keys, numbers and dates (and anything not ASCII, which toml++ may take for a key).
        static func isBare(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "+"),
                UInt8(ascii: ":"), 0x80...0xFF:
                true
            default: false
            }
        }
    }
}

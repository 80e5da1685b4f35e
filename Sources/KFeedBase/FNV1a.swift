/// FNV-1a, 64-bit: a fast, stable hash of bytes (the same in every process and on every machine, which Swift's
/// `Hasher` is not). For names and tags that must not change between runs, never for security.
package struct FNV1a: Sendable {
    /// The hash of the bytes added so far.
    package private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    package init() {}

    /// Adds one byte.
    @inlinable package mutating func add(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x100_0000_01b3
    }

    /// Adds every byte of `bytes`.
    @inlinable package mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { add(byte) }
    }

    /// The value as sixteen hex digits.
    package var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

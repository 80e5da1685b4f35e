import Foundation

/// A 64-bit difference hash (dHash) of a picture: the picture in grey, shrunk to 9×8 by area averaging, one bit per
/// pair of horizontal neighbours (set when the left one is darker). Recompression, rescaling and small tone changes
/// move few bits; different photos differ in about half of them. ``distance(to:)`` counts the bits that differ.
///
/// kfeed hashes the widget thumbnails it already made (decoded at 1/4 scale, so a 340×340 thumbnail costs an
/// 85×85 decode), so two posts of the same photo, cropped to the same widget, hash alike whatever their media keys.
package struct PerceptualHash: Sendable, Hashable, CustomStringConvertible {
    /// The 64 bits, row by row from the top left.
    package var value: UInt64

    package init(value: UInt64) {
        self.value = value
    }

    /// The hash as 16 hexadecimal digits (how `history.json` stores it).
    package var description: String {
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Parses 16 hexadecimal digits.
    package init?(_ text: String) {
        guard text.count == 16, let value = UInt64(text, radix: 16) else { return nil }
        self.value = value
    }

    /// How many of the 64 bits differ.
    package func distance(to other: PerceptualHash) -> Int {
        (value ^ other.value).nonzeroBitCount
    }

    /// The hash of decoded pixels (at least 9×8): rows `bytesPerRow` apart, `channels` bytes a pixel (1: grey, 3:
    /// RGB, 4: RGBX).
    package static func of(
        pixels: UnsafeRawBufferPointer,
        width: Int,
        height: Int,
        bytesPerRow: Int,
        channels: Int
    ) -> PerceptualHash {
        var grey = [Int](repeating: 0, count: 9 * 8)
        for cellY in 0..<8 {
            let top = cellY * height / 8
            let bottom = max(top + 1, (cellY + 1) * height / 8)
            for cellX in 0..<9 {
                let left = cellX * width / 9
                let right = max(left + 1, (cellX + 1) * width / 9)
                var sum = 0
                for y in top..<bottom {
                    var index = y * bytesPerRow + left * channels
                    for _ in left..<right {
                        sum +=
                            channels == 1
                            ? 1_000 * Int(pixels[index])
                            : 299 * Int(pixels[index]) + 587 * Int(pixels[index + 1]) + 114 * Int(pixels[index + 2])
                        index += channels
                    }
                }
                grey[cellY * 9 + cellX] = sum / ((bottom - top) * (right - left))
            }
        }
        var value: UInt64 = 0
        for row in 0..<8 {
            for column in 0..<8 where grey[row * 9 + column] < grey[row * 9 + column + 1] {
                value |= 1 << UInt64(63 - (row * 8 + column))
            }
        }
        return PerceptualHash(value: value)
    }
}

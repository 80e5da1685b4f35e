/// The EXIF `Orientation` tag (0x0112): how the stored pixels must be transformed to appear upright.
package enum EXIFOrientation: Int, Sendable, CaseIterable {
    /// 1: stored upright.
    case identity = 1
    /// 2: mirrored left to right.
    case flipHorizontal = 2
    /// 3: rotated 180°.
    case rotate180 = 3
    /// 4: mirrored top to bottom.
    case flipVertical = 4
    /// 5: mirrored along the main diagonal.
    case transpose = 5
    /// 6: must be rotated 90° clockwise to display.
    case rotate90 = 6
    /// 7: mirrored along the anti-diagonal.
    case transverse = 7
    /// 8: must be rotated 90° counter-clockwise (270° clockwise) to display.
    case rotate270 = 8

    /// Whether the displayed image has width and height swapped relative to the stored one.
    var swapsAxes: Bool { rawValue >= 5 }

    /// Where stored pixel (0, 0) lands in the displayed image, and how the displayed position moves when the
    /// stored x or y grows by one; `storedWidth`×`storedHeight` is the size before orientation.
    func displayMapping(storedWidth: Int, storedHeight: Int) -> DisplayMapping {
        let (right, bottom) = (storedWidth - 1, storedHeight - 1)
        switch self {
        case .identity: return DisplayMapping(originX: 0, originY: 0, xStep: (1, 0), yStep: (0, 1))
        case .flipHorizontal: return DisplayMapping(originX: right, originY: 0, xStep: (-1, 0), yStep: (0, 1))
        case .rotate180: return DisplayMapping(originX: right, originY: bottom, xStep: (-1, 0), yStep: (0, -1))
        case .flipVertical: return DisplayMapping(originX: 0, originY: bottom, xStep: (1, 0), yStep: (0, -1))
        case .transpose: return DisplayMapping(originX: 0, originY: 0, xStep: (0, 1), yStep: (1, 0))
        case .rotate90: return DisplayMapping(originX: bottom, originY: 0, xStep: (0, 1), yStep: (-1, 0))
        case .transverse: return DisplayMapping(originX: bottom, originY: right, xStep: (0, -1), yStep: (-1, 0))
        case .rotate270: return DisplayMapping(originX: 0, originY: right, xStep: (0, -1), yStep: (1, 0))
        }
    }

    /// Stored-to-displayed coordinate mapping: displayed = origin + x·xStep + y·yStep.
    struct DisplayMapping: Equatable {
        var originX: Int
        var originY: Int
        var xStep: (dx: Int, dy: Int)
        var yStep: (dx: Int, dy: Int)

        static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.originX == rhs.originX && lhs.originY == rhs.originY && lhs.xStep == rhs.xStep
                && lhs.yStep == rhs.yStep
        }

        /// The displayed position of stored pixel (`x`, `y`).
        func display(x: Int, y: Int) -> (x: Int, y: Int) {
            (originX + x * xStep.dx + y * yStep.dx, originY + x * xStep.dy + y * yStep.dy)
        }
    }

    /// Reads the orientation from an APP1 payload (the bytes after the segment length, starting `Exif\0\0`).
    ///
    /// Parsing is bounded by `payload.count`: garbage, loops and out-of-range offsets give `nil`, never a crash.
    /// - Returns: The orientation, or `nil` when the payload is not EXIF or has no valid orientation tag.
    package static func parse(app1 payload: UnsafeRawBufferPointer) -> EXIFOrientation? {
        let exifHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]  // "Exif\0\0"
        guard payload.count >= exifHeader.count + 8, payload.prefix(6).elementsEqual(exifHeader) else { return nil }
        let tiff = UnsafeRawBufferPointer(rebasing: payload[6...])
        let bigEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): bigEndian = false  // "II"
        case (0x4D, 0x4D): bigEndian = true  // "MM"
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            return bigEndian ? Int(tiff[at]) << 8 | Int(tiff[at + 1]) : Int(tiff[at + 1]) << 8 | Int(tiff[at])
        }
        func u32(_ at: Int) -> Int? {
            guard let first = u16(at), let second = u16(at + 2) else { return nil }
            return bigEndian ? first << 16 | second : second << 16 | first
        }
        guard u16(2) == 42, let ifd = u32(4), ifd >= 8, let entryCount = u16(ifd) else { return nil }
        let available = (tiff.count - ifd - 2) / 12
        for index in 0..<max(0, min(entryCount, available)) {
            let entry = ifd + 2 + index * 12
            guard u16(entry) == 0x0112, let type = u16(entry + 2), let count = u32(entry + 4), count == 1 else {
                continue
            }
            let value: Int?
            switch type {
            case 3: value = u16(entry + 8)  // SHORT, left-justified in the value field
            case 4: value = u32(entry + 8)  // LONG, written by a few tools
            default: value = nil
            }
            return value.flatMap(EXIFOrientation.init(rawValue:))
        }
        return nil
    }
}

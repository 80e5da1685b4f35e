package import Foundation
import KFeedImages

/// `history-cells.bin`: the finer cells (``DetailSignature/finer``, 128×128 luma bytes) of the pictures
/// `history.json` records, by media key, so that a new picture is compared with one shown days ago as with one of
/// its own refresh: the finer test included.
///
/// Binary, beside `history.json` rather than in it: the cells are 16 KiB a picture and nearly incompressible for
/// photos, and base64 in JSON would add a third and make every refresh decode and encode them as text. The file is a
/// header line (``header``) and then, for each picture, one byte giving the length of its media key (1–255), the
/// key in UTF-8 and its ``DetailSignature/finerSide``² cell bytes. Read whole or not at all: a file that does not
/// parse to its last byte gives no cells, and its pictures are compared without the finer test, as an older kfeed
/// compared them.
package enum HistoryCells {
    /// The first bytes of the file: its name and format version.
    static let header = Array("kfeed history cells 1\n".utf8)
    /// The bytes of one picture's cells.
    static let cellCount = DetailSignature.finerSide * DetailSignature.finerSide
    /// The largest file read: ``History/maxRecords`` pictures with the longest keys.
    package static let sizeLimit = header.count + History.maxRecords * (1 + 255 + cellCount)

    /// The file holding `cells` in the order given; a key that is empty, longer than 255 bytes or whose cells are not
    /// ``cellCount`` bytes is left out.
    package static func encode(_ cells: [(key: String, cells: [UInt8])]) -> Data {
        var data = Data(header)
        data.reserveCapacity(header.count + cells.count * (1 + 32 + cellCount))
        for (key, bytes) in cells {
            let name = Array(key.utf8)
            guard (1...255).contains(name.count), bytes.count == cellCount else { continue }
            data.append(UInt8(name.count))
            data.append(contentsOf: name)
            data.append(contentsOf: bytes)
        }
        return data
    }

    /// The cells by media key; empty unless `data` is such a file to its last byte (a later entry of a key replaces
    /// an earlier one).
    package static func decode(_ data: Data) -> [String: [UInt8]] {
        data.withUnsafeBytes { buffer -> [String: [UInt8]] in
            let bytes = buffer.bindMemory(to: UInt8.self)
            guard bytes.count >= header.count, bytes.prefix(header.count).elementsEqual(header) else { return [:] }
            var cells: [String: [UInt8]] = [:]
            var offset = header.count
            while offset < bytes.count {
                let length = Int(bytes[offset])
                let keyStart = offset + 1
                let cellStart = keyStart + length
                guard length > 0, cellStart + cellCount <= bytes.count,
                    let key = String(validating: bytes[keyStart..<cellStart], as: UTF8.self)
                else { return [:] }
                cells[key] = Array(bytes[cellStart..<cellStart + cellCount])
                offset = cellStart + cellCount
            }
            return cells
        }
    }
}

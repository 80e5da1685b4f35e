import Foundation
import HTTPTypes
import KFeedImages

/// What a TRMNL device says about itself in its request headers (`ID`, `Model`, `Width`, `Height`, `FW-Version`,
/// `Battery-Voltage`, `RSSI`; names in any case, as HTTP has them; every other header ignored), and
/// the render it is shown (`docs/serve.md`, "TRMNL, every model").
struct TRMNLDevice: Sendable {
    static let idHeader = HTTPField.Name("ID")!
    static let modelHeader = HTTPField.Name("Model")!
    static let widthHeader = HTTPField.Name("Width")!
    static let heightHeader = HTTPField.Name("Height")!
    static let firmwareHeader = HTTPField.Name("FW-Version")!
    static let batteryHeader = HTTPField.Name("Battery-Voltage")!
    static let signalHeader = HTTPField.Name("RSSI")!

    /// The largest panel drawn at the size a board asks for in 1 bit, in pixels: its 1-bit PNG is at most
    /// 80,000 bytes of samples even for noise, within the ESP32-C3 boards' 90,000 bytes.
    static let maxOneBitPixels = 640_000
    /// The ESP32-C3 boards' limit on an image, in bytes (TRMNL OG and the boards like it): the firmware draws a PNG
    /// only when it is smaller.
    static let smallBoardBytes = 90_000
    /// The X boards' limit on an image, in bytes (their PSRAM holds it), as for ``smallBoardBytes``.
    static let largeBoardBytes = 750_000
    /// The first firmware that draws 2-bit (4-grey) PNGs on a TRMNL OG: 1.6.0 (earlier ones draw only 1-bit PNGs
    /// of 800×480; docs/renders.md, "What TRMNL's firmware draws").
    static let twoBitFirmware = [1, 6, 0]

    /// The device's MAC address, normalised (``ServeResponder/normalizedID(_:)``); empty when not sent.
    var id: String
    /// `Model`, lower-cased and trimmed (`og`, `x`, …); nil when not sent.
    var model: String?
    /// `Width` and `Height` when both are whole numbers within ``DisplayProfile/sideRange``.
    var size: (width: Int, height: Int)?
    /// `FW-Version` as sent (at most 40 printable characters).
    var firmware: String?
    /// `Battery-Voltage` as sent.
    var battery: String?
    /// `RSSI` as sent.
    var signal: String?

    /// Reads the headers of a device's request.
    init(headers: HTTPFields) {
        let text = { (name: HTTPField.Name) -> String? in
            guard let value = headers[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
            return ServeResponder.printable(String(value.prefix(40)))
        }
        id = headers[Self.idHeader].map(ServeResponder.normalizedID) ?? ""
        model = text(Self.modelHeader)?.lowercased()
        if let width = text(Self.widthHeader).flatMap({ Int($0) }),
            let height = text(Self.heightHeader).flatMap({ Int($0) }),
            DisplayProfile.sideRange.contains(width), DisplayProfile.sideRange.contains(height)
        {
            size = (width, height)
        }
        firmware = text(Self.firmwareHeader)
        battery = text(Self.batteryHeader)
        signal = text(Self.signalHeader)
    }

    /// Whether the firmware draws 2-bit PNGs: version 1.6.0 or later.
    var drawsTwoBits: Bool {
        guard let firmware else { return false }
        var parts = firmware.split(separator: ".").prefix(3).map { Int($0.prefix { $0.isNumber }) ?? 0 }
        while parts.count < 3 { parts.append(0) }
        return !parts.lexicographicallyPrecedes(Self.twoBitFirmware)
    }

    /// Whether the device is a TRMNL X: `Model: x`, or a panel of the X's size.
    var isX: Bool {
        model == "x" || (size?.width == DisplayProfile.trmnlX.width && size?.height == DisplayProfile.trmnlX.height)
    }

    /// The renders the device can show, best first (the server takes the first the feed's `--profile` list names,
    /// else the first):
    /// - TRMNL X: `trmnl-x` (16 greys, < 750,000 bytes);
    /// - TRMNL OG (no size, or 800×480): `trmnl-grey4` (< 90,000 bytes) when its firmware draws 2 bits, then
    ///   `trmnl` (1 bit, < 90,000 bytes);
    /// - another board, at the size it asks for: 1 bit up to ``maxOneBitPixels`` (< 90,000 bytes), else 16 greys up
    ///   to ``RenderShelf/maxPixels`` (< 750,000 bytes, a larger board's); larger still, `trmnl-x`.
    var profiles: [DisplayProfile] {
        if isX { return [.trmnlX] }
        guard let size, size.width != 800 || size.height != 480 else {
            return drawsTwoBits ? [.trmnlGrey4, .trmnl] : [.trmnl]
        }
        let (width, height) = size
        let pixels = width * height
        if pixels <= Self.maxOneBitPixels {
            return [
                DisplayProfile(
                    name: "\(width)x\(height):mono:png",
                    width: width,
                    height: height,
                    kind: .mono,
                    format: .png,
                    maxBytes: Self.smallBoardBytes
                )
            ]
        }
        if pixels <= RenderShelf.maxPixels {
            return [
                DisplayProfile(
                    name: "\(width)x\(height):grey16:png",
                    width: width,
                    height: height,
                    kind: .grey16,
                    format: .png,
                    maxBytes: Self.largeBoardBytes
                )
            ]
        }
        return [.trmnlX]
    }

    /// The profile shown to the device on a feed whose `--profile` list is `allowed` (nil: any).
    func profile(allowed: Set<String>?) -> DisplayProfile {
        let candidates = profiles
        return candidates.first { allowed?.contains($0.name) ?? true } ?? candidates[0]
    }
}

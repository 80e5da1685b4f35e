import Foundation
import HTTPTypes
import Hummingbird
import KFeed
import Logging

/// TRMNL's BYOS protocol: `/api/setup`, `/api/display`, `/api/log`, and the Redirect plugin's JSON.
extension ServeResponder {
    /// The profile `/api/display` shows unless `?profile=` names another: TRMNL OG's 1-bit PNG.
    static let trmnlProfile = "trmnl"
    /// How long a device waits before asking again when there is nothing to show, in seconds.
    static let retrySeconds = 300

    static let deviceIDHeader = HTTPField.Name("ID")!
    static let batteryHeader = HTTPField.Name("Battery-Voltage")!
    static let firmwareHeader = HTTPField.Name("FW-Version")!
    static let signalHeader = HTTPField.Name("RSSI")!
    static let refreshRateHeader = HTTPField.Name("Refresh-Rate")!

    /// `GET /api/setup` with the device's MAC address in `ID`. Without `--key-file` any device gets a fixed
    /// `api_key` (nothing is checked). With one, the key goes only to a device listed with `--trmnl-device ID`, or
    /// to a request that already carries the key; anyone else gets `status: 404` and no key, and the refusal is
    /// logged with the ID so that the owner can list their device.
    func setup(_ request: Request, moment: Moment) -> ServeAnswer {
        let id = request.headers[Self.deviceIDHeader].map(Self.normalizedID) ?? ""
        let friendly = Self.friendlyID(for: id)
        guard let key else {
            return .json(
                Setup(status: 200, apiKey: "kfeed-no-key", friendlyID: friendly, message: "kfeed: no key needed")
            )
        }
        guard settings.trmnlDevices[id] != nil || key.isPresented(in: request) else {
            settings.logger.warning(
                """
                refused TRMNL setup for device ID '\(Self.printable(id))': to hand it the key, restart with \
                --trmnl-device \(Self.printable(id))
                """
            )
            return .json(
                Setup(
                    status: 404,
                    apiKey: nil,
                    friendlyID: nil,
                    message: "device not registered with this kfeed server"
                ),
                status: .notFound
            )
        }
        settings.logger.debug("TRMNL setup for device \(Self.printable(id)): key handed over")
        return .json(Setup(status: 200, apiKey: key.text, friendlyID: friendly, message: "kfeed: registered"))
    }

    /// `GET /api/display` and `GET /trmnl/redirect.json`: the current entry's `trmnl` render (or `?profile=P`), the
    /// refresh's or one made on demand; when the timeline ran out, its last entry's (stale), with a `refresh_rate`
    /// of at most 15 minutes. The feed is `scope`'s: the path's (`/f/NAME/api/display`), or outside `/f/` the one
    /// `[serve.trmnl]` names for the device's `ID` (else the default feed).
    ///
    /// Without a timeline (or with an empty one), or when no render can be had, the answer is a JSON error (`status`
    /// = the HTTP status, and `error` saying what to do) with a `refresh_rate` to try again after; the widget JPEG is
    /// never sent instead, as the panel cannot show it.
    func display(
        _ moment: Moment,
        snapshot: ServedCache.Snapshot,
        request: Request,
        scope: FeedScope,
        isRedirect: Bool
    ) async -> ServeAnswer {
        if settings.isVerbose, !isRedirect {
            let fields: [(String, HTTPField.Name)] = [
                ("id", Self.deviceIDHeader), ("battery", Self.batteryHeader), ("fw", Self.firmwareHeader),
                ("rssi", Self.signalHeader), ("refresh", Self.refreshRateHeader),
            ]
            let parts = fields.compactMap { label, name in
                request.headers[name].map { "\(label)=\(Self.printable(String($0.prefix(40))))" }
            }
            settings.logger.debug("TRMNL display: \(parts.joined(separator: " "))")
        }
        let profile = request.uri.queryParameters["profile"].map(String.init) ?? Self.trmnlProfile
        guard let entry = moment.entry else {
            var answer = DisplayFailure(
                status: 404,
                error: moment.generation == nil
                    ? "no timeline yet: run kfeed refresh" : "the timeline is empty: run kfeed refresh",
                refreshRate: Self.retrySeconds
            )
            answer.isRedirect = isRedirect
            return .json(answer, status: .notFound)
        }
        let render: String
        let file: ServedFile
        switch await self.render(named: profile, of: entry, moment: moment, snapshot: snapshot, feed: scope.feed) {
        case .found(let path, let found):
            render = path
            file = found
        case .refused(let why), .unavailable(let why):
            var answer = DisplayFailure(
                status: 503,
                error: why,
                refreshRate: min(moment.secondsLeft, Self.retrySeconds)
            )
            answer.isRedirect = isRedirect
            return .json(answer, status: .serviceUnavailable)
        }
        let url =
            "\(base(request))/\(scope.prefix)\(render)?\(ServedFile.versionParameter)=\(file.version)"
            + (signer.map { "&\(URLSigner.parameter)=\($0.signature(for: scope.prefix + render))" } ?? "")
        // The previous picture stands in while the entry's render is made: a name of its own, so that the panel
        // draws the render when it comes.
        let filename =
            "kfeed-\(Int(entry.date.timeIntervalSince1970))-\(entry.media.key)"
            + (render.hasPrefix("renders/\(entry.media.key)-") ? "" : "-previous")
        var answer: ServeAnswer
        if isRedirect {
            answer = .json(Redirect(filename: filename, url: url, refreshRate: refreshRate(moment, feed: scope.feed)))
        } else {
            answer = .json(
                Display(imageURL: url, filename: filename, refreshRate: refreshRate(moment, feed: scope.feed))
            )
        }
        return answer  // never stored (`ServeAnswer.caching`'s default): it is per device and counts seconds
    }

    /// `POST /api/log`: the device's log, at most 64 KiB (else 413); noted with `-v`, never stored; `204`.
    func deviceLog(_ request: inout Request) async -> ServeAnswer {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > Self.bodyLimit {
            return .error(.contentTooLarge, "a log body is at most \(Self.bodyLimit) bytes")
        }
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: Self.bodyLimit)
        } catch {
            return .error(.contentTooLarge, "a log body is at most \(Self.bodyLimit) bytes")
        }
        let id = request.headers[Self.deviceIDHeader].map(Self.normalizedID) ?? "?"
        settings.logger.debug("TRMNL log from \(Self.printable(id)): \(body.readableBytes) bytes")
        return ServeAnswer(status: .noContent)
    }

    /// A device ID as compared with `--trmnl-device`: trimmed and upper-case (`AA:BB:CC:DD:EE:FF`).
    static func normalizedID(_ id: String) -> String {
        id.trimmingCharacters(in: .whitespaces).uppercased()
    }

    /// Six hex digits derived from the device ID (TRMNL shows a device's `friendly_id`).
    static func friendlyID(for id: String) -> String {
        let hash = ServedFile.etag(for: Array(id.utf8)).dropFirst().prefix(6)
        return hash.uppercased()
    }

    struct Setup: Encodable {
        var status: Int
        var apiKey: String?
        var friendlyID: String?
        var message: String

        enum CodingKeys: String, CodingKey {
            case status, message
            case apiKey = "api_key"
            case friendlyID = "friendly_id"
            case imageURL = "image_url"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(status, forKey: .status)
            try container.encode(apiKey, forKey: .apiKey)
            try container.encode(friendlyID, forKey: .friendlyID)
            try container.encodeNil(forKey: .imageURL)  // the device asks /api/display for its image
            try container.encode(message, forKey: .message)
        }
    }

    struct Display: Encodable {
        var status = 0
        var imageURL: String
        var filename: String
        var refreshRate: Int

        enum CodingKeys: String, CodingKey {
            case status, filename
            case imageURL = "image_url"
            case refreshRate = "refresh_rate"
            case updateFirmware = "update_firmware"
            case firmwareURL = "firmware_url"
            case resetFirmware = "reset_firmware"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(status, forKey: .status)
            try container.encode(imageURL, forKey: .imageURL)
            try container.encode(filename, forKey: .filename)
            try container.encode(refreshRate, forKey: .refreshRate)
            try container.encode(false, forKey: .updateFirmware)
            try container.encodeNil(forKey: .firmwareURL)
            try container.encode(false, forKey: .resetFirmware)
        }
    }

    struct Redirect: Encodable {
        var filename: String
        var url: String
        var refreshRate: Int

        enum CodingKeys: String, CodingKey {
            case filename, url
            case refreshRate = "refresh_rate"
        }
    }

    struct DisplayFailure: Encodable {
        var status: Int
        var error: String
        var refreshRate: Int
        var isRedirect = false

        enum CodingKeys: String, CodingKey {
            case status, error, filename, url
            case imageURL = "image_url"
            case refreshRate = "refresh_rate"
            case updateFirmware = "update_firmware"
            case firmwareURL = "firmware_url"
            case resetFirmware = "reset_firmware"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(status, forKey: .status)
            try container.encode(error, forKey: .error)
            try container.encode(refreshRate, forKey: .refreshRate)
            try container.encodeNil(forKey: .filename)
            if isRedirect {
                try container.encodeNil(forKey: .url)
            } else {
                try container.encodeNil(forKey: .imageURL)
                try container.encode(false, forKey: .updateFirmware)
                try container.encodeNil(forKey: .firmwareURL)
                try container.encode(false, forKey: .resetFirmware)
            }
        }
    }
}

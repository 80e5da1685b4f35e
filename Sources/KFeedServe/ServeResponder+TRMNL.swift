import Foundation
import HTTPTypes
import Hummingbird
import KFeed
import Logging

/// TRMNL's BYOS protocol: `/api/setup`, `/api/display`, `/api/current_screen`, `/api/log`, and the Redirect plugin's
/// JSON.
extension ServeResponder {
    /// The profile `/api/display` shows unless `?profile=` names another: TRMNL OG's 1-bit PNG.
    static let trmnlProfile = "trmnl"
    /// How long a device waits before asking again when there is nothing to show, in seconds.
    static let retrySeconds = 300

    static let deviceIDHeader = TRMNLDevice.idHeader

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

    /// `GET /api/display`, `GET /api/current_screen` (the same answer: kfeed has no playlist to advance) and
    /// `GET /trmnl/redirect.json`: the current entry's render for the device (``TRMNLDevice``: its `Model`, `Width`,
    /// `Height` and `FW-Version` choose it), or `?profile=P`'s, the refresh's or one made on demand; when the
    /// timeline ran out, its last entry's (stale), with a `refresh_rate` of at most 15 minutes. The feed is `scope`'s:
    /// the path's (`/f/NAME/api/display`), or outside `/f/` the one `[serve.trmnl]` names for the device's `ID` (else
    /// the default feed). `filename`, the device's cache key, is the render's content digest: the same picture keeps
    /// it, a new one changes it.
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
        let device = TRMNLDevice(headers: request.headers)
        let asked = request.uri.queryParameters["profile"].map(String.init)
        let chosen = asked == nil && !isRedirect ? device.profile(allowed: scope.feed.profiles) : nil
        if settings.isVerbose, !isRedirect {
            let fields: [(String, String?)] = [
                ("id", device.id), ("model", device.model), ("size", device.size.map { "\($0.width)x\($0.height)" }),
                ("battery", device.battery), ("fw", device.firmware), ("rssi", device.signal),
            ]
            let parts = fields.compactMap { label, value in value.map { "\(label)=\($0)" } }
            settings.logger.debug(
                "TRMNL display: \(parts.joined(separator: " ")) → \(chosen?.name ?? asked ?? "trmnl")"
            )
        }
        if !isRedirect, !device.id.isEmpty { devices.saw(device, profile: chosen?.name ?? asked, at: moment.now) }
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
        let lookup: RenderLookup
        if let chosen {
            lookup = await render(
                chosen,
                of: entry,
                moment: moment,
                snapshot: snapshot,
                feed: scope.feed,
                isAsked: false
            )
        } else {
            lookup = await render(
                named: asked ?? Self.trmnlProfile,
                of: entry,
                moment: moment,
                snapshot: snapshot,
                feed: scope.feed
            )
        }
        let render: String
        let file: ServedFile
        switch lookup {
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
        // The picture's own digest (also while the previous picture stands in for a render being made): the device
        // redraws exactly when the picture changes.
        let filename = "kfeed-\(file.version).\(render.split(separator: ".").last ?? "png")"
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

    /// `POST /api/log`: the device's log, at most 64 KiB (else 413); its messages are kept per device, the last few
    /// (``DeviceLogBook``), for `kfeed status`; `204`.
    func deviceLog(_ request: inout Request, now: Date) async -> ServeAnswer {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > Self.bodyLimit {
            return .error(.contentTooLarge, "a log body is at most \(Self.bodyLimit) bytes")
        }
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: Self.bodyLimit)
        } catch {
            return .error(.contentTooLarge, "a log body is at most \(Self.bodyLimit) bytes")
        }
        let device = TRMNLDevice(headers: request.headers)
        let id = device.id.isEmpty ? "?" : device.id
        settings.logger.debug("TRMNL log from \(Self.printable(id)): \(body.readableBytes) bytes")
        if !device.id.isEmpty {
            devices.logged(DeviceLogBook.messages(in: Array(body.readableBytesView)), by: device, at: now)
        }
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

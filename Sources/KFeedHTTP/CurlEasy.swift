import CKFeedCurl
import Foundation
import KFeedBase

/// Owns one libcurl easy handle for one transfer: configures it from an `HTTPRequest`, collects the final
/// response's headers and body from libcurl's callbacks, and turns libcurl failures into `KFeedError`.
///
/// `@unchecked Sendable` because it crosses threads once: it is built and configured on the caller's thread, then
/// handed (under `CurlMulti`'s lock) to the driver thread, which from then on is the only thread that touches the
/// handle, `body`, `headers` and the overflow flags (libcurl calls the callbacks from inside `curl_multi_perform`
/// on that thread). The cancellation flag is the one field other threads write, and `lock` guards it.
final class CurlEasy: @unchecked Sendable {
    /// The most response-header bytes accepted (all lines of the final response together).
    static let maxHeaderBytes = 256 << 10
    /// The most a content-encoded body may grow when decoded: decoded bytes per byte received. JSON compresses
    /// about 10-fold and JPEG not at all; a gzip bomb about 1,000-fold.
    static let maxDecodedRatio = 100
    /// Decoded bytes held before ``maxDecodedRatio`` is checked: small bodies are never refused for their ratio.
    static let ratioCheckBytes = 256 << 10
    /// libcurl's receive buffer (`CURLOPT_BUFFERSIZE`): the most wire bytes one read brings, and so the most by which
    /// libcurl's count of received bytes lags the bytes whose decoded form the write callback is given.
    static let readBufferBytes = 4_096

    /// The `CURL *` this object owns.
    let handle: UnsafeMutableRawPointer
    /// The request this transfer carries out.
    let request: HTTPRequest

    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var body = Data()
    private var headers: [HTTPHeader] = []
    private var headerBytes = 0
    private var bodyExceededCap = false
    private var bodyExceededRatio = false
    private var headersExceededCap = false
    private let lock = NSLock()
    private var cancelled = false

    /// Creates and configures an easy handle for `request`.
    /// - Throws: `KFeedError` with code `.transport` when libcurl refuses an option or a header is malformed.
    init(request: HTTPRequest) throws {
        try CurlGlobal.initialize()
        guard let handle = kfeed_curl_easy_init() else {
            throw KFeedError(
                .transport,
                "libcurl could not create a transfer for \(request.url.hostDescription); the process may be out of memory"
            )
        }
        self.handle = handle
        self.request = request
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        try configure()
    }

    deinit {
        kfeed_curl_easy_cleanup(handle)
        kfeed_curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    /// `host` or `host:port` of the request, for error messages (never the path or query).
    var hostDescription: String { request.url.hostDescription }

    /// Whether the awaiting task asked to stop this transfer.
    var isCancelled: Bool { lock.withLock { cancelled } }

    /// Marks the transfer cancelled; the progress callback aborts it at its next call.
    func cancel() {
        lock.withLock { cancelled = true }
    }

    /// The outcome of a finished transfer, given libcurl's result code.
    func result(of code: CURLcode) -> Result<HTTPResponse, any Error> {
        if isCancelled { return .failure(CancellationError()) }
        guard code == CURLE_OK else { return .failure(error(for: code)) }
        var status = 0
        let statusCode = kfeed_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        guard statusCode == CURLE_OK else {
            return .failure(error(for: statusCode, operation: "reading the status of"))
        }
        var effective: UnsafeMutablePointer<CChar>?
        var url = request.url
        if kfeed_curl_getinfo_string(handle, CURLINFO_EFFECTIVE_URL, &effective) == CURLE_OK, let effective,
            let parsed = URL(string: String(cString: effective))
        {
            url = parsed
        }
        return .success(HTTPResponse(status: status, headers: headers, body: body, url: url))
    }

    // MARK: - Callbacks (driver thread only)

    /// Appends body bytes; returns 0 (which aborts the transfer) once the body would exceed the byte cap.
    ///
    /// `data` is decoded (libcurl inflates a content-encoded body before this callback), so both checks bound the
    /// decoded bytes this response holds, and both are made before anything is appended:
    /// - the byte cap (`request.maxBodyBytes`: the page cap for a search answer, the image cap for a picture) is
    ///   absolute: however the body is chunked on the wire and whenever its bytes arrive, this response never
    ///   holds more than the cap;
    /// - the ratio stops a compression bomb long before the cap: with dozens of image transfers in flight, each
    ///   holding up to the cap, the cap alone would let a hostile server fill memory (`bench/gzip-bomb.sh`). It is
    ///   given one read buffer of slack: on a chunked body libcurl adds a read's wire bytes to its count only after
    ///   it has written their decoded bytes here, so without the slack a body of an honest ratio (72-fold) whose
    ///   first read decodes past ``ratioCheckBytes`` would be refused or not depending on how its bytes arrive.
    fileprivate func receiveBody(_ data: UnsafeMutablePointer<CChar>?, count: Int) -> Int {
        guard count > 0 else { return 0 }
        guard let data else { return 0 }
        guard count <= request.maxBodyBytes - body.count else {
            bodyExceededCap = true
            return 0
        }
        if body.count + count > Self.ratioCheckBytes {
            var received: curl_off_t = 0
            if kfeed_curl_getinfo_off(handle, CURLINFO_SIZE_DOWNLOAD_T, &received) == CURLE_OK,
                body.count + count > Self.maxDecodedRatio * (max(Int(received), 0) + Self.readBufferBytes)
            {
                bodyExceededRatio = true
                return 0
            }
        }
        data.withMemoryRebound(to: UInt8.self, capacity: count) { body.append($0, count: count) }
        return count
    }

    /// Records one header line; a status line starts a new response (a redirect), so it clears earlier headers.
    fileprivate func receiveHeaderLine(_ data: UnsafeMutablePointer<CChar>?, count: Int) -> Int {
        guard count > 0 else { return 0 }
        guard let data else { return 0 }
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: count), as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            headers.removeAll()
            headerBytes = 0
            body.removeAll()
            return count
        }
        headerBytes += count
        guard headerBytes <= Self.maxHeaderBytes else {
            headersExceededCap = true
            return 0
        }
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty {
            // The end of a response's headers: make room for the declared body at once, not by doubling.
            if let length = headers.value(named: "Content-Length").flatMap(Int.init), length > 0,
                length <= request.maxBodyBytes
            {
                body.reserveCapacity(length)
            }
            return count
        }
        if line.first == " " || line.first == "\t", let last = headers.indices.last {
            headers[last].value += " " + trimmed  // obsolete line folding continues the previous value
        } else if let colon = trimmed.firstIndex(of: ":") {
            let name = String(trimmed[..<colon]).trimmingCharacters(in: .whitespaces)
            let value = String(trimmed[trimmed.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            headers.append(HTTPHeader(name, value))
        }
        return count
    }

    // MARK: - Configuration

    private func configure() throws {
        let url = request.url.absoluteString
        try set(CURLOPT_URL, url)
        try set(CURLOPT_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_NOSIGNAL, 1)
        // A refresh has dozens of transfers in flight, each with a receive buffer: 4 KiB instead of libcurl's
        // 16 KiB lowers its peak memory by about 0.6 MiB; bodies of tens of KiB take a few more reads.
        try set(CURLOPT_BUFFERSIZE, Self.readBufferBytes)
        // Over TLS, wait for the host's connection to say whether it multiplexes (HTTP/2) rather than open another.
        if request.url.scheme?.lowercased() == "https" { try set(CURLOPT_PIPEWAIT, 1) }
        try set(CURLOPT_FOLLOWLOCATION, request.maxRedirects > 0 ? 1 : 0)
        try set(CURLOPT_MAXREDIRS, max(0, request.maxRedirects))
        try set(CURLOPT_CONNECTTIMEOUT_MS, request.connectTimeout.curlMilliseconds)
        try set(CURLOPT_TIMEOUT_MS, request.totalTimeout.curlMilliseconds)
        try set(CURLOPT_LOW_SPEED_LIMIT, max(0, request.lowSpeedBytesPerSecond))
        try set(CURLOPT_LOW_SPEED_TIME, request.lowSpeedTime.curlSeconds)
        try set(CURLOPT_USERAGENT, "kfeed/\(KFeedVersion.version)")
        // The write callback sees decoded bytes, so the byte cap bounds the decoded size of a compressed body.
        try set(CURLOPT_ACCEPT_ENCODING, "")
        // Rejects a declared Content-Length over the cap before the body arrives; the write callback is the real
        // limit, since chunked and compressed bodies declare nothing.
        try set(CURLOPT_MAXFILESIZE, max(0, request.maxBodyBytes))
        try check(kfeed_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer), option: "CURLOPT_ERRORBUFFER")
        try setHeaders()

        // The context pointers are unretained: `CurlMulti` keeps this object alive in its table of active transfers
        // until libcurl has finished with the handle (`curl_multi_remove_handle`), and `deinit` frees the handle.
        let context = Unmanaged.passUnretained(self).toOpaque()
        try check(
            kfeed_curl_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION) { data, size, count, context in
                guard let context else { return 0 }
                return Unmanaged<CurlEasy>.fromOpaque(context).takeUnretainedValue()
                    .receiveBody(data, count: size * count)
            },
            option: "CURLOPT_WRITEFUNCTION"
        )
        try check(kfeed_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context), option: "CURLOPT_WRITEDATA")
        try check(
            kfeed_curl_setopt_data_callback(handle, CURLOPT_HEADERFUNCTION) { data, size, count, context in
                guard let context else { return 0 }
                return Unmanaged<CurlEasy>.fromOpaque(context).takeUnretainedValue()
                    .receiveHeaderLine(data, count: size * count)
            },
            option: "CURLOPT_HEADERFUNCTION"
        )
        try check(kfeed_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context), option: "CURLOPT_HEADERDATA")
        try set(CURLOPT_NOPROGRESS, 0)
        try check(
            kfeed_curl_setopt_xferinfo_callback(handle) { context, _, _, _, _ in
                guard let context else { return 1 }
                return Unmanaged<CurlEasy>.fromOpaque(context).takeUnretainedValue().isCancelled ? 1 : 0
            },
            option: "CURLOPT_XFERINFOFUNCTION"
        )
        try check(kfeed_curl_setopt_pointer(handle, CURLOPT_XFERINFODATA, context), option: "CURLOPT_XFERINFODATA")
    }

    private func setHeaders() throws {
        guard !request.headers.isEmpty else { return }
        for header in request.headers {
            guard header.isWellFormed else {
                // The message names the header but never its value, which may be a bearer token.
                throw KFeedError(
                    .transport,
                    "the request to \(request.url.hostDescription) has a malformed header \"\(header.name.prefix(64))\";"
                        + " header names must be tokens and values must not contain line breaks"
                )
            }
            // `Name;` is libcurl's spelling of a header with an empty value (`Name:` would remove the header).
            let line = header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)"
            guard let list = kfeed_curl_slist_append(headerList, line) else {
                throw KFeedError(
                    .transport,
                    "libcurl could not add the request headers for \(request.url.hostDescription); the process may be out of memory"
                )
            }
            headerList = list
        }
        try check(kfeed_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList), option: "CURLOPT_HTTPHEADER")
    }

    private func set(_ option: CURLoption, _ value: Int) throws {
        try check(kfeed_curl_setopt_long(handle, option, value), option: "option \(option.rawValue)")
    }

    private func set(_ option: CURLoption, _ value: String) throws {
        try check(kfeed_curl_setopt_string(handle, option, value), option: "option \(option.rawValue)")
    }

    private func check(_ code: CURLcode, option: String) throws {
        guard code == CURLE_OK else {
            let text = String(cString: kfeed_curl_easy_strerror(code))
            throw KFeedError(
                .transport,
                "libcurl refused \(option) for \(request.url.hostDescription) (\(text)); check the libcurl version (7.85 or later)",
                underlying: CurlError(operation: "curl_easy_setopt \(option)", detail: text)
            )
        }
    }

    // MARK: - Errors

    /// The `KFeedError` for a failed transfer: what failed, on which host, and what to do next.
    private func error(for code: CURLcode, operation: String = "fetching") -> KFeedError {
        let host = request.url.hostDescription
        let bufferText = errorBuffer.pointee == 0 ? "" : String(cString: errorBuffer)
        let detail = bufferText.isEmpty ? String(cString: kfeed_curl_easy_strerror(code)) : bufferText
        let underlying = CurlError(operation: "transfer (CURLcode \(code.rawValue))", detail: detail)
        if bodyExceededCap || code == CURLE_FILESIZE_EXCEEDED {
            return KFeedError(
                .transport,
                "the response body from \(host) exceeded \(request.maxBodyBytes) bytes; check the URL or raise the byte limit",
                underlying: underlying
            )
        }
        if bodyExceededRatio {
            return KFeedError(
                .transport,
                "the response body from \(host) exceeded \(Self.maxDecodedRatio) times its compressed size when "
                    + "decoded (a compression bomb); check the URL",
                underlying: underlying
            )
        }
        if headersExceededCap {
            return KFeedError(
                .transport,
                "the response headers from \(host) exceeded \(Self.maxHeaderBytes) bytes; check the URL",
                underlying: underlying
            )
        }
        let advice: String
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            advice = "the server was too slow; retry later or raise the request's timeouts"
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            advice = "check the host name and the network's DNS"
        case CURLE_COULDNT_CONNECT:
            advice = "check that the server is up and reachable"
        case CURLE_TOO_MANY_REDIRECTS:
            advice = "the server redirected more than \(request.maxRedirects) times; check the URL"
        case CURLE_UNSUPPORTED_PROTOCOL:
            advice = "only http and https URLs are fetched, redirects included; check the URL"
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_SEND_ERROR:
            advice = "the connection broke before the response was complete; retry later"
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CACERT_BADFILE:
            advice = "check the server's certificate and the system's CA certificates"
        default:
            advice = "retry later"
        }
        return KFeedError(.transport, "\(operation) \(host) failed: \(detail); \(advice)", underlying: underlying)
    }
}

extension Duration {
    /// This duration in whole milliseconds for a libcurl timeout, at least 1 (libcurl reads 0 as "no limit").
    fileprivate var curlMilliseconds: Int {
        guard self > .zero else { return 1 }
        let (seconds, attoseconds) = components
        guard seconds < Int64(Int.max / 1_000 - 1) else { return Int.max / 1_000 }
        let milliseconds = Int(seconds) * 1_000 + Int((attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
        return max(1, milliseconds)
    }

    /// This duration in whole seconds for `CURLOPT_LOW_SPEED_TIME`, rounded up, at least 1.
    fileprivate var curlSeconds: Int { max(1, (curlMilliseconds + 999) / 1_000) }
}

extension HTTPHeader {
    /// Whether the name is an RFC 9110 token and the value has no line breaks or NUL bytes.
    fileprivate var isWellFormed: Bool {
        let tokenPunctuation = Set("!#$%&'*+-.^_`|~".utf8)
        let nameIsToken =
            !name.isEmpty
            && name.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || tokenPunctuation.contains(byte)
            }
        let valueIsClean = !value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
        return nameIsToken && valueIsClean
    }
}

extension URL {
    /// `host` or `host:port`, for error messages (never the path or query).
    fileprivate var hostDescription: String {
        let host = host ?? "(no host)"
        guard let port else { return host }
        return "\(host):\(port)"
    }
}

package import Foundation
import KFeed
package import KFeedHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// A small real HTTP/1.1 server on 127.0.0.1 for tests and benchmarks, on POSIX sockets and its own threads.
///
/// The accept loop and every connection run on dedicated threads, never on the cooperative pool, so the code under
/// test cannot starve the server. Connections stay open across requests (keep-alive) so reuse is observable.
/// Use it scoped, through `with(_:_:)` or `withServer(_:_:)`: the server stops and closes every socket when the
/// body returns or throws.
///
/// `@unchecked Sendable`: the observable state (requests, counters, open sockets, the stop flag) is guarded by
/// `lock`; the socket descriptors and `handler` are immutable after `init`.
package final class LoopbackServer: @unchecked Sendable {
    /// `http://127.0.0.1:<port>`, with no trailing slash.
    package let baseURL: URL
    /// The port the kernel assigned.
    package let port: UInt16

    private let handler: @Sendable (Request) -> Response
    private let listener: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let threads = DispatchGroup()

    private let lock = NSLock()
    private var receivedRequests: [Request] = []
    private var acceptedConnections = 0
    private var inFlight = 0
    private var peakInFlight = 0
    private var clients: Set<Int32> = []
    private var isStopped = false

    /// The largest request head (request line and headers) accepted, in bytes.
    package static let maxHeadBytes = 64 << 10
    /// The largest request body accepted, in bytes.
    package static let maxRequestBodyBytes = 1 << 20

    // MARK: - Scoped use

    /// Runs `body` with the base URL of a server that answers every request with `handler`, then stops it.
    /// - Parameters:
    ///   - handler: Called on a server thread for each request; its response's behaviour (latency, chunking,
    ///     drip, hang, truncation) is carried out by the server.
    ///   - body: Receives `http://127.0.0.1:<port>`.
    /// - Returns: What `body` returns.
    /// - Throws: `LoopbackServer.Failure` when the server cannot start, else what `body` throws.
    package static func with<T>(
        _ handler: @escaping @Sendable (Request) -> Response,
        _ body: (URL) async throws -> T
    ) async throws -> T {
        try await withServer(handler) { server in try await body(server.baseURL) }
    }

    /// Runs `body` with a running server, for tests that also read what it observed, then stops it.
    /// - Parameters:
    ///   - handler: Called on a server thread for each request.
    ///   - body: Receives the server; read `baseURL`, `requests`, `connectionCount`, `peakConcurrentRequests`.
    /// - Returns: What `body` returns.
    /// - Throws: `LoopbackServer.Failure` when the server cannot start, else what `body` throws.
    package static func withServer<T>(
        _ handler: @escaping @Sendable (Request) -> Response,
        _ body: (LoopbackServer) async throws -> T
    ) async throws -> T {
        let server = try LoopbackServer(handler: handler)
        let result: T
        do {
            result = try await body(server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
        return result
    }

    /// Runs `body` with the base URL of a server that gives every request the same `response`, then stops it.
    /// - Parameters:
    ///   - response: What every request gets.
    ///   - body: Receives `http://127.0.0.1:<port>`.
    /// - Returns: What `body` returns.
    /// - Throws: `LoopbackServer.Failure` when the server cannot start, else what `body` throws.
    package static func with<T>(responding response: Response, _ body: (URL) async throws -> T) async throws -> T {
        try await with({ _ in response }, body)
    }

    /// Runs `body` with a running server that gives every request the same `response`, then stops it.
    /// - Parameters:
    ///   - response: What every request gets.
    ///   - body: Receives the server.
    /// - Returns: What `body` returns.
    /// - Throws: `LoopbackServer.Failure` when the server cannot start, else what `body` throws.
    package static func withServer<T>(
        responding response: Response,
        _ body: (LoopbackServer) async throws -> T
    ) async throws -> T {
        try await withServer({ _ in response }, body)
    }

    // MARK: - Observations

    /// Every request received so far, in arrival order.
    package var requests: [Request] { lock.withLock { receivedRequests } }
    /// How many TCP connections the server has accepted.
    package var connectionCount: Int { lock.withLock { acceptedConnections } }
    /// The most requests that were being served at the same moment (read but not yet fully answered).
    package var peakConcurrentRequests: Int { lock.withLock { peakInFlight } }
    /// How many requests are being served right now.
    package var requestsInFlight: Int { lock.withLock { inFlight } }

    // MARK: - Lifecycle

    private init(handler: @escaping @Sendable (Request) -> Response) throws {
        self.handler = handler
        var wake: [Int32] = [-1, -1]
        guard pipe(&wake) == 0 else { throw Failure("pipe", errno) }
        wakeRead = wake[0]
        wakeWrite = wake[1]
        do {
            (listener, port) = try Self.listen()
        } catch {
            close(wakeRead)
            close(wakeWrite)
            throw error
        }
        guard let url = URL(string: "http://127.0.0.1:\(port)") else {
            close(listener)
            close(wakeRead)
            close(wakeWrite)
            throw Failure("URL for port \(port)", 0)
        }
        baseURL = url
        threads.enter()
        let acceptThread = Thread { [self] in
            acceptLoop()
            threads.leave()
        }
        acceptThread.name = "loopback.accept"
        acceptThread.start()
    }

    private static func listen() throws -> (Int32, UInt16) {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socketFD >= 0 else { throw Failure("socket", errno) }
        var yes: Int32 = 1
        _ = setsockopt(socketFD, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian  // 127.0.0.1
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let code = errno
            close(socketFD)
            throw Failure("bind 127.0.0.1:0", code)
        }
        guard Glibc.listen(socketFD, 128) == 0 else {
            let code = errno
            close(socketFD)
            throw Failure("listen", code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
        }
        guard named == 0 else {
            let code = errno
            close(socketFD)
            throw Failure("getsockname", code)
        }
        _ = fcntl(socketFD, F_SETFL, fcntl(socketFD, F_GETFL) | O_NONBLOCK)
        return (socketFD, UInt16(bigEndian: address.sin_port))
    }

    /// Stops accepting, wakes every thread (latency, drip and hang end at once), closes every socket, and waits
    /// (at most 5 s, off the cooperative pool) for the server's threads to end.
    package func stop() async {
        let first = lock.withLock {
            guard !isStopped else { return false }
            isStopped = true
            for client in clients { _ = shutdown(client, Int32(SHUT_RDWR)) }
            return true
        }
        guard first else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        let ended = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let group = threads
            let waiter = Thread { continuation.resume(returning: group.wait(timeout: .now() + 5) == .success) }
            waiter.name = "loopback.stop"
            waiter.start()
        }
        // A thread still running might yet poll the wake pipe; leave it open rather than risk a reused descriptor.
        if ended {
            close(wakeRead)
            close(wakeWrite)
        }
    }

    // MARK: - Threads

    private func acceptLoop() {
        defer { close(listener) }
        while true {
            var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0), wakePollFD]
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            guard fds[0].revents != 0 else { continue }
            let client = accept(listener, nil, nil)
            if client < 0 {
                if [EINTR, EAGAIN, EWOULDBLOCK, ECONNABORTED, EPROTO].contains(errno) { continue }
                return
            }
            let connection: Int? = lock.withLock {
                guard !isStopped else { return nil }
                clients.insert(client)
                acceptedConnections += 1
                threads.enter()
                return acceptedConnections
            }
            guard let connection else {
                close(client)
                return
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            var yes: Int32 = 1
            _ = setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            var sendTimeout = timeval(tv_sec: 10, tv_usec: 0)  // bounds a write to a client that stopped reading
            _ = setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &sendTimeout, socklen_t(MemoryLayout<timeval>.size))
            let thread = Thread { [self] in
                serve(client, connection: connection)
                lock.withLock {
                    clients.remove(client)
                    close(client)  // under the lock, so `stop` never shuts down a reused descriptor
                }
                threads.leave()
            }
            thread.name = "loopback.connection.\(connection)"
            thread.start()
        }
    }

    private var wakePollFD: pollfd { pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0) }

    /// Waits `duration`, or less if the server stops; returns `true` when it stopped.
    private func sleepUnlessStopped(_ duration: Duration) -> Bool {
        var fds = [wakePollFD]
        let deadline = ContinuousClock.now + duration
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { return false }
            let (seconds, attoseconds) = remaining.components
            let milliseconds = Int32(clamping: seconds * 1_000 + attoseconds / 1_000_000_000_000_000 + 1)
            let ready = poll(&fds, 1, milliseconds)
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { return true }
        }
    }

    private func serve(_ client: Int32, connection: Int) {
        var buffer: [UInt8] = []
        while let request = readRequest(client, buffer: &buffer, connection: connection) {
            lock.withLock {
                receivedRequests.append(request)
                inFlight += 1
                peakInFlight = max(peakInFlight, inFlight)
            }
            let response = handler(request)
            let keepOpen = respond(client, with: response, to: request)
            lock.withLock { inFlight -= 1 }
            guard keepOpen else { return }
        }
    }

    // MARK: - Reading requests

    /// Reads bytes into `buffer`; `false` at end of stream, on error, or when the server stops.
    private func fill(_ client: Int32, _ buffer: inout [UInt8]) -> Bool {
        var fds = [pollfd(fd: client, events: Int16(POLLIN), revents: 0), wakePollFD]
        while true {
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return false
            }
            if fds[1].revents != 0 { return false }
            var chunk = [UInt8](repeating: 0, count: 16 << 10)
            let count = recv(client, &chunk, chunk.count, 0)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            buffer.append(contentsOf: chunk[..<count])
            return true
        }
    }

    private func readRequest(_ client: Int32, buffer: inout [UInt8], connection: Int) -> Request? {
        let terminator: [UInt8] = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        var searchFrom = 0
        while headEnd == nil {
            if buffer.count >= 4 {
                for index in searchFrom...(buffer.count - 4) where buffer[index..<index + 4].elementsEqual(terminator) {
                    headEnd = index
                    break
                }
                searchFrom = max(0, buffer.count - 3)
            }
            if headEnd != nil { break }
            guard buffer.count <= Self.maxHeadBytes else {
                _ = sendAll(
                    client,
                    Array("HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n".utf8)
                )
                return nil
            }
            guard fill(client, &buffer) else { return nil }
        }
        guard let headEnd else { return nil }
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeSubrange(..<(headEnd + 4))

        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: true)
        guard requestLine.count == 3 else {
            _ = sendAll(client, Array("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n".utf8))
            return nil
        }
        var headers: [HTTPHeader] = []
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append(
                HTTPHeader(
                    String(line[..<colon]),
                    String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
                )
            )
        }
        let declaredLength = headers.value(named: "Content-Length").flatMap { Int($0) } ?? 0
        guard declaredLength >= 0, declaredLength <= Self.maxRequestBodyBytes else {
            _ = sendAll(client, Array("HTTP/1.1 413 Content Too Large\r\nConnection: close\r\n\r\n".utf8))
            return nil
        }
        while buffer.count < declaredLength {
            guard fill(client, &buffer) else { return nil }
        }
        let body = Data(buffer[..<declaredLength])
        buffer.removeSubrange(..<declaredLength)
        return Request(
            method: String(requestLine[0]),
            target: String(requestLine[1]),
            version: String(requestLine[2]),
            headers: headers,
            body: body,
            connection: connection
        )
    }

    // MARK: - Writing responses

    /// Sends `response`; returns whether the connection may carry another request.
    private func respond(_ client: Int32, with response: Response, to request: Request) -> Bool {
        if response.delay > .zero, sleepUnlessStopped(response.delay) { return false }
        let clientWantsClose =
            request[header: "Connection"]?.lowercased() == "close"
            || (request.version == "HTTP/1.0" && request[header: "Connection"]?.lowercased() != "keep-alive")
        var closes = response.closesConnection || clientWantsClose
        let omitsBody = request.method == "HEAD" || response.status == 204 || response.status == 304
        var headers = response.headers
        let hasHeader = { (name: String) in headers.value(named: name) != nil }
        switch response.delivery {
        case .whole, .drip:
            if !hasHeader("Content-Length") { headers.append(HTTPHeader("Content-Length", "\(response.body.count)")) }
        case .chunked:
            headers.append(HTTPHeader("Transfer-Encoding", "chunked"))
        case .truncated(let declaredLength):
            headers.append(HTTPHeader("Content-Length", "\(declaredLength)"))
            closes = true
        case .hang:
            return hang(client)
        }
        if closes { headers.append(HTTPHeader("Connection", "close")) }
        var head = "HTTP/1.1 \(response.status) \(Self.reason(for: response.status))\r\n"
        for header in headers { head += "\(header.name): \(header.value)\r\n" }
        head += "\r\n"
        guard sendAll(client, Array(head.utf8)) else { return false }
        if omitsBody { return !closes }

        let body = [UInt8](response.body)
        switch response.delivery {
        case .whole, .truncated, .hang:
            guard sendAll(client, body) else { return false }
        case .chunked(let chunkSize):
            let size = max(1, chunkSize)
            for start in stride(from: 0, to: body.count, by: size) {
                let chunk = body[start..<min(start + size, body.count)]
                let framed = Array(String(chunk.count, radix: 16).utf8) + [13, 10] + chunk + [13, 10]
                guard sendAll(client, framed) else { return false }
            }
            guard sendAll(client, Array("0\r\n\r\n".utf8)) else { return false }
        case .drip(let bytes, let interval):
            let size = max(1, bytes)
            for start in stride(from: 0, to: body.count, by: size) {
                if start > 0, sleepUnlessStopped(interval) { return false }
                guard sendAll(client, Array(body[start..<min(start + size, body.count)])) else { return false }
            }
        }
        return !closes
    }

    /// Never answers: waits until the client closes the connection or the server stops.
    private func hang(_ client: Int32) -> Bool {
        var discarded: [UInt8] = []
        while fill(client, &discarded) { discarded.removeAll(keepingCapacity: true) }
        return false
    }

    private func sendAll(_ client: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                send(client, $0.baseAddress.map { $0 + offset }, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += sent
        }
        return true
    }

    private static func reason(for status: Int) -> String {
        switch status {
        case 200: "OK"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}

extension LoopbackServer {
    /// One request as the server received it.
    package struct Request: Sendable {
        /// The method, e.g. `GET`.
        package var method: String
        /// The request target exactly as sent, e.g. `/2/tweets/search/recent?query=cats%20-is%3Aretweet`.
        package var target: String
        /// The HTTP version from the request line, e.g. `HTTP/1.1`.
        package var version: String
        /// The headers in the order received; look them up with `self[header:]`.
        package var headers: [HTTPHeader]
        /// The body (empty for a GET).
        package var body: Data
        /// Which accepted connection carried the request, counting from 1.
        package var connection: Int

        /// Creates a request record.
        package init(
            method: String,
            target: String,
            version: String = "HTTP/1.1",
            headers: [HTTPHeader] = [],
            body: Data = Data(),
            connection: Int = 1
        ) {
            self.method = method
            self.target = target
            self.version = version
            self.headers = headers
            self.body = body
            self.connection = connection
        }

        /// The path part of the target, as sent (not percent-decoded).
        package var path: String { String(target.prefix { $0 != "?" }) }

        /// The query string as sent, without the `?`; `nil` when the target has none.
        package var rawQuery: String? {
            guard let mark = target.firstIndex(of: "?") else { return nil }
            return String(target[target.index(after: mark)...])
        }

        /// The query's name/value pairs, percent-decoded (RFC 3986: a `+` stays a `+`), in order.
        package var queryItems: [URLQueryItem] {
            guard let rawQuery, !rawQuery.isEmpty else { return [] }
            return rawQuery.split(separator: "&", omittingEmptySubsequences: true).map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(parts[0])
                let value = parts.count > 1 ? String(parts[1]) : nil
                return URLQueryItem(
                    name: name.removingPercentEncoding ?? name,
                    value: value.map { $0.removingPercentEncoding ?? $0 }
                )
            }
        }

        /// The first decoded value of the query item `name`.
        package func queryValue(_ name: String) -> String? {
            queryItems.first { $0.name == name }?.value
        }

        /// The first header with this name, compared case-insensitively.
        package subscript(header name: String) -> String? { headers.value(named: name) }
    }

    /// What the server answers, and how it delivers it.
    package struct Response: Sendable {
        /// How the body goes over the wire.
        package enum Delivery: Sendable {
            /// All at once, with `Content-Length`.
            case whole
            /// `Transfer-Encoding: chunked`, in chunks of `chunkSize` bytes.
            case chunked(chunkSize: Int)
            /// With `Content-Length`, `bytes` at a time, waiting `every` between writes.
            case drip(bytes: Int, every: Duration)
            /// Declares `Content-Length: declaredLength` (more than the body), sends the body, then closes.
            case truncated(declaredLength: Int)
            /// Reads the request and never answers until the client leaves or the server stops.
            case hang
        }

        /// The status code.
        package var status: Int
        /// Headers to send; the server adds `Content-Length`, `Transfer-Encoding` and `Connection` as needed.
        package var headers: [HTTPHeader]
        /// The body.
        package var body: Data
        /// Added latency before anything is sent.
        package var delay: Duration
        /// How the body is delivered.
        package var delivery: Delivery
        /// Whether the server closes the connection after this response.
        package var closesConnection: Bool

        /// Creates a response.
        package init(
            status: Int = 200,
            headers: [HTTPHeader] = [],
            body: Data = Data(),
            delay: Duration = .zero,
            delivery: Delivery = .whole,
            closesConnection: Bool = false
        ) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
            self.delivery = delivery
            self.closesConnection = closesConnection
        }

        /// A `text/plain` UTF-8 response.
        package static func text(_ text: String, status: Int = 200) -> Response {
            Response(
                status: status,
                headers: [HTTPHeader("Content-Type", "text/plain; charset=utf-8")],
                body: Data(text.utf8)
            )
        }

        /// A redirect to `location` (absolute or relative, sent as is).
        package static func redirect(to location: String, status: Int = 302) -> Response {
            Response(status: status, headers: [HTTPHeader("Location", location)])
        }

        /// A redirect to `url`.
        package static func redirect(to url: URL, status: Int = 302) -> Response {
            redirect(to: url.absoluteString, status: status)
        }

        /// A response that never comes.
        package static var hang: Response { Response(delivery: .hang) }

        /// This response, sent after `latency`.
        package func delayed(by latency: Duration) -> Response {
            var copy = self
            copy.delay = latency
            return copy
        }

        /// This response, delivered as `delivery`.
        package func delivered(_ delivery: Delivery) -> Response {
            var copy = self
            copy.delivery = delivery
            return copy
        }
    }

    /// The server could not start: which system call failed, and `errno`.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// The failing step, e.g. `bind 127.0.0.1:0`.
        package var operation: String
        /// The `errno` value (0 when not from a system call).
        package var code: Int32

        init(_ operation: String, _ code: Int32) {
            self.operation = operation
            self.code = code
        }

        package var description: String {
            "loopback server: \(operation) failed: \(String(cString: strerror(code))) (errno \(code))"
        }
    }
}

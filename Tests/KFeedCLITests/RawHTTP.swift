import Foundation
import KFeedBase
import KFeedImages

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A minimal HTTP/1.1 client over a plain socket, for what libcurl would tidy up: raw paths (`/../`), any method,
/// HEAD, request bodies, pipelining and slow senders. One request per connection (closed after its answer).
enum RawHTTP {
    /// A parsed answer.
    struct Reply: Sendable {
        var status: Int
        /// Header names in lower case.
        var headers: [String: String]
        var body: [UInt8]

        var text: String { String(decoding: body, as: UTF8.self) }

        func json() throws -> [String: Any] {
            try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] ?? [:]
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Sends one request to `127.0.0.1:port` and reads the answer (headers, then `Content-Length` bytes unless
    /// `HEAD`, else to the end). Runs on a thread of its own, not the cooperative pool.
    static func request(
        _ method: String = "GET",
        _ target: String,
        port: Int,
        headers: [(String, String)] = [],
        body: [UInt8] = []
    ) async throws -> Reply {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { text += "Content-Length: \(body.count)\r\n" }
        text += "\r\n"
        let isHead = method == "HEAD"
        let raw = try await exchange(Array(text.utf8) + body, port: port) { readAnswer(from: $0, isHead: isHead) }
        return try parse(raw, isHead: isHead)
    }

    /// Sends `requests` (complete request texts) in one write on one connection and reads until the server closes
    /// it: the raw bytes of every answer, in the order they came.
    static func pipelined(_ requests: [String], port: Int) async throws -> [UInt8] {
        try await exchange(Array(requests.joined().utf8), port: port) { read(from: $0) }
    }

    /// Connects to `127.0.0.1:port`; nil when the connection fails.
    static func connect(port: Int, timeoutSeconds: Int = 15) -> Int32? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    /// Writes all of `bytes`; false when the peer has gone.
    @discardableResult
    static func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count <= 0 { return false }
            sent += count
        }
        return true
    }

    /// Reads until the peer closes, the answer is complete, or the receive timeout passes.
    static func readAnswer(from descriptor: Int32, isHead: Bool) -> [UInt8] {
        read(from: descriptor) { data in expectedLength(data, isHead: isHead).map { data.count >= $0 } ?? false }
    }

    /// Reads until the peer closes, `isComplete` says the bytes so far are enough, or the receive timeout passes.
    private static func read(from descriptor: Int32, until isComplete: ([UInt8]) -> Bool = { _ in false }) -> [UInt8] {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            data += buffer[..<count]
            if isComplete(data) { break }
        }
        return data
    }

    /// Connects on a thread of its own (the socket calls block), sends `bytes` and returns what `read` reads back.
    private static func exchange(
        _ bytes: [UInt8],
        port: Int,
        read: @escaping @Sendable (Int32) -> [UInt8]
    ) async throws -> [UInt8] {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                guard let descriptor = connect(port: port) else {
                    continuation.resume(throwing: Failure(description: "cannot connect to port \(port)"))
                    return
                }
                defer { close(descriptor) }
                write(bytes, to: descriptor)
                continuation.resume(returning: read(descriptor))
            }
        }
    }

    /// The whole answer's length once its headers are in (headers + Content-Length), nil before.
    private static func expectedLength(_ data: [UInt8], isHead: Bool) -> Int? {
        guard let end = headerEnd(data) else { return nil }
        let head = String(decoding: data[..<end], as: UTF8.self).lowercased()
        if isHead || head.hasPrefix("http/1.1 304") || head.hasPrefix("http/1.1 204") { return end + 4 }
        guard let match = head.firstMatch(of: /content-length: *(\d+)/), let length = Int(match.output.1) else {
            return nil
        }
        return end + 4 + length
    }

    private static func headerEnd(_ data: [UInt8]) -> Int? {
        guard data.count >= 4 else { return nil }
        for index in 0...(data.count - 4)
        where data[index] == 13 && data[index + 1] == 10 && data[index + 2] == 13 && data[index + 3] == 10 {
            return index
        }
        return nil
    }

    static func parse(_ data: [UInt8], isHead: Bool) throws -> Reply {
        guard let end = headerEnd(data) else {
            throw Failure(description: "no complete answer: \(String(decoding: data.prefix(200), as: UTF8.self))")
        }
        let lines = String(decoding: data[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw Failure(description: "bad status line \(lines[0])")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces
            )
        }
        return Reply(status: status, headers: headers, body: Array(data[(end + 4)...]))
    }
}

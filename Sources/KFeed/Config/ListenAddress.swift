#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where `kfeed serve` listens: `HOST:PORT`, `[IPv6]:PORT`; port 0 picks a free one.
package struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    /// The host: an IPv4 or IPv6 address, or a name (`localhost`).
    package var host: String
    /// The TCP port, 0…65535.
    package var port: Int

    /// The default, `127.0.0.1:8787`.
    package static let `default` = ListenAddress(host: "127.0.0.1", port: 8787)

    /// Creates an address.
    package init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT` or `[IPv6]:PORT`; nil for anything else.
    package init?(parsing text: String) {
        let host: Substring
        let port: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                return nil
            }
            host = text[text.index(after: text.startIndex)..<close]
            port = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { return nil }
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, let number = Int(port), (0...65_535).contains(number), port.allSatisfy(\.isNumber) else {
            return nil
        }
        self.init(host: String(host), port: number)
    }

    /// Whether only this machine can connect: `localhost`, `127.0.0.0/8` or `::1`.
    package var isLoopback: Bool {
        if host == "localhost" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            return UInt32(bigEndian: v4.s_addr) >> 24 == 127
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { bytes in bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1 }
        }
        return false
    }

    /// The address as a URL's authority (`127.0.0.1:8787`, `[::1]:8787`).
    package var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}

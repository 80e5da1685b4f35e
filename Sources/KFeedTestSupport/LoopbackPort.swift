import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Ports on 127.0.0.1 for tests: one bound by a socket that never listens.
package enum LoopbackPort {
    /// A TCP socket bound to a port of 127.0.0.1 the kernel chose, not listening; the caller closes it.
    package static func bound() throws -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else {
            let failure = POSIXError(.init(rawValue: errno) ?? .EIO)
            close(descriptor)
            throw failure
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Runs `body` with a port that refuses connections meanwhile: bound and never listening. Unlike a stopped
    /// server's port, no other test's server can be given it (the kernel does not hand out a bound port), so a
    /// connection to it is refused however the tests run side by side.
    package static func refusing<T>(_ body: (Int) async throws -> T) async throws -> T {
        let (descriptor, port) = try bound()
        defer { close(descriptor) }
        return try await body(port)
    }
}

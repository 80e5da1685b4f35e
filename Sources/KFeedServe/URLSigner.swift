/// Signs the file URLs the server hands out (`image_url`, `<img src>` on `/widget` and `/`), so that a client that
/// can send no header (a browser loading an image, TRMNL's firmware fetching `image_url`) can fetch them when a key
/// is required, without the key ever appearing in a URL the server writes.
///
/// A signature is two SipHash values (Swift's `Hasher`, randomly seeded per process) over a 32-byte random
/// secret and the path: valid for the life of this server process, for that path only.
struct URLSigner: Sendable {
    /// The query parameter that carries a signature.
    static let parameter = "sig"

    private let secret: [UInt8]

    /// A signer with a fresh random secret.
    init() {
        var generator = SystemRandomNumberGenerator()
        secret = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// The signature of `path` (without a leading `/`): 32 hex digits.
    func signature(for path: String) -> String {
        let halves = [UInt8(1), UInt8(2)].map { domain in
            var hasher = Hasher()
            hasher.combine(domain)
            hasher.combine(secret.count)
            for byte in secret { hasher.combine(byte) }
            hasher.combine(path)
            return UInt64(bitPattern: Int64(hasher.finalize()))
        }
        return halves.map { half in
            let hex = String(half, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// Whether `signature` is the signature of `path` (compared in constant time).
    func isValid(_ signature: String, for path: String) -> Bool {
        AccessKey.constantTimeEquals(Array(signature.utf8), Array(self.signature(for: path).utf8))
    }
}

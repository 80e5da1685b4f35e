import KFeedBase

/// Signs the file URLs the server hands out (`image_url`, `<img src>` on `/widget` and `/`), so that a client that
/// can send no header (a browser loading an image, TRMNL's firmware fetching `image_url`) can fetch them when a key
/// is required, without the key ever appearing in a URL the server writes.
///
/// A signature is HMAC-SHA-256 under the server's key (`--key-file`) of ``domain`` and the URL's path (without the
/// leading `/`: `images/….jpg`, or `f/NAME/images/….jpg` under a feed's prefix), cut to 128 bits (32 hex digits). It
/// depends on nothing else: every client is handed the same URL for a picture, so a shared cache keeps one copy per
/// picture; it stays the same across restarts, so URLs handed out (and copies kept) before one keep working; another
/// key makes other signatures, so changing the key revokes them all. It tells nothing of the key, and is valid for
/// that path only (another feed's same file included).
struct URLSigner: Sendable {
    /// The query parameter that carries a signature.
    static let parameter = "sig"
    /// What precedes the path in the signed message, so that a signature is never a MAC of anything else.
    static let domain = "kfeed url signature\n"

    private let key: [UInt8]

    /// A signer for the server's key.
    /// - Throws: `KFeedError` `.configuration` when libcrypto, which makes the signatures, cannot be loaded.
    init(key: AccessKey) throws(KFeedError) {
        try HMACSHA256.checkAvailable()
        self.key = Array(key.text.utf8)
    }

    /// The signature of `path` (without a leading `/`): 32 hex digits.
    func signature(for path: String) -> String {
        let mac = HMACSHA256.mac(key: key, message: Array((Self.domain + path).utf8))
        return mac.prefix(16).map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
    }

    /// Whether `signature` is the signature of `path` (compared in constant time).
    func isValid(_ signature: String, for path: String) -> Bool {
        AccessKey.constantTimeEquals(Array(signature.utf8), Array(self.signature(for: path).utf8))
    }
}

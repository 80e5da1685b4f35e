import CKFeedCrypto
import KFeedBase

/// HMAC-SHA-256 from OpenSSL's libcrypto (`Sources/CKFeedCrypto/shim.h`), what ``URLSigner`` signs picture URLs with.
enum HMACSHA256 {
    /// Whether libcrypto loaded with both functions, looked up once (every signed URL of every answer asks).
    private static let isAvailable = kfeed_crypto_available() != 0

    /// Whether libcrypto could be loaded; checked when a keyed server starts.
    /// - Throws: `KFeedError` `.configuration` when it cannot.
    static func checkAvailable() throws(KFeedError) {
        guard isAvailable else {
            throw KFeedError(
                .configuration,
                "libcrypto.so.3 cannot be loaded, and a keyed server signs its picture URLs with it: install Debian's "
                    + "libssl3 package"
            )
        }
    }

    /// The 32-byte MAC of `message` under `key`; empty when libcrypto failed, which ``checkAvailable()`` rules out
    /// before a server starts.
    static func mac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        guard isAvailable, key.count <= Int(Int32.max) else { return [] }
        var mac = [UInt8](repeating: 0, count: Int(KFEED_HMAC_SHA256_LENGTH))
        let ok = key.withUnsafeBufferPointer { key in
            message.withUnsafeBufferPointer { message in
                mac.withUnsafeMutableBufferPointer { mac in
                    kfeed_hmac_sha256(
                        key.baseAddress,
                        Int32(key.count),
                        message.baseAddress,
                        message.count,
                        mac.baseAddress
                    )
                }
            }
        }
        return ok == 1 ? mac : []
    }
}

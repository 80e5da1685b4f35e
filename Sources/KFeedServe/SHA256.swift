import CKFeedCrypto
import KFeedBase

/// SHA-256, from OpenSSL's libcrypto (`Sources/CKFeedCrypto/shim.h`): Foundation on Linux has no CryptoKit, and
/// libcrypto.so.3 is on every machine that has libcurl.so.4, which kfeed needs anyway.
enum SHA256 {
    /// The 32-byte digest of `bytes`.
    /// - Throws: `KFeedError` `.configuration` when libcrypto.so.3 cannot be loaded.
    static func digest(_ bytes: [UInt8]) throws(KFeedError) -> [UInt8] {
        guard kfeed_crypto_available() != 0 else {
            throw KFeedError(.configuration, "libcrypto.so.3 cannot be loaded; install Debian's libssl3 package")
        }
        var digest = [UInt8](repeating: 0, count: Int(KFEED_SHA256_DIGEST_LENGTH))
        bytes.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                _ = kfeed_sha256(input.baseAddress, input.count, output.baseAddress)
            }
        }
        return digest
    }
}

import Foundation
import Testing

@testable import KFeedServe

/// The signatures of the picture URLs a keyed server hands out: HMAC-SHA-256 under the key, of the path alone.
struct URLSignerTests {
    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    private static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count, by: 2).compactMap {
            UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)
        }
    }

    /// RFC 4231's test cases 1, 2 and 6 (a key longer than a block), through libcrypto as the server calls it.
    @Test(arguments: [
        (
            String(repeating: "0b", count: 20), Array("Hi There".utf8),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        ),
        (
            "4a656665", Array("what do ya want for nothing?".utf8),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        ),
        (
            String(repeating: "aa", count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        ),
    ])
    func hmacMatchesRFC4231(_ key: String, _ message: [UInt8], _ mac: String) {
        #expect(Self.hex(HMACSHA256.mac(key: Self.bytes(key), message: message)) == mac)
    }

    @Test func aSignatureDependsOnTheKeyAndThePathAloneAndNamesThemBoth() throws {
        let key = try #require(AccessKey("s3cret-Key_0123456789"))
        let signer = try URLSigner(key: key)
        let path = "f/pets/images/3_1859170000000100010-340x340.jpg"
        let signature = signer.signature(for: path)
        // The same for another signer of the same key (another client, another process), 32 hex digits.
        #expect(try URLSigner(key: key).signature(for: path) == signature)
        #expect(signature.count == 32 && signature.allSatisfy(\.isHexDigit))
        // HMAC-SHA-256 of the domain and the path, cut to 128 bits.
        let mac = HMACSHA256.mac(key: Array(key.text.utf8), message: Array((URLSigner.domain + path).utf8))
        #expect(signature == Self.hex(Array(mac.prefix(16))))
        #expect(signer.isValid(signature, for: path))
        // Not valid for the same file of another feed, nor under another key.
        #expect(!signer.isValid(signature, for: "f/news/images/3_1859170000000100010-340x340.jpg"))
        #expect(!signer.isValid(signature, for: "images/3_1859170000000100010-340x340.jpg"))
        #expect(try URLSigner(key: try #require(AccessKey("another-key"))).signature(for: path) != signature)
        #expect(!signer.isValid(String(signature.dropLast()), for: path))
    }
}

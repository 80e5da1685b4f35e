package import Foundation

/// What decides whether two pictures are the same photo (`docs/timeline.md`): a ``PerceptualHash`` within
/// ``candidateHashDistance`` makes a candidate (a cheap test on 64 bits), and a ``ColourSignature`` within its
/// threshold confirms it. The hash alone sees only the grey layout, so it calls a whole teaser series one picture.
package struct PictureIdentity: Sendable, Hashable {
    /// The grey layout.
    package var hash: PerceptualHash
    /// The colours, cell by cell.
    package var signature: ColourSignature

    /// The largest hash distance at which two pictures are compared by colour: reposts measure up to 20 (a crop
    /// moves many bits), different photos about 32 (`bench/reposts.sh`).
    package static let candidateHashDistance = 24

    package init(hash: PerceptualHash, signature: ColourSignature) {
        self.hash = hash
        self.signature = signature
    }

    /// The identity of a JPEG (a widget thumbnail); nil when it cannot be decoded.
    package static func of(jpeg: Data) -> PictureIdentity? {
        guard let hash = PerceptualHash.of(jpeg: jpeg), let signature = ColourSignature.of(jpeg: jpeg) else {
            return nil
        }
        return PictureIdentity(hash: hash, signature: signature)
    }

    /// Whether `other` shows the same photo: a hash candidate confirmed by colour.
    package func isSamePicture(as other: PictureIdentity) -> Bool {
        hash.distance(to: other.hash) <= Self.candidateHashDistance && signature.isSamePicture(as: other.signature)
    }
}

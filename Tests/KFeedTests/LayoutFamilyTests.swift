import Foundation
import KFeedTestSupport
import Testing

/// The look-alike families' members as pictures, without judging them by the repost rule (that is the repost
/// benchmark's work): one seed always draws the same pixels, and members differ inside the square a `small` widget
/// crops to (rows 68–611 of a 544×680 member), where a viewer sees them. The `inset` and `pasted` families are left
/// out: they are made of the corpus's real photos, which a test does not have.
struct LayoutFamilyTests {
    private static let (width, height) = (544, 680)

    /// Pixels inside the widget's crop that differ by more than 48 in a channel between `a` and `b`.
    private static func differingPixelsInTheCrop(_ a: [UInt8], _ b: [UInt8]) -> Int {
        let top = (height - width) / 2
        var count = 0
        for row in top..<(top + width) {
            for column in 0..<width {
                let offset = (row * width + column) * 3
                if (0..<3).contains(where: { abs(Int(a[offset + $0]) - Int(b[offset + $0])) > 48 }) { count += 1 }
            }
        }
        return count
    }

    @Test(arguments: [LayoutFamily.nutrition, .crossword, .ticker, .shelf])
    func aSeedDrawsTheSamePixelsEveryTime(family: LayoutFamily) {
        let first = family.picture(seed: 5, width: Self.width, height: Self.height)
        #expect(first.count == Self.width * Self.height * 3)
        #expect(first == family.picture(seed: 5, width: Self.width, height: Self.height))
    }

    @Test(arguments: [LayoutFamily.nutrition, .crossword, .ticker, .shelf])
    func membersDifferInsideTheWidgetsCrop(family: LayoutFamily) {
        let members = (0..<6).map { family.picture(seed: $0, width: Self.width, height: Self.height) }
        for a in members.indices {
            for b in members.indices where b > a {
                // At least a few glyphs' worth: a 10 px digit has about 30 inked pixels.
                let differing = Self.differingPixelsInTheCrop(members[a], members[b])
                #expect(differing >= 60, "members \(a) and \(b) differ in \(differing) pixels of the crop")
            }
        }
    }
}

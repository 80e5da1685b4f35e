import Foundation
import KFeedImages
import Testing

@testable import KFeed

/// ``Refresher/EarlyComparisons``: the comparisons made as a refresh's pictures are identified, in any order and from
/// several threads at once, answer as ``Refresher/SamePictures`` does when it makes them all itself.
struct RefresherEarlyComparisonsTests {
    typealias Shown = (identity: PictureIdentity, shownAt: Date)

    /// Six pictures: two pairs of the same photo, one missing, one repeat entry; one photo shown twice before.
    static func pictures() throws -> (identities: [PictureIdentity?], mayBeKept: [Bool], shown: [Shown]) {
        let first = try RefresherSamePicturesTests.identity(hue: 0, corner: 4)
        let other = try RefresherSamePicturesTests.identity(hue: 90, corner: 40)
        let third = try RefresherSamePicturesTests.identity(hue: 180, corner: 20, side: 30)
        let shownAt = Date(timeIntervalSince1970: 1_800_000_000)
        return (
            [first, other, nil, first, third, other],
            [true, true, true, true, false, true],
            [(third, shownAt), (third, shownAt.addingTimeInterval(60)), (first, shownAt.addingTimeInterval(-60))]
        )
    }

    /// Every answer `same` gives, in order: each picture against each earlier one that may be kept, then against the
    /// shown ones.
    static func answers(_ same: inout Refresher.SamePictures, count: Int, mayBeKept: [Bool]) -> [String] {
        var answers: [String] = []
        for index in 0..<count {
            for earlier in 0..<index where mayBeKept[earlier] {
                answers.append("\(index)-\(earlier): \(same.isSame(index, as: earlier))")
            }
            answers.append("\(index) shown: \(same.lastShown(index).map(\.timeIntervalSince1970) ?? 0)")
        }
        return answers
    }

    @Test(arguments: [0, 4, 6])
    func recordedInAnyOrderTheAnswersAreTheTables(onDemandFrom: Int) throws {
        let (identities, mayBeKept, shown) = try Self.pictures()
        var alone = Refresher.SamePictures(identities, mayBeKept: mayBeKept, shown: shown, onDemandFrom: onDemandFrom)
        let expected = Self.answers(&alone, count: identities.count, mayBeKept: mayBeKept)
        #expect(expected.contains("3-0: true") && expected.contains("5-1: true") && expected.contains("4 shown: 0.0"))
        #expect(expected.contains("0 shown: 1799999940.0") && expected.contains("3 shown: 1799999940.0"))
        for order in [[0, 1, 3, 4, 5], [5, 4, 3, 1, 0], [3, 0, 5, 1, 4]] {
            let early = Refresher.EarlyComparisons(mayBeKept: mayBeKept, onDemandFrom: onDemandFrom, shown: shown)
            for index in order { early.record(try #require(identities[index]), at: [index]) }
            let made = early.answers()
            // Each pair made up front is answered, in the later picture's direction; none left until asked for.
            for index in identities.indices {
                for earlier in 0..<index {
                    let upFront = !mayBeKept[index] || index < onDemandFrom
                    let wanted = upFront && mayBeKept[earlier] && identities[index] != nil && identities[earlier] != nil
                    #expect(
                        (made.same[index * identities.count + earlier] != nil) == wanted,
                        "\(order) \(index)-\(earlier)"
                    )
                }
                #expect((made.shownAt[index] != nil) == (mayBeKept[index] && identities[index] != nil), "\(index)")
            }
            var taken = Refresher.SamePictures(
                identities,
                mayBeKept: mayBeKept,
                shown: shown,
                onDemandFrom: onDemandFrom,
                known: made
            )
            #expect(Self.answers(&taken, count: identities.count, mayBeKept: mayBeKept) == expected, "\(order)")
        }
    }

    @Test func recordedFromManyThreadsAtOnceEveryPairIsMadeOnce() async throws {
        let (identities, mayBeKept, shown) = try Self.pictures()
        var alone = Refresher.SamePictures(identities, mayBeKept: mayBeKept, shown: shown)
        let expected = Self.answers(&alone, count: identities.count, mayBeKept: mayBeKept)
        for _ in 0..<20 {
            let early = Refresher.EarlyComparisons(mayBeKept: mayBeKept, onDemandFrom: .max, shown: shown)
            let lanes = DecodeLanes(count: 3)
            await withTaskGroup(of: Void.self) { group in
                for index in identities.indices {
                    guard let identity = identities[index] else { continue }
                    group.addTask { await lanes.run { early.record(identity, at: [index]) } }
                }
            }
            var taken = Refresher.SamePictures(identities, mayBeKept: mayBeKept, shown: shown, known: early.answers())
            #expect(Self.answers(&taken, count: identities.count, mayBeKept: mayBeKept) == expected)
        }
    }

    @Test func answersMadeWithAnotherIdentityAreNotTaken() throws {
        let (identities, mayBeKept, shown) = try Self.pictures()
        let early = Refresher.EarlyComparisons(mayBeKept: mayBeKept, onDemandFrom: .max, shown: shown)
        // Picture 3 recorded as picture 1's photo: its answers (the same as 1, 5) must not stand for its own.
        for index in [0, 1, 4, 5] { early.record(try #require(identities[index]), at: [index]) }
        early.record(try #require(identities[1]), at: [3])
        let made = early.answers()
        #expect(made.same[3 * 6 + 1] == true && made.same[5 * 6 + 3] == true)
        var alone = Refresher.SamePictures(identities, mayBeKept: mayBeKept, shown: shown)
        var taken = Refresher.SamePictures(identities, mayBeKept: mayBeKept, shown: shown, known: made)
        #expect(
            Self.answers(&taken, count: 6, mayBeKept: mayBeKept) == Self.answers(&alone, count: 6, mayBeKept: mayBeKept)
        )
        // Answers for another number of pictures are not taken at all.
        let shorter = Refresher.SamePictures(
            Array(identities.prefix(5)),
            mayBeKept: mayBeKept,
            shown: shown,
            known: made
        )
        #expect(shorter.lastShown(0) == alone.lastShown(0))
    }
}

import Foundation
import KFeedBase
import KFeedTestSupport
import Testing

@testable import KFeed
@testable import KFeedImages
@testable import KFeedX

/// What was shown, for the no-repeat window: which records a refresh still counts, and the bound.
struct HistoryTests {
    private static let t0 = Date(timeIntervalSince1970: 1_795_338_000)  // 2026-11-22T09:00:00Z
    private static let day: TimeInterval = 86_400

    private static func record(_ id: Int, shownAt: Date, generation: Date) -> History.Record {
        History.Record(
            postID: "18591700000000\(id)",
            mediaKey: "3_18591700000001\(id)",
            hash: nil,
            shownAt: shownAt,
            generation: generation
        )
    }

    private static func manifest(generatedAt: Date) -> Manifest {
        Manifest(
            generatedAt: generatedAt,
            query: "q",
            policy: .atEnd,
            reloadAfter: nil,
            size: .small,
            interval: .hour,
            entries: []
        )
    }

    @Test func recordsOutsideTheWindowAreForgotten() {
        var history = History()
        history.records = [
            Self.record(
                10001,
                shownAt: Self.t0.addingTimeInterval(-8 * Self.day),
                generation: Self.t0.addingTimeInterval(-8 * Self.day)
            ),
            Self.record(
                10002,
                shownAt: Self.t0.addingTimeInterval(-6 * Self.day),
                generation: Self.t0.addingTimeInterval(-6 * Self.day)
            ),
        ]
        let current = history.current(replacing: nil, at: Self.t0, window: 7 * Self.day)
        #expect(current.postIDs == ["1859170000000010002"])
    }

    @Test func entriesOfAReplacedTimelineWhoseHourHadNotBegunWereNeverShown() {
        let generation = Self.t0.addingTimeInterval(-3 * 3_600)
        var history = History()
        history.records = (0..<5).map {
            Self.record(10000 + $0, shownAt: generation.addingTimeInterval(Double($0) * 3_600), generation: generation)
        }
        // Replaced at t0: entries 0…2 came up (09:00 is this instant: not shown yet), 3 and 4 never did.
        let current = history.current(
            replacing: Self.manifest(generatedAt: generation),
            at: Self.t0,
            window: 7 * Self.day
        )
        #expect(current.records.map(\.postID) == (10000...10002).map { "18591700000000\($0)" })
    }

    @Test func recordsOfAGenerationThatWasNeverCommittedAreIgnored() {
        // A run killed after writing history.json, before its manifest: the committed manifest is older.
        let committed = Self.t0.addingTimeInterval(-Self.day)
        var history = History()
        history.records = [
            Self.record(10001, shownAt: committed, generation: committed),
            Self.record(10002, shownAt: Self.t0.addingTimeInterval(-60), generation: Self.t0.addingTimeInterval(-60)),
        ]
        let current = history.current(
            replacing: Self.manifest(generatedAt: committed),
            at: Self.t0,
            window: 7 * Self.day
        )
        #expect(current.postIDs == ["1859170000000010001"])
    }

    @Test func aSchemaOneHistoryStillLoadsAndItsPicturesAreNotCompared() throws {
        // Written before records kept a detail signature: a coarser colour signature under `signature`.
        let json = #"""
            {"schema":1,"records":[{"post_id":"1859170000000000101","media_key":"3_1859170000000100101",
            "hash":"0f0f0f0f0f0f0f0f","signature":"AAAA","shown_at":"2026-11-22T09:00:00Z",
            "generation":"2026-11-22T09:00:00Z"}]}
            """#
        let history = try InstantFormat.jsonDecoder().decode(History.self, from: Data(json.utf8))
        #expect(history.schema == 1)
        #expect(history.postIDs == ["1859170000000000101"])
        #expect(history.mediaKeys == ["3_1859170000000100101"])
        #expect(history.pictures.isEmpty)
        #expect(History().schema == 3)
    }

    @Test func aSchemaTwoHistoryStillLoadsAndItsPicturesAreComparedWithoutFineCells() throws {
        let jpeg = try TestJPEG.jpeg(
            LayoutFamily.meme.picture(seed: 2, width: 544, height: 680),
            width: 544,
            height: 680
        )
        let thumbnail = try JPEGThumbnailer().thumbnail(of: jpeg, size: .small)
        let identity = try #require(PictureIdentity.of(jpeg: thumbnail))
        #expect(identity.detail.fine != nil)
        // Written before records kept fine cells: the hash and the detail signature only.
        let json = """
            {"schema":2,"records":[{"post_id":"1859170000000000101","media_key":"3_1859170000000100101",
            "hash":"\(identity.hash.description)","detail":"\(identity.detail.base64)",
            "shown_at":"2026-11-22T09:00:00Z","generation":"2026-11-22T09:00:00Z"}]}
            """
        let history = try InstantFormat.jsonDecoder().decode(History.self, from: Data(json.utf8))
        #expect(history.schema == 2)
        let shown = try #require(history.pictures["3_1859170000000100101"]).identity
        #expect(shown.detail.fine == nil)
        #expect(shown.detail.bytes == identity.detail.bytes)
        #expect(shown.isSamePicture(as: identity))
        // Written now: the fine cells come back.
        var current = History()
        current.records = [
            History.Record(
                postID: "1859170000000000101",
                mediaKey: "3_1859170000000100101",
                hash: identity.hash.description,
                detail: identity.detail.base64,
                fine: identity.detail.fineBase64,
                shownAt: Self.t0,
                generation: Self.t0
            )
        ]
        let loaded = try InstantFormat.jsonDecoder().decode(
            History.self,
            from: InstantFormat.jsonEncoder().encode(current)
        )
        #expect(loaded.schema == 3)
        // The finer cells are kept beside the file (history-cells.bin), not in it.
        #expect(
            loaded.pictures["3_1859170000000100101"]?.identity
                == PictureIdentity(
                    hash: identity.hash,
                    detail: try #require(DetailSignature(bytes: identity.detail.bytes, fine: identity.detail.fine))
                )
        )
    }

    @Test func recordedPicturesKeepTheirFinerCellsOnceEachInTheRecordsOrder() throws {
        let identities = try [50, 52].map { seed in
            let jpeg = try TestJPEG.jpeg(
                LayoutFamily.receipt.picture(seed: seed, width: 544, height: 680),
                width: 544,
                height: 680
            )
            return try #require(PictureIdentity.of(jpeg: try JPEGThumbnailer().thumbnail(of: jpeg, size: .small)))
        }
        var manifest = Self.manifest(generatedAt: Self.t0)
        var results = SearchResults()
        try results.append(responseBody: try Fixture.data("recent-search.kpop.json"))
        let builder = TimelineBuilder(entryCount: 3)
        manifest = builder.manifest(
            for: builder.selection(from: results.feedItems, isExhausted: true),
            query: .default,
            size: .small,
            now: Self.t0
        )
        let keys = manifest.entries.map(\.media.key)
        var history = History()
        // The third entry has no identity (as a placeholder): no cells.
        history.record(manifest, identities: [keys[0]: identities[0], keys[1]: identities[1]])
        history.record(manifest, identities: [keys[0]: identities[0], keys[1]: identities[1]])
        #expect(history.records.count == 6)
        #expect(history.recordedFiner.map(\.key) == [keys[0], keys[1]])
        #expect(history.recordedFiner.map(\.cells) == identities.map { $0.detail.finer })
        // Read back, the pictures are the identities a refresh made, finer cells included: still two pictures.
        let pictures = history.pictures
        #expect(pictures[keys[0]]?.identity == identities[0])
        #expect(pictures[keys[1]]?.identity == identities[1])
        #expect(pictures[keys[0]]?.identity.isSamePicture(as: identities[1]) == false)
    }

    @Test func historyIsBounded() throws {
        var history = History()
        let items = try Fixture.data("recent-search.kpop.json")
        var results = SearchResults()
        try results.append(responseBody: items)
        let builder = TimelineBuilder(entryCount: 4)
        let manifest = builder.manifest(
            for: builder.selection(from: results.feedItems, isExhausted: true),
            query: .default,
            size: .small,
            now: Self.t0
        )
        for _ in 0..<(History.maxRecords / 4 + 10) { history.record(manifest, identities: [:]) }
        #expect(history.records.count == History.maxRecords)
    }

    @Test func perceptualHashSeesThePictureNotTheBytes() throws {
        let picture = TestJPEG.blocks(seed: 7, width: 480, height: 360)
        let original = try #require(PictureIdentity.of(jpeg: try TestJPEG.jpeg(picture, width: 480, height: 360))?.hash)
        let small = TestJPEG.blocks(seed: 7, width: 240, height: 180)
        let repost = try #require(
            PictureIdentity.of(jpeg: try TestJPEG.jpeg(small, width: 240, height: 180, progressive: true))?.hash
        )
        let other = try #require(
            PictureIdentity.of(
                jpeg: try TestJPEG.jpeg(TestJPEG.blocks(seed: 8, width: 480, height: 360), width: 480, height: 360)
            )?.hash
        )
        #expect(original.distance(to: repost) <= 2)
        #expect(original.distance(to: other) > PictureIdentity.candidateHashDistance)
        #expect(PerceptualHash(original.description) == original)
    }
}

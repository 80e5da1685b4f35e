import Foundation
import KFeedBase
import KFeedTestSupport
import Testing

@testable import KFeed
@testable import KFeedHTTP
@testable import KFeedImages
@testable import KFeedX

/// The refresher with display profiles: every entry gets a render per profile, named in the manifest, made from
/// the rendition that covers the panel, reused when nothing it shows changed, swept with its generation, and a
/// placeholder card where the picture cannot be had.
struct RefresherRendersTests {
    private static let t0 = Date(timeIntervalSince1970: 1_795_338_000)  // 2026-11-22T09:00:00Z

    /// The kpop search; photos are distinct JPEGs, except `broken` media ids, which answer 404.
    private static func transport(broken: Set<Int> = []) throws -> StubTransport {
        try StubTransport.kpop { id, request in
            if broken.contains(id) { return HTTPResponse(status: 404, body: Data(), url: request.url) }
            let pixels = TestJPEG.blocks(seed: id, width: 1200, height: 900)
            return HTTPResponse(
                status: 200,
                body: try TestJPEG.jpeg(pixels, width: 1200, height: 900),
                url: request.url
            )
        }
    }

    private static func refresher(
        _ directory: URL,
        transport: StubTransport,
        profiles: [String],
        captions: Bool = true
    ) throws -> Refresher {
        var settings = FeedSettings(
            query: .default,
            builder: TimelineBuilder(entryCount: 3),
            size: .small,
            noRepeatWindow: 0,
            profiles: try profiles.map { try DisplayProfile(parsing: $0) }
        )
        settings.captions = captions
        return Refresher.testing(in: directory, transport: transport, settings: settings)
    }

    private static func refreshed(_ outcome: Refresher.Outcome) throws -> (Manifest, Refresher.Summary) {
        guard case .refreshed(let manifest, let summary) = outcome else { throw KFeedError(.io, "expected a refresh") }
        return (manifest, summary)
    }

    /// The share of white pixels in an RGBA decoding.
    private static func whiteFraction(_ png: DecodedPNG) -> Double {
        let pixels = stride(from: 0, to: png.rgba.count, by: 4)
        let white = pixels.filter { png.rgba[$0] == 255 && png.rgba[$0 + 1] == 255 && png.rgba[$0 + 2] == 255 }
        return Double(white.count) / Double(png.width * png.height)
    }

    @Test func everyEntryGetsARenderPerProfileNamedInTheManifest() async throws {
        try await TemporaryDirectory.withAsync { directory in
            let transport = try Self.transport()
            let refresher = try Self.refresher(directory, transport: transport, profiles: ["trmnl", "inkplate"])
            let (manifest, summary) = try Self.refreshed(try await refresher.refresh(now: Self.t0))
            #expect(summary.rendered == 6)
            for entry in manifest.entries {
                let renders = try #require(entry.renders)
                #expect(Set(renders.keys) == ["trmnl", "inkplate"])
                let trmnl = try #require(renders["trmnl"])
                let png = try #require(refresher.store.data(at: trmnl))
                let decoded = try DecodedPNG(png)
                #expect(decoded.width == 800 && decoded.height == 480 && decoded.bitDepth == 1)
                let inkplate = try #require(renders["inkplate"])
                let jpeg = try #require(refresher.store.data(at: inkplate))
                let structure = try jpeg.withUnsafeBytes { try JPEGStructure.parse($0, maxScans: 10) }
                #expect(structure.width == 800 && structure.height == 600)
            }
            // The photos were fetched at a rendition that covers the panel, besides the widget's.
            let names = transport.requests.compactMap { request in
                URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems?
                    .first { $0.name == "name" }?.value
            }
            #expect(names.contains("small"))
            #expect(names.contains("medium"))
        }
    }

    @Test func rendersAreReusedWhenNothingTheyShowChangedAndSweptWithTheirGeneration() async throws {
        try await TemporaryDirectory.withAsync { directory in
            let refresher = try Self.refresher(directory, transport: try Self.transport(), profiles: ["grey4"])
            let (first, _) = try Self.refreshed(try await refresher.refresh(now: Self.t0))
            let (again, summary) = try Self.refreshed(try await refresher.refresh(now: Self.t0, force: true))
            #expect(summary.rendered == 0)
            #expect(again.entries.map(\.renders) == first.entries.map(\.renders))
            // An hour later the same posts show the same attribution (the post's time, not the entry's hour): the
            // same files.
            let (later, laterSummary) = try Self.refreshed(
                try await refresher.refresh(now: Self.t0.addingTimeInterval(3_600), force: true)
            )
            #expect(laterSummary.rendered == 0)
            #expect(
                Set(later.entries.compactMap { $0.renders?["grey4"] })
                    == Set(first.entries.compactMap { $0.renders?["grey4"] })
            )
            // Without the caption band they show the slim line: new renders; two generations on, the first are gone.
            let bare = try Self.refresher(
                directory,
                transport: try Self.transport(),
                profiles: ["grey4"],
                captions: false
            )
            let (lineOnly, lineSummary) = try Self.refreshed(
                try await bare.refresh(now: Self.t0.addingTimeInterval(7_200), force: true)
            )
            #expect(lineSummary.rendered == 3)
            _ = try await bare.refresh(now: Self.t0.addingTimeInterval(10_800), force: true)
            let files = try FileManager.default.contentsOfDirectory(
                atPath: directory.appendingPathComponent("renders").path
            )
            let firstNames = first.entries.compactMap { $0.renders?["grey4"] }.map {
                ($0 as NSString).lastPathComponent
            }
            #expect(Set(files).isDisjoint(with: firstNames))
            #expect(lineOnly.entries.allSatisfy { $0.renders?["grey4"] != nil })
        }
    }

    /// The caption band's avatar is read from the file the refresh itself writes: every render of a new cache is
    /// named (and drawn) for its avatar, never for a caption without it (which the next run would make again).
    /// Four fresh caches, since a render that raced the avatar's write would fail this only now and then.
    @Test func theFirstRendersOfANewCacheCarryTheirAvatars() async throws {
        for _ in 0..<4 {
            try await TemporaryDirectory.withAsync { directory in
                let refresher = try Self.refresher(directory, transport: try Self.transport(), profiles: ["grey4"])
                let (manifest, _) = try Self.refreshed(try await refresher.refresh(now: Self.t0))
                let profile = try DisplayProfile(parsing: "grey4")
                for entry in manifest.entries {
                    let avatar = try #require(entry.author.avatar.flatMap { refresher.store.data(at: $0) })
                    let render = EntryRender(
                        entry,
                        profile: profile,
                        captions: true,
                        timeZone: refresher.settings.timeZone,
                        avatar: avatar
                    )
                    #expect(entry.renders?["grey4"] == render?.path)
                }
            }
        }
    }

    @Test func anEntryWithoutItsPictureRendersThePlaceholderCard() async throws {
        try await TemporaryDirectory.withAsync { directory in
            let refresher = try Self.refresher(
                directory,
                transport: try Self.transport(broken: [101]),
                profiles: ["trmnl"]
            )
            let (manifest, _) = try Self.refreshed(try await refresher.refresh(now: Self.t0))
            let entry = try #require(manifest.entries.first { $0.media.key == "3_1859170000000100101" })
            #expect(entry.placeholder)
            let cardPath = try #require(entry.renders?["trmnl"])
            let card = try DecodedPNG(try #require(refresher.store.data(at: cardPath)))
            let photoPath = try #require(manifest.entries.last?.renders?["trmnl"])
            let photo = try DecodedPNG(try #require(refresher.store.data(at: photoPath)))
            // The card is mostly white paper; a dithered photo is not.
            #expect(Self.whiteFraction(card) > 0.7)
            #expect(Self.whiteFraction(card) > Self.whiteFraction(photo))
        }
    }

    @Test func aProfileAddedToTheCronLineIsRenderedFromTheTimelineWithoutASearch() async throws {
        try await TemporaryDirectory.withAsync { directory in
            let transport = try Self.transport()
            let (first, _) = try Self.refreshed(
                try await Self.refresher(directory, transport: transport, profiles: []).refresh(now: Self.t0)
            )
            let searches = { transport.requests.filter { $0.url.path == RecentSearchRequest.path }.count }
            let searched = searches()
            let later = Self.t0.addingTimeInterval(600)
            let same = try Self.refresher(directory, transport: transport, profiles: [])
            #expect(!same.dueness(now: later).isDue)
            let withProfile = try Self.refresher(directory, transport: transport, profiles: ["trmnl"])
            #expect(withProfile.dueness(now: later).isDue)
            #expect(withProfile.dueness(now: later).rendersOnly)
            let (manifest, summary) = try Self.refreshed(try await withProfile.refresh(now: later))
            #expect(manifest.entries.allSatisfy { $0.renders?["trmnl"] != nil })
            #expect(summary.rendered == manifest.entries.count)
            // The same timeline (posts, dates, reload), with its renders; X was not asked again.
            #expect(manifest.entries.map(\.tweetID) == first.entries.map(\.tweetID))
            #expect(manifest.reloadAfter == first.reloadAfter)
            #expect(searches() == searched)
            #expect(!withProfile.dueness(now: later).isDue)
        }
    }
}

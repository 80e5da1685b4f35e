import Foundation
import KFeedBase
import KFeedTestSupport
import Testing

@testable import KFeed
@testable import KFeedImages
@testable import KFeedX

#if canImport(Glibc)
    import Glibc
#endif

/// The names `CacheStore` gives the cache's files, and its reading of a committed generation whole.
struct CacheStoreTests {
    private static let key = "3_1859170000000100101"

    /// The kpop timeline with its first entry's picture and avatar, its second's picture a placeholder, and its
    /// third's picture `images/3_1859170000000100103-340x340.jpg`.
    private static func manifest() throws -> Manifest {
        var results = SearchResults()
        try results.append(responseBody: try Fixture.data("recent-search.kpop.json"))
        let builder = TimelineBuilder()
        var manifest = builder.manifest(
            for: builder.selection(from: results.feedItems, isExhausted: true),
            query: .default,
            size: .small,
            now: Date(timeIntervalSince1970: 1_795_338_000)
        )
        manifest.entries[0].image = "images/\(key)-340x340.jpg"
        manifest.entries[0].author.avatar = "avatars/1500000000000000001-96x96.jpg"
        manifest.entries[1].image = "placeholder-340x340.jpg"
        manifest.entries[1].placeholder = true
        manifest.entries[2].image = "images/3_1859170000000100103-340x340.jpg"
        return manifest
    }

    /// A render is named by its media key, its profile and eight hex digits of FNV-1a over what it shows besides
    /// the picture; these names are in caches already written, so they change only with what a render shows (the
    /// attribution's version is part of a caption's digest: renders without the X mark and text are not reused).
    @Test(
        arguments: [
            (DisplayProfile.trmnl, nil, nil, "renders/\(key)-trmnl-050c5d1f.png"),
            (
                .trmnlBMP,
                DisplayCaption(name: "Mina", username: "mina_k", time: "09:00", avatarJPEG: Data(count: 5_282)),
                nil,
                "renders/\(key)-trmnl-bmp-eef4c1d3.bmp"
            ),
            (.trmnl, nil, "download failed (HTTP 404)", "renders/\(key)-trmnl-982d66e7.png"),
        ] as [(DisplayProfile, DisplayCaption?, String?, String)]
    )
    func aRenderIsNamedByItsKeyProfileAndWhatItShowsBesidesThePicture(
        profile: DisplayProfile,
        caption: DisplayCaption?,
        placeholder: String?,
        name: String
    ) {
        let path = CacheStore.renderPath(
            mediaKey: Self.key,
            profile: profile,
            caption: caption,
            placeholder: placeholder
        )
        #expect(path == name)
    }

    @Test func aRenderOfAnInvalidMediaKeyHasNoName() {
        #expect(CacheStore.renderPath(mediaKey: "../x", profile: .trmnl, caption: nil, placeholder: nil) == nil)
    }

    /// The refresh and the server name an entry's render through ``EntryRender``, which asks the store.
    @Test func anEntrysRenderIsTheStoresNameForItsCaption() throws {
        var results = SearchResults()
        try results.append(responseBody: try Fixture.data("recent-search.kpop.json"))
        let item = try #require(results.feedItems.first)
        let media = try #require(item.media.first)
        var entry = Manifest.Entry(date: Date(timeIntervalSince1970: 1_795_338_000), item: item, media: media)
        entry.placeholderReason = "image too large"
        let avatar = Data(count: 4_706)
        let render = try #require(
            EntryRender(entry, profile: .inkplate, captions: true, timeZone: .gmt, avatar: avatar)
        )
        let posted = PostTime(try #require(entry.postedAt), timeZone: .gmt)
        let caption = DisplayCaption(
            name: entry.author.name,
            username: entry.author.username,
            time: posted.clock,
            date: posted.day,
            text: entry.text,
            avatarJPEG: avatar
        )
        #expect(
            render.path
                == CacheStore.renderPath(
                    mediaKey: media.key,
                    profile: .inkplate,
                    caption: caption,
                    placeholder: "image too large"
                )
        )
        #expect(render.path.hasPrefix("renders/\(media.key)-inkplate-") && render.path.hasSuffix(".jpg"))
    }

    @Test func aGenerationIsTheManifestAndEveryFileItNamesWithItsIdentity() throws {
        try TemporaryDirectory.with { directory in
            let store = CacheStore(directory: directory)
            try store.prepare()
            let manifest = try Self.manifest()
            try store.store(Data("photo".utf8), at: "images/\(Self.key)-340x340.jpg")
            try store.store(Data("avatar".utf8), at: "avatars/1500000000000000001-96x96.jpg")
            try store.store(Data("card".utf8), at: "placeholder-340x340.jpg")
            try store.store(Data("third".utf8), at: "images/3_1859170000000100103-340x340.jpg")
            try store.commit(manifest)
            let loaded = try store.loadGeneration(limit: 1 << 20)
            #expect(loaded.manifest == manifest)
            #expect(loaded.manifestFile.bytes == Array(try manifest.jsonData()))
            #expect(loaded.identity == store.manifestIdentity())
            #expect(loaded.unreadable.isEmpty)
            #expect(
                Set(loaded.files.keys) == [
                    "images/\(Self.key)-340x340.jpg", "avatars/1500000000000000001-96x96.jpg",
                    "placeholder-340x340.jpg", "images/3_1859170000000100103-340x340.jpg",
                ]
            )
            #expect(loaded.files["avatars/1500000000000000001-96x96.jpg"]?.bytes == Array("avatar".utf8))
            let identities = Set(loaded.files.values.map(\.identity))
            #expect(identities.count == 4)
            // A file replaced is another version: its identity changes.
            try store.store(Data("photo".utf8), at: "images/\(Self.key)-340x340.jpg")
            let again = try store.loadGeneration(limit: 1 << 20)
            #expect(again.identity == loaded.identity)
            #expect(
                again.files["images/\(Self.key)-340x340.jpg"]?.identity
                    != loaded.files["images/\(Self.key)-340x340.jpg"]?.identity
            )
        }
    }

    @Test func aStagedManifestIsCommittedOnlyWhenInstalledAndADiscardedOneLeavesNothing() throws {
        try TemporaryDirectory.with { directory in
            let store = CacheStore(directory: directory)
            try store.prepare()
            let first = try Self.manifest()
            try store.commit(first)
            var second = first
            second.entries.removeLast()
            let staged = try store.stage(second)
            // Written and synced under its temp name only: the committed generation is still the first.
            #expect(try store.manifest() == first)
            #expect(FileManager.default.fileExists(atPath: staged.temporary))
            try store.commit(staged)
            #expect(try store.manifest() == second)
            #expect(!FileManager.default.fileExists(atPath: staged.temporary))
            let discarded = try store.stage(first)
            store.discard(discarded)
            #expect(try store.manifest() == second)
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(!names.contains { $0.hasPrefix(".tmp-") })
        }
    }

    @Test func theSweepPassesOverATempFileStillBeingWrittenAndRemovesALeftoverOne() throws {
        try TemporaryDirectory.with { directory in
            let store = CacheStore(directory: directory)
            try store.prepare()
            let manifest = try Self.manifest()
            try store.commit(manifest)
            // One temp file staged by this process (a write running beside the sweep, as the ledger's does), one
            // left by a killed run.
            let writing = try store.stage(manifest)
            let leftover = directory.appendingPathComponent(".tmp-0F0E0D0C-0B0A-0908-0706-050403020100")
            try Data("killed".utf8).write(to: leftover)
            store.sweep(current: manifest, previous: nil)
            #expect(FileManager.default.fileExists(atPath: writing.temporary))
            #expect(!FileManager.default.fileExists(atPath: leftover.path))
            try store.commit(writing)
            store.sweep(current: manifest, previous: nil)
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(!names.contains { $0.hasPrefix(".tmp-") })
        }
    }

    @Test func filesThatCannotBeReadAreNamedAndNoSymlinkIsFollowed() throws {
        try TemporaryDirectory.with { directory in
            let store = CacheStore(directory: directory)
            try store.prepare()
            // The photo is a symlink to a real file, the avatar is missing, the placeholder was never made, and the
            // third picture is over the limit.
            let outside = directory.appendingPathComponent("outside.jpg")
            try Data("photo".utf8).write(to: outside)
            #expect(symlink(outside.path, store.absolutePath("images/\(Self.key)-340x340.jpg")) == 0)
            try store.store(Data(count: 5_000), at: "images/3_1859170000000100103-340x340.jpg")
            try store.commit(try Self.manifest())
            let loaded = try store.loadGeneration(limit: 4_096)
            #expect(loaded.files.isEmpty)
            #expect(
                loaded.unreadable == [
                    "avatars/1500000000000000001-96x96.jpg (missing)",
                    "images/3_1859170000000100101-340x340.jpg (not a regular file)",
                    "images/3_1859170000000100103-340x340.jpg (too large (5000 bytes))",
                ]
            )
        }
    }

    @Test func aMissingOrForeignManifestIsAnError() throws {
        try TemporaryDirectory.with { directory in
            let store = CacheStore(directory: directory)
            try store.prepare()
            #expect(store.manifestIdentity() == nil)
            let missing = #expect(throws: KFeedError.self) { try store.loadGeneration(limit: 1 << 20) }
            #expect(missing?.code == .io)
            #expect(missing?.message.hasSuffix("timeline.json is missing") == true)
            try store.store(Data("{}".utf8), at: CacheStore.manifestName)
            let foreign = #expect(throws: KFeedError.self) { try store.loadGeneration(limit: 1 << 20) }
            #expect(foreign?.code == .apiResponse)
            #expect(foreign?.message.hasSuffix("timeline.json is not a kfeed timeline") == true)
        }
    }

    @Test(arguments: [
        ("images/3_1859170000000100101-340x340.jpg", true),
        ("avatars/1500000000000000001-96x96.jpg", true),
        ("renders/3_1859170000000100101-trmnl-050c5d1f.png", true),
        ("placeholder-340x340.jpg", true),
        ("timeline.json", false),
        ("state.json", false),
        ("../state.json", false),
        ("images/../state.json", false),
        ("images/.tmp-1", false),
        ("images/a/b.jpg", false),
        ("other/a.jpg", false),
        ("images/a b.jpg", false),
        ("", false),
    ])
    func onlyPlainNamesInTheCachesPlacesAreFilesOfAGeneration(path: String, isFile: Bool) {
        #expect(CacheStore.isGenerationFile(path) == isFile)
    }
}

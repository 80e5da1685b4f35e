import Foundation
import KFeedBase
import KFeedTestSupport
import Testing

@testable import KFeed
@testable import KFeedImages

/// The names `CacheStore` gives the cache's files.
struct CacheStoreTests {
    private static let key = "3_1859170000000100101"

    /// A render is named by its media key, its profile and eight hex digits of FNV-1a over what it shows besides
    /// the picture; these names are in caches already written, so they never change.
    @Test(
        arguments: [
            (DisplayProfile.trmnl, nil, nil, "renders/\(key)-trmnl-050c5d1f.png"),
            (
                .trmnlBMP,
                DisplayCaption(name: "Mina", username: "mina_k", hour: "09:00", avatarJPEG: Data(count: 5_282)),
                nil,
                "renders/\(key)-trmnl-bmp-c3dcc657.bmp"
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
        let caption = DisplayCaption(
            name: entry.author.name,
            username: entry.author.username,
            hour: ScheduleText(timeZone: .gmt).clockTime(entry.date),
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
}

import Foundation
import KFeedBase
import KFeedTestSupport
import Testing

@testable import KFeed
@testable import KFeedImages
@testable import KFeedX

struct TimelineBuilderTests {
    /// 2026-11-22 09:00:00 UTC.
    private static let now = Date(timeIntervalSince1970: 1_795_338_000)

    private static func items(_ fixtures: String...) throws -> [FeedItem] {
        var results = SearchResults()
        for name in fixtures { try results.append(responseBody: try Fixture.data(name)) }
        return results.feedItems
    }

    /// The fixtures' post id `n` (`make-fixtures.py`'s `tid`): 19 digits ending in `n`.
    private static func tid(_ number: Int) -> String {
        "1859170000000000000".dropLast(String(number).count) + String(number)
    }

    private static func photo(_ key: String, hasURL: Bool = true) -> Media {
        Media(key: key, kind: .photo, url: hasURL ? URL(string: "https://pbs.twimg.com/media/\(key).jpg") : nil)
    }

    private static func user(_ name: String) -> User {
        User(id: String(name.unicodeScalars.first?.value ?? 0), name: name, username: name)
    }

    /// A hand-made post with one photo (key `3_<id>` unless given) by `author`.
    private static func item(_ id: Int, by author: String, media: [Media]? = nil, sensitive: Bool = false) -> FeedItem {
        let media = media ?? [photo("3_\(id)")]
        let post = Post(
            id: String(id),
            text: "post \(id)",
            authorID: user(author).id,
            isPossiblySensitive: sensitive,
            mediaKeys: media.map(\.key)
        )
        return FeedItem(post: post, author: user(author), media: media)
    }

    private static func reasons(_ selection: Selection) -> [String: SkipReason] {
        Dictionary(uniqueKeysWithValues: selection.skipped.map { ($0.postID, $0.reason) })
    }

    // MARK: - Skip reasons from fixtures

    @Test(arguments: [
        ("recent-search.missing-includes.json", 304, SkipReason.noMedia),
        ("recent-search.missing-includes.json", 303, .mediaMissingFromIncludes),
        ("recent-search.missing-includes.json", 302, .missingAuthor),
        ("recent-search.partial-errors.json", 202, .missingAuthor),
        ("recent-search.kpop.json", 102, .videoWithoutPreviews),
        ("recent-search.kpop.json", 104, .videoWithoutPreviews),
        ("recent-search.kpop.json", 105, .duplicateMedia),
        ("recent-search.kpop.json", 106, .sensitive),
        ("recent-search.unknown-media-type.json", 500, .unsupportedMedia),
    ])
    func fixturePostIsSkippedForTheRightReason(fixture: String, post: Int, reason: SkipReason) throws {
        let selection = TimelineBuilder().selection(from: try Self.items(fixture), isExhausted: true)
        #expect(Self.reasons(selection)[Self.tid(post)] == reason)
        #expect(!selection.chosen.contains { $0.item.post.id == Self.tid(post) })
    }

    @Test(arguments: [
        (3, SkipReason.videoWithoutPreviews), (14, .videoWithoutPreviews), (7, .videoWithoutPreviews),
        (18, .videoWithoutPreviews), (9, .duplicateMedia), (20, .duplicateMedia), (13, .sensitive),
    ])
    func samplePageSkipsItsUnusablePosts(post: Int, reason: SkipReason) throws {
        let items = try Self.items("recent-search.sample-page1.json")
        let selection = TimelineBuilder().selection(from: items, isExhausted: false)
        #expect(Self.reasons(selection)[Self.tid(post)] == reason)
        #expect(selection.chosen.count == 17)
        #expect(selection.skipped.count == 7)
        #expect(!selection.isFull)
    }

    @Test func kpopPageChoosesOnlyTheUsablePostsInAPIOrder() throws {
        let selection = TimelineBuilder().selection(from: try Self.items("recent-search.kpop.json"), isExhausted: true)
        #expect(selection.chosen.map(\.item.post.id) == [101, 103, 107, 108].map(Self.tid))
        #expect(selection.skipped.map(\.postID) == [102, 104, 105, 106].map(Self.tid))
        #expect(!selection.isFull)
    }

    @Test func timelineFullSkipsEveryLaterPost() throws {
        let selection = TimelineBuilder(entryCount: 2).selection(
            from: try Self.items("recent-search.kpop.json"),
            isExhausted: true
        )
        #expect(selection.chosen.map(\.item.post.id) == [101, 103].map(Self.tid))
        #expect(selection.isFull)
        let reasons = Self.reasons(selection)
        #expect(reasons[Self.tid(102)] == .videoWithoutPreviews)
        for post in 104...108 { #expect(reasons[Self.tid(post)] == .timelineFull) }
    }

    @Test func everySkipReasonIsProducedByTheScenarios() throws {
        var seen: Set<SkipReason> = []
        for fixture in [
            "recent-search.kpop.json", "recent-search.missing-includes.json", "recent-search.unknown-media-type.json",
        ] {
            let selection = TimelineBuilder(entryCount: 3).selection(from: try Self.items(fixture), isExhausted: false)
            seen.formUnion(selection.skipped.map(\.reason))
        }
        let capped = TimelineBuilder().selection(
            from: (1...4).map { Self.item($0, by: "a") } + [Self.item(5, by: "b")],
            isExhausted: false
        )
        seen.formUnion(capped.skipped.map(\.reason))
        var remembering = TimelineBuilder(entryCount: 3)
        remembering.shownPostIDs = [Self.tid(101)]
        seen.formUnion(
            remembering.selection(from: try Self.items("recent-search.kpop.json"), isExhausted: true).skipped.map(
                \.reason
            )
        )
        var denying = TimelineBuilder(entryCount: 3)
        denying.deniedUsernames = ["a"]
        denying.allowedUsernames = ["a", "b"]
        denying.hidden.postIDs = ["3"]
        seen.formUnion(
            denying.selection(
                from: [Self.item(1, by: "a"), Self.item(2, by: "b"), Self.item(3, by: "b"), Self.item(4, by: "c")],
                isExhausted: true
            ).skipped.map(\.reason)
        )
        #expect(seen == Set(SkipReason.allCases))
    }

    @Test func deniedAccountsPostsAreNeverChosenWhateverTheCase() {
        var builder = TimelineBuilder(entryCount: 3)
        builder.deniedUsernames = ["spam_bot"]
        let selection = builder.selection(
            from: [Self.item(1, by: "Spam_Bot"), Self.item(2, by: "b"), Self.item(3, by: "spam_bot")],
            isExhausted: true
        )
        #expect(selection.chosen.map(\.item.post.id) == ["2"])
        #expect(Self.reasons(selection)["1"] == .denied)
        #expect(Self.reasons(selection)["3"] == .denied)
    }

    @Test func hiddenPostsAndAccountsAndAccountsNotAllowedAreNeverChosen() {
        var builder = TimelineBuilder(entryCount: 5)
        builder.hidden.postIDs = ["2"]
        builder.hidden.usernames = ["gone"]
        builder.allowedUsernames = ["a", "gone"]
        let selection = builder.selection(
            from: [Self.item(1, by: "A"), Self.item(2, by: "a"), Self.item(3, by: "Gone"), Self.item(4, by: "b")],
            isExhausted: true
        )
        #expect(selection.chosen.map(\.item.post.id) == ["1"])
        #expect(Self.reasons(selection) == ["2": .hidden, "3": .hidden, "4": .notAllowed])
    }

    // MARK: - Media choice

    @Test func sensitivePostIsKeptWhenAllowed() throws {
        let selection = TimelineBuilder(allowsSensitive: true)
            .selection(from: try Self.items("recent-search.kpop.json"), isExhausted: true)
        #expect(selection.chosen.map(\.item.post.id) == [101, 103, 106, 107, 108].map(Self.tid))
        #expect(Self.reasons(selection)[Self.tid(106)] == nil)
    }

    @Test func videoPreviewsAreUsedWhenAsked() throws {
        let selection = TimelineBuilder(usesVideoPreviews: true)
            .selection(from: try Self.items("recent-search.kpop.json"), isExhausted: true)
        #expect(selection.chosen.map(\.item.post.id) == [101, 102, 103, 104, 107, 108].map(Self.tid))
        let video = try #require(selection.chosen.first { $0.item.post.id == Self.tid(102) })
        #expect(video.media.key == "7_1859170000000200120")
        #expect(video.media.kind == .video)
        let gif = try #require(selection.chosen.first { $0.item.post.id == Self.tid(104) })
        #expect(gif.media.kind == .animatedGIF)

        let manifest = TimelineBuilder(usesVideoPreviews: true).manifest(
            for: selection,
            query: .default,
            size: .small,
            now: Self.now
        )
        #expect(manifest.entries[1].media.type == "video")
        #expect(manifest.entries[1].media.sourceURL == video.media.previewImageURL)
        #expect(manifest.entries[1].media.sourceURL?.absoluteString.contains("ext_tw_video_thumb") == true)
        #expect(manifest.entries[3].media.sourceURL?.absoluteString.contains("tweet_video_thumb") == true)
    }

    @Test func videoWithoutPreviewURLIsUnsupportedEvenWithPreviews() {
        let video = Media(key: "7_1", kind: .video)
        let selection = TimelineBuilder(usesVideoPreviews: true).selection(
            from: [Self.item(1, by: "a", media: [video])],
            isExhausted: true
        )
        #expect(Self.reasons(selection)["1"] == .unsupportedMedia)
    }

    @Test func multiPhotoPostUsesTheFirstPhoto() throws {
        let selection = TimelineBuilder().selection(from: try Self.items("recent-search.kpop.json"), isExhausted: true)
        let multi = try #require(selection.chosen.first { $0.item.post.id == Self.tid(103) })
        #expect(multi.media.key == "3_1859170000000100110")
        #expect(multi.media.altText == "앨범 재킷 앞면")
    }

    @Test func firstUsableMediaInAttachmentOrderIsChosen() {
        let media = [
            Media(key: "7_1", kind: .video, previewImageURL: URL(string: "https://pbs.twimg.com/v.jpg")),
            Media(key: "21_1", kind: .other("hologram")),
            Self.photo("3_1", hasURL: false),
            Self.photo("3_2"),
            Self.photo("3_3"),
        ]
        let selection = TimelineBuilder().selection(from: [Self.item(1, by: "a", media: media)], isExhausted: true)
        #expect(selection.chosen.first?.media.key == "3_2")
    }

    @Test func photoWithoutURLIsUnsupported() {
        let selection = TimelineBuilder().selection(
            from: [Self.item(1, by: "a", media: [Self.photo("3_1", hasURL: false)])],
            isExhausted: true
        )
        #expect(Self.reasons(selection)["1"] == .unsupportedMedia)
    }

    @Test func duplicateMediaKeepsTheNewestPost() {
        let shared = Self.photo("3_9")
        let selection = TimelineBuilder().selection(
            from: [
                Self.item(1, by: "a", media: [shared]), Self.item(2, by: "b", media: [shared]), Self.item(3, by: "c"),
            ],
            isExhausted: true
        )
        #expect(selection.chosen.map(\.item.post.id) == ["1", "3"])
        #expect(Self.reasons(selection) == ["2": .duplicateMedia])
    }

    // MARK: - Variety

    @Test func authorCapHoldsWhileOtherAuthorsRemain() {
        let items = (1...5).map { Self.item($0, by: "a") } + (6...8).map { Self.item($0, by: "b") }
        for isExhausted in [false, true] {
            let selection = TimelineBuilder(entryCount: 6).selection(from: items, isExhausted: isExhausted)
            #expect(selection.chosen.map(\.item.post.id) == ["1", "2", "3", "6", "7", "8"])
            #expect(Self.reasons(selection) == ["4": .authorShareFull, "5": .authorShareFull])
            #expect(selection.isFull)
        }
    }

    @Test func authorCapIsNotRelaxedBeforeThePagesAreExhausted() {
        let items = (1...5).map { Self.item($0, by: "a") } + [Self.item(6, by: "b")]
        let selection = TimelineBuilder(entryCount: 6).selection(from: items, isExhausted: false)
        #expect(selection.chosen.map(\.item.post.id) == ["1", "2", "3", "6"])
        #expect(Self.reasons(selection) == ["4": .authorShareFull, "5": .authorShareFull])
        #expect(!selection.isFull)
    }

    @Test func exhaustedPagesRelaxTheCapKeepingAPIOrder() {
        let items = (1...5).map { Self.item($0, by: "a") } + [Self.item(6, by: "b")]
        let selection = TimelineBuilder(entryCount: 6).selection(from: items, isExhausted: true)
        #expect(selection.chosen.map(\.item.post.id) == ["1", "2", "3", "4", "5", "6"])
        #expect(selection.skipped.isEmpty)
        #expect(selection.isFull)
    }

    @Test func relaxedCapTakesTheNewestHeldBackPosts() {
        let items = [Self.item(1, by: "b")] + (2...7).map { Self.item($0, by: "a") } + [Self.item(8, by: "c")]
        let selection = TimelineBuilder(entryCount: 6).selection(from: items, isExhausted: true)
        #expect(selection.chosen.map(\.item.post.id) == ["1", "2", "3", "4", "5", "8"])
        #expect(Self.reasons(selection) == ["6": .authorShareFull, "7": .authorShareFull])
    }

    @Test(arguments: [1, 2, 4])
    func customAuthorCapIsHonoured(cap: Int) {
        let items = (1...6).map { Self.item($0, by: "a") } + [Self.item(7, by: "b")]
        let selection = TimelineBuilder(entryCount: 10, maxEntriesPerAuthor: cap).selection(
            from: items,
            isExhausted: false
        )
        #expect(selection.chosen.map(\.item.post.id) == (1...cap).map(String.init) + ["7"])
    }

    @Test func fewPostsGiveAShorterTimelineWithoutRepetition() throws {
        let builder = TimelineBuilder(entryCount: 24)
        let selection = builder.selection(from: try Self.items("recent-search.short-page1.json"), isExhausted: true)
        #expect(selection.chosen.count == 4)
        #expect(!selection.isFull)
        let manifest = builder.manifest(for: selection, query: .default, size: .small, now: Self.now)
        #expect(manifest.entries.map(\.tweetID) == [400, 401, 402, 403].map(Self.tid))
        #expect(Set(manifest.entries.map(\.media.key)).count == 4)
        #expect(manifest.reloadAfter == Self.now.addingTimeInterval(3 * 3_600))
        #expect(manifest.emptyReason == nil)
    }

    @Test func twoSamplePagesFillTheDefaultTimeline() throws {
        let items = try Self.items("recent-search.sample-page1.json", "recent-search.sample-page2.json")
        let selection = TimelineBuilder().selection(from: items, isExhausted: true)
        #expect(selection.chosen.count == 24)
        #expect(selection.isFull)
        #expect(Set(selection.chosen.map(\.media.key)).count == 24)
        let ids = selection.chosen.map(\.item.post.id)
        #expect(ids == ids.sorted())
        var perAuthor: [String: Int] = [:]
        for choice in selection.chosen { perAuthor[choice.item.author?.id ?? "", default: 0] += 1 }
        #expect(perAuthor.values.allSatisfy { $0 <= 3 })
    }

    // MARK: - Schedule

    @Test(arguments: [Interval(seconds: 900), .hour, Interval(seconds: 5_400), Interval(seconds: 7_200)])
    func entryIIsDatedNowPlusITimesTheInterval(interval: Interval) throws {
        let items = try Self.items("recent-search.sample-page1.json", "recent-search.sample-page2.json")
        let builder = TimelineBuilder(interval: interval)
        let manifest = builder.manifest(
            for: builder.selection(from: items, isExhausted: true),
            query: .default,
            size: .medium,
            now: Self.now
        )
        #expect(manifest.entries.count == 24)
        for (index, entry) in manifest.entries.enumerated() {
            #expect(entry.date == Self.now.addingTimeInterval(Double(index) * interval.seconds))
        }
        #expect(manifest.entries.first?.date == Self.now)
        #expect(manifest.generatedAt == Self.now)
        #expect(manifest.reloadAfter == Self.now.addingTimeInterval(23 * interval.seconds))
        #expect(manifest.reloadAfter == manifest.entries.last?.date)
        #expect(manifest.interval == interval)
        #expect(manifest.size == .medium)
        #expect(manifest.query == RecentSearchQuery.default.text)
    }

    @Test func afterPolicyReloadsAtTheGivenDate() throws {
        let reload = Self.now.addingTimeInterval(6 * 3_600)
        let builder = TimelineBuilder(policy: .after(reload))
        let manifest = builder.manifest(
            for: builder.selection(from: try Self.items("recent-search.kpop.json"), isExhausted: true),
            query: .default,
            size: .small,
            now: Self.now
        )
        #expect(manifest.reloadAfter == reload)
        #expect(manifest.policy == .after(reload))
    }

    @Test func neverPolicyHasNoReloadDate() throws {
        let builder = TimelineBuilder(policy: .never)
        let manifest = builder.manifest(
            for: builder.selection(from: try Self.items("recent-search.kpop.json"), isExhausted: true),
            query: .default,
            size: .small,
            now: Self.now
        )
        #expect(manifest.entries.count == 4)
        #expect(manifest.reloadAfter == nil)
        #expect(manifest.policy == .never)
    }

    @Test func emptySelectionSaysWhy() throws {
        let builder = TimelineBuilder()
        let selection = builder.selection(from: try Self.items("recent-search.empty.json"), isExhausted: true)
        #expect(selection.chosen.isEmpty)
        #expect(!selection.isFull)
        let manifest = builder.manifest(for: selection, query: .default, size: .small, now: Self.now)
        #expect(manifest.entries.isEmpty)
        let reason = try #require(manifest.emptyReason)
        #expect(!reason.isEmpty)
        // Never a reload already due when written: an empty timeline asks again after the shortest wait.
        #expect(manifest.reloadAfter == Self.now.addingTimeInterval(TimelineBuilder.minimumWait))
    }

    @Test func entriesCarryThePostAuthorAndMedia() throws {
        let builder = TimelineBuilder()
        let manifest = builder.manifest(
            for: builder.selection(from: try Self.items("recent-search.kpop.json"), isExhausted: true),
            query: .default,
            size: .small,
            now: Self.now
        )
        let first = try #require(manifest.entries.first)
        #expect(first.tweetID == Self.tid(101))
        #expect(first.text == "오늘 무대 너무 좋았어요 💜🫶 #KPOP")
        #expect(first.url.absoluteString == "https://x.com/seoul_lens/status/\(Self.tid(101))")
        #expect(first.author.username == "seoul_lens")
        #expect(first.author.name == "Seoul Lens 📸")
        #expect(first.author.id == "1500000000000000001")
        #expect(first.media.key == "3_1859170000000100101")
        #expect(first.media.type == "photo")
        #expect(first.media.sourceURL?.absoluteString == "https://pbs.twimg.com/media/GkP00101aXoAAqzR.jpg")
        #expect(first.image == nil)
        #expect(!first.placeholder)
    }
}

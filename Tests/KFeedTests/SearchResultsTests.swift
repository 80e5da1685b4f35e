import Foundation
import KFeedTestSupport
import Testing

@testable import KFeed
@testable import KFeedBase
@testable import KFeedImages
@testable import KFeedX

struct SearchResultsTests {
    private static func results(_ fixtures: String...) throws -> SearchResults {
        var results = SearchResults()
        for name in fixtures { try results.append(responseBody: try Fixture.data(name)) }
        return results
    }

    private static func item(_ id: String, in results: SearchResults) throws -> FeedItem {
        try #require(results.feedItems.first { $0.post.id == id })
    }

    private static func body(_ json: String) -> Data { Data(json.utf8) }

    // MARK: - The K-pop page

    @Test func kpopPageDecodesEveryPostInAPIOrder() throws {
        let results = try Self.results("recent-search.kpop.json")
        #expect(results.posts.map(\.id) == (101...108).map { "1859170000000000\($0)" })
        #expect(results.pageCount == 1)
        #expect(results.nextToken == nil)
        #expect(results.users.count == 8)
        #expect(results.media.count == 10)
        #expect(results.partialErrors.isEmpty)
        #expect(results.droppedElements == 0)
    }

    @Test func multiPhotoPostJoinsMediaInAttachmentOrder() throws {
        let item = try Self.item("1859170000000000103", in: try Self.results("recent-search.kpop.json"))
        #expect(item.media.map(\.key) == (110...113).map { "3_1859170000000100\($0)" })
        #expect(item.media.allSatisfy { $0.kind == .photo })
        #expect(item.media.first?.altText == "앨범 재킷 앞면")
        #expect(item.media.first?.url?.absoluteString == "https://pbs.twimg.com/media/GkP00110aXoAAqzR.jpg")
        #expect(item.missingMediaKeys.isEmpty)
        #expect(item.author?.username == "stage_photo_kr")
        #expect(item.author?.name == "무대 사진관")
    }

    @Test func sharedMediaKeyJoinsOnBothPosts() throws {
        let results = try Self.results("recent-search.kpop.json")
        let first = try Self.item("1859170000000000101", in: results)
        let share = try Self.item("1859170000000000105", in: results)
        #expect(first.media.map(\.key) == ["3_1859170000000100101"])
        #expect(share.media == first.media)
        #expect(first.author?.id != share.author?.id)
    }

    @Test(arguments: [
        ("1859170000000000101", "오늘 무대 너무 좋았어요 💜🫶 #KPOP"),
        ("1859170000000000107", "👨‍👩‍👧 family concert day 🇰🇷"),
        ("1859170000000000108", "مرحبا from the Riyadh show 🎶"),
        ("1859170000000000103", "Album photos 1-4 📀 앨범 사진"),
    ])
    func nonASCIITextIsKeptIntact(id: String, text: String) throws {
        let post = try #require(try Self.results("recent-search.kpop.json").posts.first { $0.id == id })
        #expect(post.text == text)
        #expect(post.text.unicodeScalars.elementsEqual(text.unicodeScalars))
    }

    @Test func postFieldsAreDecoded() throws {
        let results = try Self.results("recent-search.kpop.json")
        let sensitive = try Self.item("1859170000000000106", in: results)
        #expect(sensitive.post.isPossiblySensitive)
        let first = try Self.item("1859170000000000101", in: results)
        #expect(!first.post.isPossiblySensitive)
        #expect(first.post.authorID == "1500000000000000001")
        #expect(first.post.createdAt == InstantFormat.date(from: "2026-11-22T08:59:00Z"))
        #expect(
            first.author?.profileImageURL?.absoluteString
                == "https://pbs.twimg.com/profile_images/00010000000000001/av01_normal.jpg"
        )
        let video = try #require(results.media["7_1859170000000200120"])
        #expect(video.kind == .video)
        #expect(video.url == nil)
        #expect(video.previewImageURL?.absoluteString.contains("ext_tw_video_thumb") == true)
        #expect(video.width == 1_280)
        #expect(video.height == 720)
        #expect(results.media["16_1859170000000200121"]?.kind == .animatedGIF)
    }

    @Test func includedTweetsAreIgnored() throws {
        let results = try Self.results("recent-search.kpop.json")
        #expect(!results.posts.contains { $0.id == "1859170000000000099" })
        #expect(results.media["3_1859170000000199999"] == nil)
        #expect(results.users["1500000000000000010"] == nil)
    }

    // MARK: - Missing parts and unknown keys

    @Test func emptySearchHasNoPostsAndIsNoError() throws {
        let results = try Self.results("recent-search.empty.json")
        #expect(results.posts.isEmpty)
        #expect(results.feedItems.isEmpty)
        #expect(results.users.isEmpty)
        #expect(results.media.isEmpty)
        #expect(results.nextToken == nil)
        #expect(results.pageCount == 1)
    }

    @Test(arguments: [
        "{}", #"{"meta":{}}"#, #"{"data":[]}"#, #"{"includes":{}}"#, #"{"data":[],"includes":{"media":[]}}"#,
    ])
    func bodyWithoutDataIncludesOrMetaIsAnEmptyPage(json: String) throws {
        var results = SearchResults()
        try results.append(responseBody: Self.body(json))
        #expect(results.posts.isEmpty)
        #expect(results.pageCount == 1)
    }

    @Test func postsWithoutIncludesJoinToNoAuthorAndMissingMedia() throws {
        var results = SearchResults()
        try results.append(
            responseBody: Self.body(
                #"{"data":[{"id":"1","text":"hi","author_id":"2","attachments":{"media_keys":["3_4"]}}]}"#
            )
        )
        let item = try #require(results.feedItems.first)
        #expect(item.author == nil)
        #expect(item.media.isEmpty)
        #expect(item.missingMediaKeys == ["3_4"])
        #expect(item.url.absoluteString == "https://x.com/i/web/status/1")
    }

    @Test func missingUserGivesNilAuthor() throws {
        let item = try Self.item("1859170000000000302", in: try Self.results("recent-search.missing-includes.json"))
        #expect(item.post.authorID == "1500000000000000012")
        #expect(item.author == nil)
        #expect(item.media.map(\.key) == ["3_1859170000000100302"])
    }

    @Test func missingMediaIsRecordedAsMissingKeys() throws {
        let item = try Self.item("1859170000000000303", in: try Self.results("recent-search.missing-includes.json"))
        #expect(item.media.isEmpty)
        #expect(item.missingMediaKeys == ["3_1859170000000399999"])
        #expect(item.author?.username == "hallyu_daily")
    }

    @Test func attachmentsWithoutMediaKeysGiveNoMedia() throws {
        let item = try Self.item("1859170000000000304", in: try Self.results("recent-search.missing-includes.json"))
        #expect(item.post.mediaKeys.isEmpty)
        #expect(item.media.isEmpty)
        #expect(item.missingMediaKeys.isEmpty)
    }

    @Test func unknownKeysAreIgnored() throws {
        let results = try Self.results("recent-search.missing-includes.json")
        #expect(results.posts.count == 5)
        let item = try Self.item("1859170000000000305", in: results)
        #expect(item.media.map(\.key) == ["3_1859170000000100302"])
        #expect(results.droppedElements == 0)

        var extra = SearchResults()
        try extra.append(
            responseBody: Self.body(
                #"{"data":[{"id":"7","text":"x","future":[1,{"a":null}]}],"includes":{"posts":[{"id":"8"}],"#
                    + #""media":[{"media_key":"3_1","type":"photo","variants":[{"bit_rate":1}]}]},"#
                    + #""meta":{"result_count":1,"new_field":true},"future_top":{"x":[]}}"#
            )
        )
        #expect(extra.posts.map(\.id) == ["7"])
        #expect(extra.media["3_1"]?.kind == .photo)
    }

    @Test func unknownMediaTypeDecodesAsOther() throws {
        let results = try Self.results("recent-search.unknown-media-type.json")
        let media = try #require(results.media["21_1859170000000500000"])
        #expect(media.kind == .other("hologram"))
        #expect(media.kind.description == "hologram")
        #expect(results.posts.count == 2)
        let item = try Self.item("1859170000000000500", in: results)
        #expect(item.media.map(\.kind) == [.other("hologram")])
    }

    @Test(arguments: [
        ("photo", Media.Kind.photo), ("video", .video), ("animated_gif", .animatedGIF), ("gif", .other("gif")),
    ])
    func mediaKindRoundTripsXsTypeString(type: String, kind: Media.Kind) {
        #expect(Media.Kind(type) == kind)
        #expect(Media.Kind(type).description == type)
    }

    // MARK: - Errors

    @Test func partialErrorsBesideDataAreKept() throws {
        let results = try Self.results("recent-search.partial-errors.json")
        #expect(results.posts.map(\.id) == ["1859170000000000201", "1859170000000000202"])
        #expect(results.partialErrors.count == 2)
        #expect(results.partialErrors.map(\.resourceType) == ["user", "tweet"])
        #expect(results.partialErrors.first?.resourceID == "1500000000000000011")
        #expect(results.partialErrors.first?.title == "Not Found Error")
        #expect(results.partialErrors.last?.title == "Authorization Error")
        #expect(try Self.item("1859170000000000202", in: results).author == nil)
        #expect(try Self.item("1859170000000000201", in: results).author?.username == "seoul_lens")
    }

    @Test func errorsOnlyBodyIsAnAPIResponseError() throws {
        var results = SearchResults()
        let error = #expect(throws: KFeedError.self) {
            try results.append(responseBody: try Fixture.data("recent-search.errors-only.json"))
        }
        #expect(error?.code == .apiResponse)
        #expect(error?.message.contains("Could not find the requested results.") == true)
        #expect(results.pageCount == 0)
    }

    @Test(arguments: [
        "", "<html><body>502 Bad Gateway</body></html>", "not json", "[]", "null", "42", "\"data\"",
        #"{"data": [{"id": "1"#, #"{"data":"#, "{\u{0}}",
    ])
    func nonJSONBodyIsAnAPIResponseError(body: String) {
        var results = SearchResults()
        let error = #expect(throws: KFeedError.self) { try results.append(responseBody: Self.body(body)) }
        #expect(error?.code == .apiResponse)
        #expect(error?.message.contains("\(body.utf8.count) bytes") == true)
        #expect(results.pageCount == 0)
    }

    @Test(arguments: [
        "recent-search.kpop.json", "recent-search.sample-page1.json", "recent-search.partial-errors.json",
        "recent-search.missing-includes.json",
    ])
    func truncatedFixtureIsAnAPIResponseError(name: String) throws {
        let data = try Fixture.data(name)
        for cut in [1, data.count / 3, data.count / 2, data.count - 3] {
            var results = SearchResults()
            let error = #expect(throws: KFeedError.self) { try results.append(responseBody: data.prefix(cut)) }
            #expect(error?.code == .apiResponse)
            #expect(error?.underlying != nil)
        }
    }

    @Test(arguments: [
        "recent-search.kpop.json", "recent-search.sample-page1.json", "recent-search.sample-page2.json",
        "recent-search.missing-includes.json", "recent-search.empty.json", "recent-search.short-page1.json",
        "recent-search.short-page2.json", "recent-search.unknown-media-type.json", "recent-search.partial-errors.json",
    ])
    func everyDataFixtureDecodes(name: String) throws {
        let data = try Fixture.data(name)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let expected = (json["data"] as? [Any])?.count ?? 0
        var results = SearchResults()
        try results.append(responseBody: data)
        #expect(results.posts.count == expected)
        #expect(results.droppedElements == 0)
    }

    @Test(arguments: [
        "recent-search.401.json", "recent-search.403-client-not-enrolled.json",
        "recent-search.429-rate-limit.json", "recent-search.429-usage-cap.json", "recent-search.503.json",
    ])
    func problemBodiesDecodeAsEmptyPagesNotCrashes(name: String) throws {
        var results = SearchResults()
        try results.append(responseBody: try Fixture.data(name))
        #expect(results.posts.isEmpty)
    }

    // MARK: - Merging pages

    @Test func mergingTwoPagesKeepsOrderAndMergesIncludes() throws {
        var results = try Self.results("recent-search.short-page1.json")
        #expect(results.nextToken == "7140dibdnow9c7btw4b0ufpbbeo2uuqm8r7q4cwquj9ab")
        try results.append(responseBody: try Fixture.data("recent-search.short-page2.json"))
        let ids = [400, 401, 402, 403, 410, 411, 412].map { "1859170000000000\($0)" }
        #expect(results.posts.map(\.id) == ids)
        #expect(results.feedItems.map(\.post.id) == ids)
        #expect(results.pageCount == 2)
        #expect(results.users.count == 7)
        #expect(results.media.count == 7)
        #expect(results.nextToken == nil)
        #expect(results.feedItems.allSatisfy { $0.author != nil && $0.media.count == 1 })
    }

    @Test func mergingTakesTheLastPagesNextToken() throws {
        let results = try Self.results("recent-search.short-page2.json", "recent-search.short-page1.json")
        #expect(results.nextToken == "7140dibdnow9c7btw4b0ufpbbeo2uuqm8r7q4cwquj9ab")
        #expect(results.posts.first?.id == "1859170000000000410")
    }

    @Test func laterPageIncludesJoinEarlierPosts() throws {
        var results = SearchResults()
        try results.append(
            responseBody: Self.body(
                #"{"data":[{"id":"1","text":"a","author_id":"9","attachments":{"media_keys":["3_5"]}}]}"#
            )
        )
        try results.append(
            responseBody: Self.body(
                #"{"includes":{"users":[{"id":"9","name":"N","username":"late_user"}],"#
                    + #""media":[{"media_key":"3_5","type":"photo","url":"https://pbs.twimg.com/media/x.jpg"}]}}"#
            )
        )
        let item = try #require(results.feedItems.first)
        #expect(item.author?.username == "late_user")
        #expect(item.media.map(\.key) == ["3_5"])
    }

    @Test func repeatedPostIDAcrossPagesIsKeptOnce() throws {
        let results = try Self.results("recent-search.kpop.json", "recent-search.kpop.json")
        #expect(results.pageCount == 2)
        #expect(results.posts.count == 8)
        #expect(Set(results.posts.map(\.id)).count == 8)
    }

    @Test func repeatedPostIDWithinAPageIsKeptOnceFirstWins() throws {
        var results = SearchResults()
        try results.append(responseBody: Self.body(#"{"data":[{"id":"1","text":"first"},{"id":"1","text":"second"}]}"#))
        #expect(results.posts.map(\.text) == ["first"])
    }

    // MARK: - Invalid ids

    @Test func invalidIDsAreDropped() throws {
        var results = SearchResults()
        try results.append(
            responseBody: Self.body(
                """
                {"data": [
                  {"id": "18591700000abc", "text": "letters", "author_id": "1", "attachments": {"media_keys": ["3_1"]}},
                  {"id": "12345678901234567890", "text": "twenty digits"},
                  {"id": "../../etc", "text": "path"},
                  {"id": "2", "text": "kept", "author_id": "1", "attachments": {"media_keys": ["3_1", "31"]}}
                 ],
                 "includes": {
                  "media": [{"media_key": "31", "type": "photo"}, {"media_key": "3_1", "type": "photo"},
                            {"media_key": "3_../x", "type": "photo"}],
                  "users": [{"id": "1", "username": "ok_user"}, {"id": "3", "username": "bad-name"},
                            {"id": "4", "username": "sixteen_chars_xx"}, {"id": "x5", "username": "fine"}]
                 }}
                """
            )
        )
        #expect(results.posts.map(\.id) == ["2"])
        #expect(Set(results.media.keys) == ["3_1"])
        #expect(Set(results.users.keys) == ["1"])
        #expect(results.droppedElements == 8)
        let item = try #require(results.feedItems.first)
        #expect(item.media.map(\.key) == ["3_1"])
        #expect(item.missingMediaKeys == ["31"])
        #expect(item.author?.name == "ok_user")
    }

    @Test func undecodableElementsAreSkippedAndCounted() throws {
        var results = SearchResults()
        try results.append(
            responseBody: Self.body(
                #"{"data":[{"text":"no id"},{"id":"5","text":"ok"},{"id":6}],"#
                    + #""includes":{"media":[{"type":"photo"}],"users":[{"id":"1"}]}}"#
            )
        )
        #expect(results.posts.map(\.id) == ["5"])
        #expect(results.droppedElements == 4)
    }

    @Test(arguments: [
        ("3_1859170000000100101", true), ("16_1", true), ("31", false), ("3_", false), ("_1", false), ("3_1_2", false),
        ("a_1", false),
    ])
    func mediaKeyValidation(key: String, isValid: Bool) {
        #expect(Media.isValidKey(key) == isValid)
    }

    @Test(arguments: [
        ("seoul_lens", true), ("A", true), ("abcdefghijklmno", true), ("", false), ("bad-name", false),
        ("abcdefghijklmnop", false), ("유저", false), ("a.b", false),
    ])
    func usernameValidation(username: String, isValid: Bool) {
        #expect(User.isValidUsername(username) == isValid)
    }

    @Test(arguments: [
        ("Rock &amp; roll &lt;3 &gt;_&lt;", "Rock & roll <3 >_<"),
        ("&amp;lt;b&amp;gt; stays escaped once", "&lt;b&gt; stays escaped once"),
        ("AT&T &copy; & &amp", "AT&T &copy; & &amp"),
        ("no entities 💜", "no entities 💜"),
    ])
    func postTextHasXsHTMLEntitiesDecodedOnce(wire: String, expected: String) throws {
        let body = #"{"data":[{"id":"1","text":"\#(wire)"}]}"#
        var results = SearchResults()
        try results.append(responseBody: Data(body.utf8))
        #expect(results.posts.first?.text == expected)
    }
}

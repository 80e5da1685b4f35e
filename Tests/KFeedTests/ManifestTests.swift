import Foundation
import KFeedBase
import KFeedTestSupport
import Testing

@testable import KFeed
@testable import KFeedImages
@testable import KFeedX

struct ManifestTests {
    /// 2026-11-22 09:00:00 UTC.
    private static let now = Date(timeIntervalSince1970: 1_795_338_000)

    private static func manifest(policy: ReloadPolicy = .atEnd, now: Date = Self.now) throws -> Manifest {
        var results = SearchResults()
        try results.append(responseBody: try Fixture.data("recent-search.kpop.json"))
        let builder = TimelineBuilder(policy: policy, usesVideoPreviews: true)
        var manifest = builder.manifest(
            for: builder.selection(from: results.feedItems, isExhausted: true),
            query: .default,
            size: .small,
            now: now
        )
        manifest.entries[0].image = "images/3_1859170000000100101-340x340.jpg"
        manifest.entries[0].author.avatar = "avatars/1500000000000000001-96x96.jpg"
        manifest.entries[1].image = "placeholder-340x340.jpg"
        manifest.entries[1].placeholder = true
        manifest.entries[1].placeholderReason = "download failed"
        return manifest
    }

    private static func json(_ manifest: Manifest) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: try manifest.jsonData()) as? [String: Any])
    }

    private static func entries(_ json: [String: Any]) throws -> [[String: Any]] {
        try #require(json["entries"] as? [[String: Any]])
    }

    // MARK: - Round trips

    @Test(arguments: [
        ReloadPolicy.atEnd, .never, .after(Date(timeIntervalSince1970: 1_795_359_600)),
    ])
    func manifestRoundTripsThroughJSON(policy: ReloadPolicy) throws {
        let manifest = try Self.manifest(policy: policy)
        let decoded = try Manifest.decode(try manifest.jsonData())
        #expect(decoded == manifest)
        #expect(decoded.entries.count == 6)
        #expect(decoded.policy == policy)
    }

    @Test func removingEntriesMovesTheRestUpFromTheCurrentHour() throws {
        let manifest = try Self.manifest()
        #expect(manifest.entries.count >= 4)
        let ids = manifest.entries.map(\.tweetID)
        // At 10:30 the second entry is current; it and the first are taken out.
        let now = Self.now.addingTimeInterval(5_400)
        let changed = try #require(
            manifest.removing(now: now, reason: "hidden") { [ids[0], ids[1]].contains($0.tweetID) }
        )
        #expect(changed.removed.map(\.tweetID) == [ids[0], ids[1]])
        #expect(changed.manifest.entries.map(\.tweetID) == Array(ids.dropFirst(2)))
        // The third post takes the current (second) hour at once, and every later one moves up an hour.
        #expect(changed.manifest.entries[0].date == manifest.entries[1].date)
        #expect(changed.manifest.currentEntryIndex(at: now) == 0)
        #expect(changed.manifest.reloadAfter == changed.manifest.entries.last?.date)
        #expect(manifest.removing(now: now, reason: "hidden") { _ in false } == nil)

        // Nothing left: an empty timeline, due at once, saying why.
        let emptied = try #require(manifest.removing(now: now, reason: "every post was hidden") { _ in true })
        #expect(emptied.manifest.entries.isEmpty && emptied.manifest.reloadAfter == now)
        #expect(emptied.manifest.emptyReason == "every post was hidden")
    }

    @Test func fractionalSecondsRoundTrip() throws {
        let manifest = try Self.manifest(now: Self.now.addingTimeInterval(0.25))
        let json = try Self.json(manifest)
        #expect(json["generated_at"] as? String == "2026-11-22T09:00:00.250Z")
        #expect(try Manifest.decode(try manifest.jsonData()) == manifest)
    }

    @Test func emptyManifestRoundTripsWithItsReason() throws {
        let manifest = TimelineBuilder().manifest(
            for: Selection(chosen: [], skipped: [], isFull: false),
            query: .default,
            size: ImageSize(width: 300, height: 200),
            now: Self.now
        )
        let decoded = try Manifest.decode(try manifest.jsonData())
        #expect(decoded == manifest)
        #expect(decoded.emptyReason != nil)
        #expect(decoded.entries.isEmpty)
        let json = try Self.json(manifest)
        #expect(json["empty_reason"] as? String == manifest.emptyReason)
    }

    @Test func intervalRoundTrips() throws {
        let builder = TimelineBuilder(interval: Interval(seconds: 5_400))
        var results = SearchResults()
        try results.append(responseBody: try Fixture.data("recent-search.kpop.json"))
        let manifest = builder.manifest(
            for: builder.selection(from: results.feedItems, isExhausted: true),
            query: .default,
            size: .small,
            now: Self.now
        )
        #expect(try Manifest.decode(try manifest.jsonData()).interval == Interval(seconds: 5_400))
    }

    // MARK: - The contract's keys

    @Test func topLevelKeysAreTheContracts() throws {
        let json = try Self.json(try Self.manifest())
        let required: Set = ["schema", "generated_at", "query", "policy", "reload_after", "size", "entries"]
        #expect(required.isSubset(of: Set(json.keys)))
        #expect(json["schema"] as? Int == 1)
        #expect(json["generated_at"] as? String == "2026-11-22T09:00:00Z")
        #expect(json["query"] as? String == "context:55.888105153038958593 has:images -is:retweet")
        #expect(json["policy"] as? String == "atEnd")
        #expect(json["reload_after"] as? String == "2026-11-22T14:00:00Z")
        let size = try #require(json["size"] as? [String: Any])
        #expect(Set(size.keys) == ["width", "height"])
        #expect(size["width"] as? Int == 340)
        #expect(size["height"] as? Int == 340)
        #expect(json["empty_reason"] == nil)
    }

    @Test(arguments: [
        (ReloadPolicy.never, "never"), (.atEnd, "atEnd"), (.after(Date(timeIntervalSince1970: 1_795_359_600)), "after"),
    ])
    func policyIsWrittenByName(policy: ReloadPolicy, name: String) throws {
        let json = try Self.json(try Self.manifest(policy: policy))
        #expect(json["policy"] as? String == name)
        switch policy {
        case .never: #expect(json["reload_after"] is NSNull)
        case .after: #expect(json["reload_after"] as? String == "2026-11-22T15:00:00Z")
        case .atEnd: #expect(json["reload_after"] as? String == "2026-11-22T14:00:00Z")
        }
    }

    @Test func entryKeysAreTheContractsWithExplicitNulls() throws {
        let entries = try Self.entries(try Self.json(try Self.manifest()))
        #expect(entries.count == 6)
        let required: Set = [
            "date", "tweet_id", "text", "url", "author", "media", "image", "placeholder", "placeholder_reason",
        ]
        for entry in entries { #expect(required.isSubset(of: Set(entry.keys))) }

        let first = entries[0]
        #expect(first["date"] as? String == "2026-11-22T09:00:00Z")
        #expect(first["tweet_id"] as? String == "1859170000000000101")
        #expect(first["text"] as? String == "오늘 무대 너무 좋았어요 💜🫶 #KPOP")
        #expect(first["url"] as? String == "https://x.com/seoul_lens/status/1859170000000000101")
        #expect(first["image"] as? String == "images/3_1859170000000100101-340x340.jpg")
        #expect(first["placeholder"] as? Bool == false)
        #expect(first["placeholder_reason"] is NSNull)

        let author = try #require(first["author"] as? [String: Any])
        #expect(Set(["id", "name", "username", "avatar"]).isSubset(of: Set(author.keys)))
        #expect(author["id"] as? String == "1500000000000000001")
        #expect(author["name"] as? String == "Seoul Lens 📸")
        #expect(author["username"] as? String == "seoul_lens")
        #expect(author["avatar"] as? String == "avatars/1500000000000000001-96x96.jpg")

        let media = try #require(first["media"] as? [String: Any])
        #expect(Set(["key", "type", "alt_text", "width", "height"]).isSubset(of: Set(media.keys)))
        #expect(media["key"] as? String == "3_1859170000000100101")
        #expect(media["type"] as? String == "photo")
        #expect(media["alt_text"] is NSNull)
        #expect(media["width"] as? Int == 1_200)
        #expect(media["height"] as? Int == 1_500)
    }

    @Test func placeholderAndMissingImagesAreExplicit() throws {
        let entries = try Self.entries(try Self.json(try Self.manifest()))
        #expect(entries[1]["placeholder"] as? Bool == true)
        #expect(entries[1]["placeholder_reason"] as? String == "download failed")
        #expect(entries[1]["date"] as? String == "2026-11-22T10:00:00Z")
        let video = try #require(entries[1]["media"] as? [String: Any])
        #expect(video["type"] as? String == "video")
        #expect(entries[2]["image"] is NSNull)
        let author = try #require(entries[2]["author"] as? [String: Any])
        #expect(author["avatar"] is NSNull)
        let multi = try #require(entries[2]["media"] as? [String: Any])
        #expect(multi["alt_text"] as? String == "앨범 재킷 앞면")
    }

    @Test func jsonKeepsSlashesAndNonASCIIReadable() throws {
        let text = String(decoding: try Self.manifest().jsonData(), as: UTF8.self)
        #expect(text.contains("\"url\" : \"https://x.com/seoul_lens/status/1859170000000000101\""))
        #expect(text.contains("오늘 무대"))
    }

    // MARK: - Reading

    @Test func designExampleDecodesAndUnknownKeysAreIgnored() throws {
        let example = """
            {
              "schema": 1,
              "generated_at": "2026-11-22T09:00:00Z",
              "query": "context:55.888105153038958593 has:images -is:retweet",
              "policy": "atEnd",
              "reload_after": "2026-11-23T08:00:00Z",
              "size": {"width": 340, "height": 340},
              "future_key": {"anything": [1, 2]},
              "entries": [
                {
                  "date": "2026-11-22T09:00:00Z",
                  "tweet_id": "1859170000000000001",
                  "text": "hello",
                  "url": "https://x.com/someone/status/1859170000000000001",
                  "author": {"id": "1", "name": "Some One", "username": "someone", "avatar": "avatars/1.jpg"},
                  "media": {"key": "3_1", "type": "photo", "alt_text": null, "width": 1200, "height": 1600},
                  "image": "images/3_1.jpg",
                  "placeholder": false,
                  "placeholder_reason": null,
                  "future_entry_key": true
                }
              ]
            }
            """
        let manifest = try Manifest.decode(Data(example.utf8))
        #expect(manifest.generatedAt == Self.now)
        #expect(manifest.reloadAfter == Self.now.addingTimeInterval(23 * 3_600))
        #expect(manifest.policy == .atEnd)
        #expect(manifest.interval == .hour)
        #expect(manifest.size == .small)
        let entry = try #require(manifest.entries.first)
        #expect(entry.author.avatar == "avatars/1.jpg")
        #expect(entry.media.width == 1_200)
        #expect(entry.media.altText == nil)
        #expect(entry.image == "images/3_1.jpg")
        // Written before `created_at` was kept: the post's time is the one its id carries.
        #expect(entry.createdAt == nil)
        #expect(entry.postedAt.map(InstantFormat.string(from:)) == "2024-11-20T09:40:44.365Z")
    }

    @Test func thePostsTimeAndTheAuthorsProfileAreWrittenForAttribution() throws {
        let manifest = try Self.manifest()
        let first = try #require(try Self.entries(try Self.json(manifest)).first)
        let created = try #require(first["created_at"] as? String)
        #expect(InstantFormat.date(from: created) != nil)
        let author = try #require(first["author"] as? [String: Any])
        #expect(author["url"] as? String == "https://x.com/seoul_lens")
        // Read back, the time is the same and the derived `url` is ignored.
        let again = try Manifest.decode(try manifest.jsonData())
        #expect(again.entries.map(\.createdAt) == manifest.entries.map(\.createdAt))
        #expect(again == manifest)
    }

    @Test(arguments: [("seoul_lens", "https://x.com/seoul_lens"), ("", nil), ("a/b", nil), ("sixteen_letters_", nil)])
    func aProfileLinkNeedsAUsernameXGives(username: String, url: String?) throws {
        var manifest = try Self.manifest()
        manifest.entries[0].author.username = username
        #expect(manifest.entries[0].author.profileURL?.absoluteString == url)
        let author = try #require(try Self.entries(try Self.json(manifest)).first?["author"] as? [String: Any])
        #expect(author["url"] as? String == url)
    }

    @Test(
        arguments: [("42", nil), ("1859170000000000001", "2024-11-20T09:40:44.365Z"), ("x", nil)] as [(String, String?)]
    )
    func withoutCreatedAtThePostsTimeComesFromItsID(id: String, time: String?) throws {
        var manifest = try Self.manifest()
        manifest.entries[0].createdAt = nil
        manifest.entries[0].tweetID = id
        #expect(manifest.entries[0].postedAt.map(InstantFormat.string(from:)) == time)
        #expect(try Self.entries(try Self.json(manifest)).first?["created_at"] == nil)
    }

    @Test(arguments: ["2026-11-22T09:00:00", "2026-11-22 09:00:00Z", "yesterday", ""])
    func dateWithoutAZoneIsRejected(date: String) throws {
        let text =
            #"{"schema":1,"generated_at":"\#(date)","query":"q","policy":"atEnd","size":{"width":1,"height":1},"entries":[]}"#
        #expect(throws: DecodingError.self) { try Manifest.decode(Data(text.utf8)) }
    }

    /// Found while fuzzing the cache files: `interval_seconds: 1e300` decoded, then writing the manifest trapped
    /// converting it to an Int.
    @Test(arguments: ["1e300", "-3600", "0", "1e10"])
    func intervalOutOfRangeIsRejected(seconds: String) throws {
        let text =
            #"{"schema":1,"generated_at":"2026-11-22T09:00:00Z","query":"q","policy":"atEnd","size":{"width":1,"height":1},"interval_seconds":\#(seconds),"entries":[]}"#
        #expect(throws: DecodingError.self) { try Manifest.decode(Data(text.utf8)) }
        let valid = text.replacingOccurrences(of: "\"interval_seconds\":\(seconds)", with: "\"interval_seconds\":900")
        #expect(try Manifest.decode(Data(valid.utf8)).jsonData().isEmpty == false)
    }
}

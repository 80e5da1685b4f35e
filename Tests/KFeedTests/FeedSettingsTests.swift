import Foundation
import KFeed
import KFeedBase
import KFeedImages
import Testing

/// The one settings type of a feed: the query it sends with its denied accounts, and the fingerprints a timeline
/// records so that a changed setting makes the feed due.
struct FeedSettingsTests {
    @Test func deniedAccountsAreExcludedInTheQueryWhileItFits() throws {
        var settings = FeedSettings(deny: ["@Spam_Bot", "other"])
        #expect(settings.deny == ["spam_bot", "other"])
        let search = settings.search
        #expect(search.query.text == "context:55.888105153038958593 has:images -is:retweet -from:spam_bot -from:other")
        #expect(search.inQuery == ["spam_bot", "other"] && search.filtered.isEmpty)

        // An OR at the top level is grouped first, so that the exclusion applies to every alternative.
        settings.query = try RecentSearchQuery(raw: "cats OR dogs has:images")
        #expect(settings.search.query.text == "(cats OR dogs has:images) -from:spam_bot -from:other")
        settings.query = try RecentSearchQuery(raw: "(cats OR dogs) has:images")
        #expect(settings.search.query.text == "(cats OR dogs) has:images -from:spam_bot -from:other")

        // Past 512 characters: the rest are dropped after the read.
        settings.query = try RecentSearchQuery(raw: String(repeating: "k", count: 490) + " has:images")
        settings.deny = ["spam_bot", "other", "third"]
        #expect(settings.search.inQuery == [])
        #expect(settings.search.filtered == ["spam_bot", "other", "third"])
        #expect(settings.search.query == settings.query)
        #expect(settings.builder.deniedUsernames == ["spam_bot", "other", "third"])
    }

    @Test func allowedAccountsAndMinimumsGoInTheQueryBeforeTheDeniedOnes() throws {
        var settings = FeedSettings(deny: ["spam"], allow: ["@Idol_A", "idol_b"])
        settings.minimums = FeedSettings.Minimums(likes: 50, replies: 2)
        settings.query = try RecentSearchQuery(raw: "cats OR dogs has:images")
        let search = settings.search
        #expect(
            search.query.text
                == "(cats OR dogs has:images) min_likes:50 min_replies:2 (from:idol_a OR from:idol_b) -from:spam"
        )
        #expect(search.allowInQuery && search.inQuery == ["spam"])
        #expect(settings.builder.allowedUsernames == ["idol_a", "idol_b"])

        // One account needs no group; minimums alone need no account.
        settings.allow = ["idol_a"]
        settings.deny = []
        #expect(settings.search.query.text == "(cats OR dogs has:images) min_likes:50 min_replies:2 from:idol_a")
        settings.allow = []
        #expect(settings.search.query.text == "(cats OR dogs has:images) min_likes:50 min_replies:2")
    }

    @Test func allowedAccountsThatDoNotFitAreKeptAfterTheReadAndMinimumsThatDoNotFitAreRefused() throws {
        var settings = FeedSettings(allow: ["idol_a", "idol_b"])
        settings.query = try RecentSearchQuery(raw: String(repeating: "k", count: 490) + " has:images")
        #expect(!settings.search.allowInQuery)
        #expect(settings.search.query == settings.query)
        #expect(settings.builder.allowedUsernames == ["idol_a", "idol_b"])
        try settings.validate()

        settings.minimums.likes = 1_000
        let error = try #require(throws: KFeedError.self) { try settings.validate() }
        #expect(error.code == .configuration && error.message.contains("min_likes:1000"), "\(error.message)")
        #expect(throws: KFeedError.self) { try FeedSettings.Minimums.threshold(-1, named: "min_likes") }
        #expect(throws: KFeedError.self) { try FeedSettings.Minimums.threshold(10_000_001, named: "min_likes") }
    }

    @Test(arguments: ["", "@", "has space", "sixteen_letters_", "émile", "@a-b"])
    func anAccountThatIsNoUsernameIsRefused(text: String) {
        #expect(throws: KFeedError.self) { try FeedSettings.account(parsing: text) }
    }

    @Test func everySettingThatShapesTheTimelineChangesItsFingerprintAndNothingElseDoes() throws {
        let base = FeedSettings()
        let pets = RecentSearchQuery(contexts: [try ContextAnnotation(parsing: "65.852262932607926273")])
        var changes: [FeedSettings] = []
        for change in [
            { (settings: inout FeedSettings) in settings.query = pets },
            { $0.entries = 12 }, { $0.interval = .init(seconds: 7_200) }, { $0.policy = .never },
            { $0.size = .medium }, { $0.allowsSensitive = true }, { $0.usesVideoPreviews = true },
            { $0.noRepeatDays = 0 }, { $0.deny = ["someone"] }, { $0.allow = ["someone"] },
            { $0.minimums.likes = 10 }, { $0.minimums.reposts = 10 }, { $0.minimums.replies = 10 },
        ] as [(inout FeedSettings) -> Void] {
            var settings = base
            change(&settings)
            changes.append(settings)
        }
        let prints = changes.map(\.timelineFingerprint)
        #expect(!prints.contains(base.timelineFingerprint))
        #expect(Set(prints).count == prints.count)
        #expect(changes.allSatisfy { $0.renderFingerprint == base.renderFingerprint })

        // What only the renders show changes the render fingerprint alone; the zone and profiles change neither
        // (profiles a timeline lacks are found by name; the zone is the machine's).
        var bare = base
        bare.captions = false
        #expect(bare.timelineFingerprint == base.timelineFingerprint)
        #expect(bare.renderFingerprint != base.renderFingerprint)
        var elsewhere = base
        elsewhere.timeZone = TimeZone(identifier: "Asia/Seoul")!
        elsewhere.profiles = [.trmnl]
        #expect(elsewhere.timelineFingerprint == base.timelineFingerprint)
        #expect(elsewhere.renderFingerprint == base.renderFingerprint)

        // A relative policy counts by its kind: `after:6h` is a new instant at every run.
        var soon = base
        soon.policy = .after(Date(timeIntervalSince1970: 1_795_338_000))
        var later = base
        later.policy = .after(Date(timeIntervalSince1970: 1_795_341_600))
        #expect(soon.timelineFingerprint == later.timelineFingerprint)
        // Sixteen hex digits, the same in every process (FNV-1a, not the randomly seeded Hasher).
        #expect(base.timelineFingerprint.count == 16 && base.timelineFingerprint.allSatisfy(\.isHexDigit))
    }
}

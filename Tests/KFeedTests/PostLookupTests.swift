import Foundation
import KFeedBase
import KFeedTestSupport
import Testing

@testable import KFeedHTTP
@testable import KFeedX

/// The post lookup (`GET /2/tweets?ids=…`): which posts may still be shown, from X's recorded shapes; the request
/// asks for the fewest fields and at most 100 ids.
struct PostLookupTests {
    private static let ids = ["1859170000000100101", "1859170000000100102", "1859170000000100103"]

    private static func lookup(_ scenario: String) throws -> PostLookup {
        try PostLookup.decode(Fixture.data("tweets-lookup.\(scenario).json"), asked: ids)
    }

    @Test func allPresentKeepsEveryPost() throws {
        let lookup = try Self.lookup("all-present")
        #expect(lookup.present == Set(Self.ids))
        #expect(lookup.gone.isEmpty)
        #expect(lookup.postsRead == Self.ids)
    }

    @Test func eachWayOfBeingGoneIsNamed() throws {
        #expect(try Self.lookup("some-deleted").gone == [Self.ids[1]: .deleted])
        #expect(try Self.lookup("protected").gone == [Self.ids[2]: .protected])
        #expect(try Self.lookup("suspended-author").gone == [Self.ids[0]: .suspended])
        let withheld = try Self.lookup("withheld")
        #expect(withheld.gone == [Self.ids[1]: .withheld])
        #expect(withheld.present == [Self.ids[0], Self.ids[2]])
        // A withheld post was returned: X bills it.
        #expect(withheld.postsRead.count == 3)
    }

    @Test func anIdNeitherReturnedNorExplainedIsNotShown() throws {
        let body = Data(#"{"data":[{"id":"1859170000000100101","text":"x"}]}"#.utf8)
        let lookup = try PostLookup.decode(body, asked: Self.ids)
        #expect(lookup.present == [Self.ids[0]])
        #expect(lookup.gone == [Self.ids[1]: .unanswered, Self.ids[2]: .unanswered])
        // Only errors (every post gone) is an answer, not a failure.
        let errorsOnly = try PostLookup.decode(Fixture.data("tweets-lookup.some-deleted.json"), asked: [Self.ids[1]])
        #expect(errorsOnly.gone == [Self.ids[1]: .deleted])
    }

    @Test func aBodyThatIsNotJSONFails() {
        #expect(throws: KFeedError.self) { try PostLookup.decode(Data("<html>".utf8), asked: Self.ids) }
    }

    @Test func theRequestAsksForWithheldOnlyAndAtMostAHundredIDs() {
        let request = PostLookupRequest(ids: (0..<150).map { String(1_859_170_000_000_000_000 + $0) })
        #expect(request.ids.count == 100)
        let url = request.url(baseURL: URL(string: "https://api.x.com/")!).absoluteString
        #expect(url.hasPrefix("https://api.x.com/2/tweets?ids=1859170000000000000,1859170000000000001,"))
        #expect(url.hasSuffix("&tweet.fields=withheld"))
    }

    @Test func aClientLooksUpInRequestsOfAHundredWithinItsLimit() async throws {
        let start = Date(timeIntervalSince1970: 1_795_338_000)
        let x = SimulatedX(start: start, postsPerDay: 400)
        x.deleted = [3_000]
        let client = XClient(configuration: .init(maxTries: 1), transport: x, sleep: { _ in })
        let ids = (2_900..<3_150).map { String(1_859_170_000_000_000_000 + $0 * 1000) }
        var billed: [String] = []
        let answer = try await client.lookUp(ids + ids.prefix(5), postLimit: 240) { billed += $0 }
        #expect(x.lookupRequests.map(\.count) == [100, 100, 40])
        #expect(answer.gone == [String(1_859_170_000_000_000_000 + 3_000_000): .deleted])
        #expect(answer.present.count == 239)
        #expect(billed.count == 239)
    }
}

/// X's own count of the posts read (`GET /2/usage/tweets`), as `kfeed status` sets it beside the ledger's.
struct UsageReportTests {
    @Test func daysAndTotalsAreReadFromStringsOrNumbers() throws {
        let sample = try UsageReport.decode(Fixture.data("usage-tweets.sample.json"))
        #expect(sample.days == ["2026-11-20": 0, "2026-11-21": 31, "2026-11-22": 34])
        #expect(sample.projectUsage == 65)
        #expect(sample.projectCap == 3_000_000)
        #expect(sample.capResetDay == 19)
        let numbers = try UsageReport.decode(Fixture.data("usage-tweets.numbers.json"))
        #expect(numbers.days == ["2026-11-22": 12])
        #expect(numbers.projectUsage == 12)
    }

    @Test func aBodyWithoutDataFails() {
        #expect(throws: KFeedError.self) { try UsageReport.decode(Data(#"{"errors":[]}"#.utf8)) }
        #expect(throws: KFeedError.self) { try UsageReport.decode(Data("[]".utf8)) }
    }

    @Test func theRequestNamesItsDaysAndFields() {
        let url = UsageReport.url(baseURL: URL(string: "http://127.0.0.1:9")!, days: 400).absoluteString
        #expect(url.hasPrefix("http://127.0.0.1:9/2/usage/tweets?days=90&usage.fields="))
        #expect(url.contains("daily_project_usage"))
    }
}

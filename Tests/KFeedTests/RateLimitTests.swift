import Foundation
import KFeedBase
import Testing

@testable import KFeed
@testable import KFeedHTTP
@testable import KFeedImages
@testable import KFeedX

struct RateLimitTests {
    private static func response(_ headers: [(String, String)]) -> HTTPResponse {
        HTTPResponse(
            status: 429,
            headers: headers.map { HTTPHeader($0.0, $0.1) },
            url: URL(fileURLWithPath: "/2/tweets/search/recent")
        )
    }

    @Test func readsTheFiguresXSends() throws {
        let limit = try #require(
            RateLimit(
                headers: Self.response([
                    ("x-rate-limit-limit", "450"), ("x-rate-limit-remaining", "0"),
                    ("x-rate-limit-reset", "1795000900"), ("x-app-limit-24hour-remaining", "12"),
                ])
            )
        )
        #expect(limit.limit == 450)
        #expect(limit.remaining == 0)
        #expect(limit.reset == Date(timeIntervalSince1970: 1_795_000_900))
        #expect(limit.appRemaining24Hours == 12)
    }

    /// Found by fuzzing: `nan` (or `1e300`) parsed as a reset date, and classifying the 429 trapped formatting it.
    @Test(arguments: ["nan", "inf", "-inf", "1e300", "-5", "253402300800", "soon", ""])
    func resetsThatAreNoEpochSecondsAreDropped(value: String) throws {
        let limit = try #require(
            RateLimit(headers: Self.response([("x-rate-limit-remaining", "0"), ("x-rate-limit-reset", value)]))
        )
        #expect(limit.reset == nil)
        #expect(RateLimit(headers: Self.response([("x-rate-limit-reset", value)])) == nil)
        let error = XClient.classify(Self.response([("x-rate-limit-reset", value)]))
        #expect(error.code == .rateLimited)
        #expect(error.retryNotBefore == nil)
    }
}

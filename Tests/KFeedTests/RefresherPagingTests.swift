import Foundation
import KFeedBase
import KFeedTestSupport
import Testing

@testable import KFeed
@testable import KFeedHTTP
@testable import KFeedImages
@testable import KFeedX

/// What reaches the timeline from X's pages: a first refresh reads pages while its timeline is not full, sizes each
/// next page for the usable posts still missing, and takes what the pages had when they or the page budget run out.
struct RefresherPagingTests {
    private static let t0 = Date(timeIntervalSince1970: 1_795_338_000)  // 2026-11-22T09:00:00Z

    /// A recorded scenario's search, read by a timeline of `entries` with `pageBudget` pages.
    struct Scenario: Sendable, CustomTestStringConvertible {
        var name: String
        var entries = 24
        var pageBudget = 3
        /// The entries the timeline gets.
        var made: Int
        /// The `max_results` of each search request, in order.
        var pageSizes: [String]

        var testDescription: String { "\(name), \(entries) entries, \(pageBudget) pages at most" }
    }

    /// The searches answered from the recorded `scenario`, every picture and avatar with one small JPEG.
    private static func transport(_ scenario: String) throws -> StubTransport {
        let replay = try ReplayTransport(directory: Fixture.replay(scenario))
        let tiny = JPEGThumbnailer.placeholder(size: ImageSize(width: 120, height: 90))
        return StubTransport { request in
            guard request.url.path == RecentSearchRequest.path else {
                return HTTPResponse(status: 200, body: tiny, url: request.url)
            }
            return try await replay.send(request)
        }
    }

    /// A first refresh over `scenario`: no history (every picture here is the same JPEG), so the timeline is the
    /// builder's selection from the pages read.
    private static func refresh(
        _ scenario: String,
        entries: Int = 24,
        pageBudget: Int = 3,
        in directory: URL
    ) async throws -> (Manifest, searches: [[String: String]], Refresher) {
        let transport = try Self.transport(scenario)
        let refresher = Refresher.testing(
            in: directory,
            transport: transport,
            settings: .init(
                query: .default,
                builder: TimelineBuilder(entryCount: entries),
                size: .small,
                noRepeatWindow: 0
            ),
            pageBudget: pageBudget
        )
        guard case .refreshed(let manifest, _) = try await refresher.refresh(now: Self.t0) else {
            throw KFeedError(.io, "expected a refresh")
        }
        let searches = transport.requests.filter { $0.url.path == RecentSearchRequest.path }
        return (manifest, searches.map { ReplayTransport.parameters(of: $0.url) }, refresher)
    }

    @Test(arguments: [
        // Page 1 has 17 usable posts: page 2 asks for the 7 missing plus a margin (at least 10), and fills the rest.
        Scenario(
            name: "sample",
            made: 24,
            pageSizes: ["30", String(RecentSearchRequest.pageSize(forEntries: 24 - 17))]
        ),
        // Both pages together hold 7 usable posts; the second page has no next token.
        Scenario(name: "short-pages", made: 7, pageSizes: ["30", "25"]),
        // A budget of one page: the timeline takes the first page's 17 usable posts, not full.
        Scenario(name: "sample", pageBudget: 1, made: 17, pageSizes: ["30"]),
        // A first page that fills a 10-entry timeline is the last one read, though it has a next token.
        Scenario(name: "sample", entries: 10, made: 10, pageSizes: ["13"]),
        // A page without a next token is the last one read, though the timeline is not full.
        Scenario(name: "kpop", made: 4, pageSizes: ["30"]),
    ])
    func pagesAreReadWhileTheTimelineIsNotFull(scenario: Scenario) async throws {
        try await TemporaryDirectory.withAsync { directory in
            let (manifest, searches, _) = try await Self.refresh(
                scenario.name,
                entries: scenario.entries,
                pageBudget: scenario.pageBudget,
                in: directory
            )
            #expect(manifest.entries.count == scenario.made)
            #expect(searches.map { $0["max_results"] } == scenario.pageSizes)
            #expect(searches.first?["next_token"] == nil)
        }
    }

    @Test func theSampleFillsTheTimelineFromTwoPagesAndKeepsTheLastPagesRateLimit() async throws {
        try await TemporaryDirectory.withAsync { directory in
            let (manifest, searches, refresher) = try await Self.refresh("sample", in: directory)
            #expect(manifest.entries.count == 24)
            #expect(searches.count == 2)
            #expect(searches.last?["next_token"] == "b26v89c19zqg8o3fpe17ld5o1i6z6ze5ivkw1nk1wu0ot")
            let rateLimit = try #require(refresher.store.state()?.rateLimit)
            #expect(rateLimit.remaining == 448)
            #expect(rateLimit.limit == 450)
        }
    }

    @Test func partialErrorsBesideDataStillMakeATimelineOfTheUsablePost() async throws {
        try await TemporaryDirectory.withAsync { directory in
            let (manifest, _, _) = try await Self.refresh("partial-errors", in: directory)
            #expect(manifest.entries.map(\.tweetID) == ["1859170000000000201"])
        }
    }
}

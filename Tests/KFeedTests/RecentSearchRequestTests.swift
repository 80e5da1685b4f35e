import Foundation
import KFeedBase
import Testing

@testable import KFeed
@testable import KFeedHTTP
@testable import KFeedImages
@testable import KFeedX

struct RecentSearchRequestTests {
    private static let base = XClient.Configuration.defaultBaseURL

    /// The raw `name=value` pairs of a URL's query, values still percent-encoded.
    private static func encodedPairs(of url: URL) throws -> [(name: String, value: Substring)] {
        let query = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery)
        return query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts[0]), parts.count > 1 ? parts[1] : "")
        }
    }

    private static func encodedValue(_ name: String, in url: URL) throws -> Substring {
        try #require(try encodedPairs(of: url).first { $0.name == name }?.value)
    }

    // MARK: - Encoding round trips

    @Test(arguments: [
        "c++ has:images",
        "rock&roll has:images",
        "a=b has:images",
        "#kpop has:images",
        "100% fan has:images",
        "\"exact phrase\" has:images",
        "(kpop OR bts) has:images -is:retweet",
        "케이팝 무대 has:images",
        "💜🫶 👨‍👩‍👧 has:images",
        "from:seoul_lens has:images",
        "context:55.888105153038958593 has:images -is:retweet",
        "a+b&c=d#e%f \"g h\" (i) 한 🇰🇷 j:k ~l,m/n?o;p'q",
        "%41%2B already-looking-encoded",
        "مرحبا has:images",
    ])
    func queryValueRoundTripsExactly(raw: String) throws {
        let query = try RecentSearchQuery(raw: raw)
        let url = RecentSearchRequest(query: query, maxResults: 10).url(baseURL: Self.base)

        let encoded = try Self.encodedValue("query", in: url)
        #expect(PercentEncoding.decode(encoded) == raw)

        let items = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems)
        #expect(items.first { $0.name == "query" }?.value == raw)
        #expect(ReplayTransport.parameters(of: url)["query"] == raw)

        for literal in ["+", "&", "=", "#", " ", "\"", "(", ")", ":"] {
            #expect(!encoded.contains(literal), "literal '\(literal)' in \(encoded)")
        }
        #expect(encoded.unicodeScalars.allSatisfy { $0.isASCII })
    }

    @Test func encodingEscapesReservedCharactersWithUppercaseHex() {
        #expect(PercentEncoding.encode("a+b c&d=e#f%\"():") == "a%2Bb%20c%26d%3De%23f%25%22%28%29%3A")
        #expect(PercentEncoding.encode("AZaz09-._~,") == "AZaz09-._~,")
        #expect(PercentEncoding.encode("한") == "%ED%95%9C")
        #expect(PercentEncoding.encode("💜") == "%F0%9F%92%9C")
        #expect(PercentEncoding.encode("") == "")
    }

    @Test func decodingLeavesPlusAlone() {
        #expect(PercentEncoding.decode("a+b%20c") == "a+b c")
        #expect(PercentEncoding.decode("%ed%95%9c") == "한")
    }

    @Test(arguments: ["%", "%4", "%G1", "abc%2", "%FF", "%C3%28", "%ED%A0%80"])
    func decodingMalformedEscapesOrUTF8GivesNil(text: String) {
        #expect(PercentEncoding.decode(Substring(text)) == nil)
    }

    // MARK: - Parameters

    @Test func fieldAndExpansionParametersAreExactlyWhatTheJoinNeeds() throws {
        let url = RecentSearchRequest(query: .default, maxResults: 36).url(baseURL: Self.base)
        let pairs = try Self.encodedPairs(of: url)
        #expect(
            pairs.map(\.name) == ["query", "max_results", "expansions", "tweet.fields", "media.fields", "user.fields"]
        )
        let values = Dictionary(uniqueKeysWithValues: pairs.map { ($0.name, String($0.value)) })
        #expect(values["max_results"] == "36")
        #expect(values["expansions"] == "attachments.media_keys,author_id")
        #expect(values["tweet.fields"] == "attachments,author_id,created_at,possibly_sensitive,lang")
        #expect(values["media.fields"] == "url,preview_image_url,type,width,height,alt_text")
        #expect(values["user.fields"] == "name,username,profile_image_url")
        #expect(url.absoluteString.hasPrefix("https://api.x.com/2/tweets/search/recent?query=context%3A55."))
    }

    @Test(arguments: [
        (-5, 10), (0, 10), (1, 10), (9, 10), (10, 10), (11, 11), (50, 50), (100, 100), (101, 100), (1_000, 100),
    ])
    func maxResultsIsClampedToTenThroughHundred(asked: Int, sent: Int) throws {
        let request = RecentSearchRequest(query: .default, maxResults: asked)
        #expect(request.maxResults == sent)
        #expect(try Self.encodedValue("max_results", in: request.url(baseURL: Self.base)) == "\(sent)")
    }

    @Test(arguments: [
        (1, 10), (8, 10), (9, 12), (10, 13), (24, 30), (25, 32), (79, 99), (80, 100), (90, 100), (100, 100),
    ])
    func pageSizeAddsAQuarterAgainAsMarginWithinLimits(entries: Int, pageSize: Int) {
        #expect(RecentSearchRequest.pageSize(forEntries: entries) == pageSize)
    }

    @Test(arguments: [(24, 0, 30), (24, 2, 28), (24, 6, 24), (24, 30, 24), (24, -3, 30), (8, 5, 10)])
    func usablePostsInHandReplaceTheMargin(entries: Int, spare: Int, pageSize: Int) {
        #expect(RecentSearchRequest.pageSize(forEntries: entries, spare: spare) == pageSize)
    }

    @Test func nextTokenSinceIDAndUntilIDAreAbsentUnlessSet() throws {
        let url = RecentSearchRequest(query: .default, maxResults: 10).url(baseURL: Self.base)
        let names = try Self.encodedPairs(of: url).map(\.name)
        #expect(!names.contains("next_token"))
        #expect(!names.contains("since_id"))
        #expect(!names.contains("until_id"))
    }

    @Test func nextTokenAndSinceIDAreSentWhenSet() throws {
        let request = RecentSearchRequest(
            query: .default,
            maxResults: 10,
            nextToken: "b26v89c19zqg8o3fpe17ld5o1i6z6ze5ivkw1nk1wu0ot",
            sinceID: "1859170000000000001"
        )
        let url = request.url(baseURL: Self.base)
        #expect(try Self.encodedValue("next_token", in: url) == "b26v89c19zqg8o3fpe17ld5o1i6z6ze5ivkw1nk1wu0ot")
        #expect(try Self.encodedValue("since_id", in: url) == "1859170000000000001")
        #expect(try Self.encodedPairs(of: url).count == 8)
    }

    @Test func untilIDIsSentWhenSet() throws {
        let request = RecentSearchRequest(query: .default, maxResults: 10, untilID: "1859100000000000000")
        let url = request.url(baseURL: Self.base)
        #expect(try Self.encodedValue("until_id", in: url) == "1859100000000000000")
        #expect(try Self.encodedPairs(of: url).count == 7)
    }

    @Test func nextTokenWithReservedCharactersIsEncoded() throws {
        let request = RecentSearchRequest(query: .default, maxResults: 10, nextToken: "a+b/c=")
        let url = request.url(baseURL: Self.base)
        #expect(try Self.encodedValue("next_token", in: url) == "a%2Bb%2Fc%3D")
        #expect(ReplayTransport.parameters(of: url)["next_token"] == "a+b/c=")
    }

    @Test(arguments: [
        ("https://api.x.com", "https://api.x.com", "/2/tweets/search/recent"),
        ("https://api.x.com/", "https://api.x.com", "/2/tweets/search/recent"),
        ("https://api.x.com//", "https://api.x.com", "/2/tweets/search/recent"),
        ("http://127.0.0.1:8080/proxy", "http://127.0.0.1:8080", "/proxy/2/tweets/search/recent"),
        ("http://127.0.0.1:8080/proxy/", "http://127.0.0.1:8080", "/proxy/2/tweets/search/recent"),
    ])
    func baseURLIsJoinedWithTheAPIPath(base: String, origin: String, path: String) throws {
        let url = RecentSearchRequest(query: .default, maxResults: 10).url(baseURL: try #require(URL(string: base)))
        #expect(url.absoluteString.hasPrefix("\(origin)\(path)?query="))
        let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        #expect(components.path == path)
        #expect(ReplayTransport.parameters(of: url)["query"] == RecentSearchQuery.default.text)
    }

    @Test
    func decodingAnEscapeWithASignGivesNil() {
        #expect(PercentEncoding.decode("%+5") == nil)
        #expect(PercentEncoding.decode("a%+Fb") == nil)
    }
}

import KFeedBase
import Testing

@testable import KFeed
@testable import KFeedImages
@testable import KFeedX

struct RecentSearchQueryTests {
    // MARK: - Building from contexts

    @Test func oneContextIsFollowedByTheImageFilter() throws {
        let query = RecentSearchQuery(contexts: [try ContextAnnotation(parsing: "65.852262932607926273")])
        #expect(query.text == "context:65.852262932607926273 has:images -is:retweet")
    }

    @Test func severalContextsAreOredInParentheses() throws {
        let contexts = try ["55.888105153038958593", "65.852262932607926273", "3.10026820777"]
            .map { try ContextAnnotation(parsing: $0) }
        let query = RecentSearchQuery(contexts: contexts)
        #expect(
            query.text
                == "(context:55.888105153038958593 OR context:65.852262932607926273 OR context:3.10026820777)"
                + " has:images -is:retweet"
        )
    }

    @Test func duplicateContextsAreRemovedKeepingFirstOrder() throws {
        let pets = try ContextAnnotation(parsing: "65.852262932607926273")
        let query = RecentSearchQuery(contexts: [pets, .kpop, pets, .kpop])
        #expect(
            query.text == "(context:65.852262932607926273 OR context:55.888105153038958593) has:images -is:retweet"
        )
    }

    @Test func repeatedSingleContextIsNotParenthesised() {
        let query = RecentSearchQuery(contexts: [.kpop, .kpop])
        #expect(query.text == "context:55.888105153038958593 has:images -is:retweet")
    }

    @Test func noContextsMeansTheKpopDefault() {
        let query = RecentSearchQuery(contexts: [])
        #expect(query.text == "context:55.888105153038958593 has:images -is:retweet")
        #expect(query == RecentSearchQuery.default)
        #expect(query.description == query.text)
    }

    @Test func builtQueriesPassValidation() throws {
        let built = RecentSearchQuery(contexts: [.kpop, try ContextAnnotation(parsing: "65.852262932607926273")])
        #expect(try RecentSearchQuery(raw: built.text) == built)
    }

    // MARK: - Validating raw queries

    @Test(arguments: ["", " ", "   \t ", "\n", " \r\n "])
    func emptyOrWhiteSpaceQueryIsAConfigurationError(raw: String) {
        let error = #expect(throws: KFeedError.self) { try RecentSearchQuery(raw: raw) }
        #expect(error?.code == .configuration)
        #expect(error?.message.contains("empty") == true)
    }

    @Test func queryOf513CharactersIsRejected() {
        let raw = String(repeating: "a", count: 513)
        let error = #expect(throws: KFeedError.self) { try RecentSearchQuery(raw: raw) }
        #expect(error?.code == .configuration)
        #expect(error?.message.contains("513") == true)
    }

    @Test func queryOf512CharactersIsAccepted() throws {
        let raw = String(repeating: "a", count: 501) + " has:images"
        #expect(raw.count == 512)
        #expect(try RecentSearchQuery(raw: raw).text == raw)
    }

    @Test func lengthCountsCharactersNotUTF8Bytes() throws {
        let raw = String(repeating: "케", count: 512)
        #expect(raw.utf8.count > 512)
        #expect(try RecentSearchQuery(raw: raw).text == raw)
    }

    @Test(arguments: [
        "has:images -is:retweet", "lang:ko has:media", "has:images", "-is:retweet", "is:verified lang:en",
        "(has:images OR has:media) -is:retweet", "-kpop has:images", "\"\" has:images", "OR", "-context:55.1",
    ])
    func queryOfOnlyConjunctionRequiredOperatorsIsRejected(raw: String) {
        let error = #expect(throws: KFeedError.self) { try RecentSearchQuery(raw: raw) }
        #expect(error?.code == .configuration)
        #expect(error?.message.contains("standalone") == true)
    }

    @Test(arguments: [
        "context:abc", "context:55", "context:55.", "context:.888105153038958593", "context:55.abc",
        "context:55.888.1", "context:55.12345678901234567890 kpop", "kpop -context:5x.1",
        "kpop (context:55 OR context:65.1)",
    ])
    func malformedContextIDIsRejected(raw: String) {
        let error = #expect(throws: KFeedError.self) { try RecentSearchQuery(raw: raw) }
        #expect(error?.code == .configuration)
        #expect(error?.message.contains("context:") == true)
    }

    @Test(arguments: [
        "\"exact phrase has:images", "kpop\"", "\"open \"closed\" ", "(kpop OR bts", "kpop OR bts)",
        "((kpop) OR bts", "kpop) OR (bts", ")kpop(",
    ])
    func unbalancedQuotesOrParenthesesAreRejected(raw: String) {
        let error = #expect(throws: KFeedError.self) { try RecentSearchQuery(raw: raw) }
        #expect(error?.code == .configuration)
    }

    @Test func controlCharacterIsRejected() {
        let error = #expect(throws: KFeedError.self) { try RecentSearchQuery(raw: "kpop\u{7}has:images") }
        #expect(error?.code == .configuration)
        #expect(error?.message.contains("U+7") == true)
    }

    @Test(arguments: [
        "kpop", "kpop has:images -is:retweet", "\"exact phrase\" has:images", "#kpop has:images", "@user",
        "from:x", "from:some_user has:images", "케이팝 has:images", "💜 has:images -is:retweet", "👨‍👩‍👧",
        "context:55.888105153038958593", "(context:55.888105153038958593 OR #kpop) has:images -is:retweet",
        "url:\"x.com\" lang:ko", "\"무대 사진\" OR #KPOP", "\"(not a group\" has:images", "kpop OR",
    ])
    func validQueryIsKeptExactlyAsGiven(raw: String) throws {
        let query = try RecentSearchQuery(raw: raw)
        #expect(query.text == raw)
    }

    // MARK: - Context annotations

    @Test func contextAnnotationParsesDomainAndEntity() throws {
        let context = try ContextAnnotation(parsing: "55.888105153038958593")
        #expect(context.domainID == "55")
        #expect(context.entityID == "888105153038958593")
        #expect(context.queryOperator == "context:55.888105153038958593")
        #expect(context.description == "55.888105153038958593")
        #expect(context == .kpop)
    }

    @Test func contextAnnotationAcceptsNineteenDigitIDs() throws {
        let context = try ContextAnnotation(parsing: "1234567890123456789.9999999999999999999")
        #expect(context.domainID == "1234567890123456789")
        #expect(context.entityID == "9999999999999999999")
    }

    @Test(arguments: [
        "", "55", "55.", ".888105153038958593", "abc", "55.abc", "5x.1", "55.888.1", " 55.1", "55.1 ",
        "55.12345678901234567890", "-55.1", "55_1", "٥٥.١",
    ])
    func malformedContextAnnotationIsAConfigurationError(text: String) {
        let error = #expect(throws: KFeedError.self) { try ContextAnnotation(parsing: text) }
        #expect(error?.code == .configuration)
        #expect(error?.message.contains("DOMAIN.ENTITY") == true)
    }
}

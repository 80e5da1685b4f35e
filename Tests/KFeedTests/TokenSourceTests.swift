import Foundation
import KFeedBase
import KFeedTestSupport
import Testing

@testable import KFeed
@testable import KFeedHTTP
@testable import KFeedImages
@testable import KFeedX

struct TokenSourceTests {
    private static let secret = "AAAAAAAAAAAAAAAAAAAAAKfeedSecret%2Fxyz"

    private static func write(_ text: String, to file: URL, permissions: Int = 0o600) throws {
        try Data(text.utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: file.path)
    }

    /// Loads the token, collecting warnings.
    private static func token(
        file: URL? = nil,
        _ environment: SettingsEnvironment
    ) throws -> (token: BearerToken, warnings: [String]) {
        var warnings: [String] = []
        let token = try TokenSource.token(tokenFile: file, environment: environment) { warnings.append($0) }
        return (token, warnings)
    }

    // MARK: - Sources

    @Test func environmentVariableIsUsed() throws {
        let (token, warnings) = try Self.token(SettingsEnvironment(process: ["X_BEARER_TOKEN": Self.secret]))
        #expect(token.secret == Self.secret)
        #expect(warnings.isEmpty)
    }

    @Test func twitterVariableIsTheFallback() throws {
        let (token, _) = try Self.token(SettingsEnvironment(process: ["TWITTER_BEARER_TOKEN": "fallback"]))
        #expect(token.secret == "fallback")
        let (both, _) = try Self.token(
            SettingsEnvironment(process: ["TWITTER_BEARER_TOKEN": "fallback", "X_BEARER_TOKEN": "primary"])
        )
        #expect(both.secret == "primary")
    }

    @Test func environmentWinsOverDotEnv() throws {
        let environment = SettingsEnvironment(
            process: ["X_BEARER_TOKEN": "from-environment"],
            dotEnv: DotEnv(parsing: "X_BEARER_TOKEN=from-dotenv")
        )
        #expect(try Self.token(environment).token.secret == "from-environment")
    }

    @Test func environmentTwitterTokenWinsOverDotEnvXToken() throws {
        let environment = SettingsEnvironment(
            process: ["TWITTER_BEARER_TOKEN": "from-environment"],
            dotEnv: DotEnv(parsing: "X_BEARER_TOKEN=from-dotenv")
        )
        #expect(try Self.token(environment).token.secret == "from-environment")
    }

    @Test func dotEnvTokenIsUsedWhenTheEnvironmentHasNone() throws {
        try TemporaryDirectory.with { directory in
            try Self.write(
                "# token\nexport X_BEARER_TOKEN=\"\(Self.secret)\"\r\n",
                to: directory.appendingPathComponent(".env")
            )
            let environment = try SettingsEnvironment.load(directory: directory, process: ["X_BEARER_TOKEN": ""])
            let (token, warnings) = try Self.token(environment)
            #expect(token.secret == Self.secret)
            #expect(warnings.isEmpty)
        }
    }

    @Test(arguments: ["\n", "\n\n", ""])
    func tokenFileWinsOverEverythingAndLosesItsTrailingNewline(ending: String) throws {
        try TemporaryDirectory.with { directory in
            let file = directory.appendingPathComponent("token")
            try Self.write(Self.secret + ending, to: file)
            let (token, warnings) = try Self.token(
                file: file,
                SettingsEnvironment(process: ["X_BEARER_TOKEN": "from-environment"])
            )
            #expect(token.secret == Self.secret)
            #expect(warnings.isEmpty)
        }
    }

    @Test
    func tokenFileWithACRLFLineEndingIsAccepted() throws {
        try TemporaryDirectory.with { directory in
            let file = directory.appendingPathComponent("token")
            try Self.write(Self.secret + "\r\n", to: file)
            #expect(try Self.token(file: file, SettingsEnvironment(process: [:])).token.secret == Self.secret)
        }
    }

    // MARK: - Malformed tokens

    @Test(arguments: ["abc def", "abc\tdef", "abc\u{7}def", "abc\u{0}def", " abc", "abc ", "abcdé", "abc\u{7F}"])
    func tokenWithWhiteSpaceOrControlCharactersIsRejected(token: String) throws {
        try TemporaryDirectory.with { directory in
            let file = directory.appendingPathComponent("token")
            try Self.write(token + "\n", to: file)
            let error = #expect(throws: KFeedError.self) {
                try Self.token(file: file, SettingsEnvironment(process: [:]))
            }
            #expect(error?.code == .configuration)
            #expect(error?.message.contains(file.path) == true)
            #expect(error?.message.contains("abc") == false)
            #expect(error?.description.contains(token) == false)
        }
    }

    @Test func tokenInTheEnvironmentWithAnInnerSpaceIsRejectedWithoutShowingIt() {
        let error = #expect(throws: KFeedError.self) {
            try Self.token(SettingsEnvironment(process: ["X_BEARER_TOKEN": "secret part"]))
        }
        #expect(error?.code == .configuration)
        #expect(error?.message.contains("X_BEARER_TOKEN") == true)
        #expect(error?.message.contains("secret") == false)
    }

    @Test func overlongTokenIsRejected() {
        let error = #expect(throws: KFeedError.self) {
            try BearerToken(String(repeating: "a", count: 1_025), source: "test")
        }
        #expect(error?.code == .configuration)
        #expect((try? BearerToken(String(repeating: "a", count: 1_024), source: "test")) != nil)
    }

    @Test func emptyTokenFileIsRejected() throws {
        try TemporaryDirectory.with { directory in
            let file = directory.appendingPathComponent("token")
            try Self.write("\n", to: file)
            let error = #expect(throws: KFeedError.self) {
                try Self.token(file: file, SettingsEnvironment(process: [:]))
            }
            #expect(error?.code == .configuration)
            #expect(error?.message.contains("empty") == true)
        }
    }

    @Test func missingTokenFileIsAConfigurationError() throws {
        try TemporaryDirectory.with { directory in
            let file = directory.appendingPathComponent("absent")
            let error = #expect(throws: KFeedError.self) {
                try Self.token(file: file, SettingsEnvironment(process: ["X_BEARER_TOKEN": Self.secret]))
            }
            #expect(error?.code == .configuration)
            #expect(error?.message.contains(file.path) == true)
            #expect(error?.message.contains(Self.secret) == false)
        }
    }

    @Test func noTokenIsAConfigurationErrorNamingTheVariable() {
        let environment = SettingsEnvironment(
            process: ["X_BEARER_TOKEN": "", "OTHER": "1"],
            dotEnv: DotEnv(parsing: "X_BEARER_TOKEN=\nKFEED_SIZE=small")
        )
        let error = #expect(throws: KFeedError.self) { try Self.token(environment) }
        #expect(error?.code == .configuration)
        #expect(error?.code.exitCode == 78)
        #expect(error?.message.contains("X_BEARER_TOKEN") == true)
    }

    // MARK: - Permissions

    @Test(arguments: [0o640, 0o644, 0o604, 0o660])
    func sharedTokenFileIsWarnedAboutByName(permissions: Int) throws {
        try TemporaryDirectory.with { directory in
            let file = directory.appendingPathComponent("token")
            try Self.write(Self.secret + "\n", to: file, permissions: permissions)
            let (token, warnings) = try Self.token(file: file, SettingsEnvironment(process: [:]))
            #expect(token.secret == Self.secret)
            #expect(warnings.count == 1)
            #expect(warnings.first?.contains(file.path) == true)
            #expect(warnings.first?.contains("chmod 600") == true)
            #expect(warnings.allSatisfy { !$0.contains(Self.secret) })
        }
    }

    @Test(arguments: [0o600, 0o400])
    func privateTokenFileGivesNoWarning(permissions: Int) throws {
        try TemporaryDirectory.with { directory in
            let file = directory.appendingPathComponent("token")
            try Self.write(Self.secret, to: file, permissions: permissions)
            #expect(try Self.token(file: file, SettingsEnvironment(process: [:])).warnings.isEmpty)
        }
    }

    @Test func sharedDotEnvHoldingTheTokenIsWarnedAbout() throws {
        try TemporaryDirectory.with { directory in
            let file = directory.appendingPathComponent(".env")
            try Self.write("X_BEARER_TOKEN=\(Self.secret)\n", to: file, permissions: 0o644)
            let environment = try SettingsEnvironment.load(directory: directory, process: [:])
            let (token, warnings) = try Self.token(environment)
            #expect(token.secret == Self.secret)
            #expect(warnings.count == 1)
            #expect(warnings.first?.contains(file.path) == true)
            #expect(warnings.allSatisfy { !$0.contains(Self.secret) })
        }
    }

    @Test func sharedDotEnvIsNotWarnedAboutWhenTheTokenComesFromTheEnvironment() throws {
        try TemporaryDirectory.with { directory in
            try Self.write("X_BEARER_TOKEN=file\n", to: directory.appendingPathComponent(".env"), permissions: 0o644)
            let environment = try SettingsEnvironment.load(directory: directory, process: ["X_BEARER_TOKEN": "env"])
            let (token, warnings) = try Self.token(environment)
            #expect(token.secret == "env")
            #expect(warnings.isEmpty)
        }
    }

    @Test func malformedDotEnvTokenErrorNamesTheFileNotTheToken() throws {
        try TemporaryDirectory.with { directory in
            let file = directory.appendingPathComponent(".env")
            try Self.write("X_BEARER_TOKEN='has space'\n", to: file)
            let environment = try SettingsEnvironment.load(directory: directory, process: [:])
            let error = #expect(throws: KFeedError.self) { try Self.token(environment) }
            #expect(error?.code == .configuration)
            #expect(error?.message.contains(file.path) == true)
            #expect(error?.message.contains("has space") == false)
        }
    }

    // MARK: - Redaction

    @Test func tokenNeverPrints() throws {
        let token = try BearerToken(Self.secret, source: "test")
        #expect(token.description == "[redacted]")
        #expect("\(token)" == "[redacted]")
        #expect(String(reflecting: token) == "BearerToken([redacted])")
        #expect(!"\([token])".contains(Self.secret))
        #expect(token.authorization == HTTPHeader("Authorization", "Bearer \(Self.secret)"))
    }
}

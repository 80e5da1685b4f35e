import Foundation
import KFeedBase
import Testing

@testable import KFeed
@testable import KFeedImages

struct DotEnvTests {
    @Test func parsesPlainAssignments() {
        let env = DotEnv(parsing: "A=1\nB=two words\nKFEED_CACHE_DIR=/tmp/k feed\n")
        #expect(env.values == ["A": "1", "B": "two words", "KFEED_CACHE_DIR": "/tmp/k feed"])
    }

    @Test func skipsCommentsAndBlankLines() {
        let text = """
            # a comment
              # an indented comment

            A=1
            \t
            #B=2
            C=3
            """
        #expect(DotEnv(parsing: text).values == ["A": "1", "C": "3"])
    }

    @Test(arguments: ["export A=1", "export  A=1", "export\tA=1", "  export A=1"])
    func exportPrefixIsIgnored(line: String) {
        #expect(DotEnv(parsing: line).values == ["A": "1"])
    }

    @Test func exportAsAKeyPrefixIsNotStripped() {
        #expect(DotEnv(parsing: "exported=1\nEXPORT_X=2").values == ["exported": "1", "EXPORT_X": "2"])
    }

    @Test(arguments: [
        ("A='single quoted'", "single quoted"),
        ("A=\"double quoted\"", "double quoted"),
        ("A='keeps # and \\n literally'", "keeps # and \\n literally"),
        ("A=\"a # b\" # trailing comment", "a # b"),
        ("A='a # b' # trailing comment", "a # b"),
        ("A=\"line1\\nline2\"", "line1\nline2"),
        ("A=\"\"", ""),
        ("A=''", ""),
        ("A=  \"padded\"  ", "padded"),
        ("A=\"unterminated", "unterminated"),
    ])
    func quotedValues(line: String, expected: String) {
        #expect(DotEnv(parsing: line).values["A"] == expected)
    }

    @Test
    func escapedQuoteInsideDoubleQuotesIsKept() {
        #expect(DotEnv(parsing: #"A="say \"hi\"""#).values["A"] == #"say "hi""#)
        #expect(DotEnv(parsing: #"A="a\"b" # comment"#).values["A"] == #"a"b"#)
    }

    @Test(arguments: [
        ("A=value # comment", "value"),
        ("A=value\t# comment", "value"),
        ("A=value#not-a-comment", "value#not-a-comment"),
        ("A=  spaced value  ", "spaced value"),
        ("A=", ""),
        ("A = value", "value"),
        ("A=x=y", "x=y"),
    ])
    func unquotedValues(line: String, expected: String) {
        #expect(DotEnv(parsing: line).values["A"] == expected)
    }

    @Test
    func emptyValueWithAnInlineCommentIsEmpty() {
        #expect(DotEnv(parsing: "A= # set me").values["A"] == "")
        #expect(DotEnv(parsing: "A=\t# set me").values["A"] == "")
    }

    @Test func crlfLineEndingsAreStripped() {
        let env = DotEnv(parsing: "A=1\r\nB='two'\r\n# c\r\n\r\nC=\"3\"\r\nX_BEARER_TOKEN=abc\r\n")
        #expect(env.values == ["A": "1", "B": "two", "C": "3", "X_BEARER_TOKEN": "abc"])
        #expect(env.values.values.allSatisfy { !$0.contains("\r") })
    }

    @Test func lastAssignmentWins() {
        #expect(DotEnv(parsing: "A=1\nA=2\nexport A=3").values == ["A": "3"])
    }

    @Test(arguments: ["no equals sign", "=value", "BAD-KEY=1", "BAD KEY=1", "KEY.X=1", "키=1"])
    func nonAssignmentsAreIgnored(line: String) {
        #expect(DotEnv(parsing: line + "\nGOOD=1").values == ["GOOD": "1"])
    }

    @Test func loadReturnsNilWithoutAFile() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("kfeed-\(UUID().uuidString)/.env")
        #expect(try DotEnv.load(missing) == nil)
    }

    @Test func loadReadsAFileAndRejectsNonUTF8() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("kfeed-dotenv-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let file = directory.appendingPathComponent(".env")
        try Data("KFEED_SIZE=large\n".utf8).write(to: file)
        #expect(try DotEnv.load(file)?.values == ["KFEED_SIZE": "large"])

        try Data([0x41, 0x3D, 0xFF, 0xFE, 0x0A]).write(to: file)
        let error = #expect(throws: KFeedError.self) { try DotEnv.load(file) }
        #expect(error?.code == .configuration)
        #expect(error?.message.contains(file.path) == true)
    }

    // MARK: - SettingsEnvironment

    @Test func processEnvironmentWinsOverDotEnv() {
        let environment = SettingsEnvironment(
            process: ["KFEED_SIZE": "medium", "EMPTY": ""],
            dotEnv: DotEnv(parsing: "KFEED_SIZE=large\nKFEED_QUERY=kpop\nEMPTY=from-file\nBLANK=")
        )
        #expect(environment["KFEED_SIZE"] == "medium")
        #expect(environment["KFEED_QUERY"] == "kpop")
        #expect(environment["EMPTY"] == "from-file")
        #expect(environment["BLANK"] == nil)
        #expect(environment["UNSET"] == nil)
    }

    @Test func loadReadsDotEnvFromTheGivenDirectory() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("kfeed-dotenv-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("export KFEED_CONTEXTS=65.852262932607926273\n".utf8).write(
            to: directory.appendingPathComponent(".env")
        )

        let environment = try SettingsEnvironment.load(directory: directory, process: [:])
        #expect(environment["KFEED_CONTEXTS"] == "65.852262932607926273")
        #expect(environment.dotEnvFile?.lastPathComponent == ".env")

        let empty = try SettingsEnvironment.load(
            directory: directory.appendingPathComponent("none"),
            process: ["A": "1"]
        )
        #expect(empty.dotEnv == nil)
        #expect(empty["A"] == "1")
    }
}

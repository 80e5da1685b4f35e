package import Foundation
import KFeedBase

/// A `.env` file: `KEY=value` lines, `export` prefixes, `#` comments, single or double quotes, CRLF.
package struct DotEnv: Sendable {
    /// The variables, in file order (a later line wins).
    package private(set) var values: [String: String] = [:]

    /// Parses the text of a `.env` file. Lines that are not assignments are ignored.
    package init(parsing text: String) {
        for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            var line = Substring(rawLine)
            if line.hasSuffix("\r") { line = line.dropLast() }
            line = line.drop(while: { $0 == " " || $0 == "\t" })
            if line.hasPrefix("#") || line.isEmpty { continue }
            if line.hasPrefix("export ") || line.hasPrefix("export\t") {
                line = line.dropFirst("export".count).drop(while: { $0 == " " || $0 == "\t" })
            }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty, key.allSatisfy({ $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }) else {
                continue
            }
            values[key] = Self.value(line[line.index(after: equals)...])
        }
    }

    /// Reads `file` if it exists.
    /// - Returns: nil when there is no such file.
    /// - Throws: `KFeedError` with code `.configuration` when it exists but cannot be read as UTF-8 text.
    package static func load(_ file: URL) throws -> DotEnv? {
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        guard let data = FileManager.default.contents(atPath: file.path),
            let text = String(data: data, encoding: .utf8)
        else {
            throw KFeedError(.configuration, "cannot read \(file.path) as UTF-8 text: fix its permissions or remove it")
        }
        return DotEnv(parsing: text)
    }

    private static func value(_ raw: Substring) -> String {
        let text = raw.drop(while: { $0 == " " || $0 == "\t" })
        switch text.first {
        case "'":
            // Single quotes: literal up to the closing quote.
            let body = text.dropFirst()
            return String(body.prefix { $0 != "'" })
        case "\"":
            // Double quotes: `\"`, `\\` and `\n` escapes, up to the closing unescaped quote.
            var result = ""
            var escaped = false
            for character in text.dropFirst() {
                if escaped {
                    result.append(character == "n" ? "\n" : character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    break
                } else {
                    result.append(character)
                }
            }
            return result
        default:
            // Unquoted: an inline comment starts at a `#` that begins the value or follows white space.
            if text.hasPrefix("#") { return "" }
            var value = text
            if let comment = value.range(of: " #") ?? value.range(of: "\t#") { value = value[..<comment.lowerBound] }
            return value.trimmingCharacters(in: .whitespaces)
        }
    }
}

/// The settings environment: the process's variables over those of `.env` in the current directory.
package struct SettingsEnvironment: Sendable {
    /// The process environment.
    package var process: [String: String]
    /// The `.env` file's variables, if there was one.
    package var dotEnv: DotEnv?
    /// The `.env` file's path, for messages.
    package var dotEnvFile: URL?

    /// Creates an environment from explicit values (tests) or the process's and `./.env` (`load()`).
    package init(process: [String: String], dotEnv: DotEnv? = nil, dotEnvFile: URL? = nil) {
        self.process = process
        self.dotEnv = dotEnv
        self.dotEnvFile = dotEnvFile
    }

    /// The process environment and `.env` from `directory`.
    /// - Throws: `KFeedError` with code `.configuration` for an unreadable `.env`.
    package static func load(
        directory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
        process: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> SettingsEnvironment {
        let file = directory.appendingPathComponent(".env")
        return SettingsEnvironment(process: process, dotEnv: try DotEnv.load(file), dotEnvFile: file)
    }

    /// The value of `name`: the process's if set and non-empty, else `.env`'s.
    package subscript(name: String) -> String? {
        if let value = process[name], !value.isEmpty { return value }
        if let value = dotEnv?.values[name], !value.isEmpty { return value }
        return nil
    }
}

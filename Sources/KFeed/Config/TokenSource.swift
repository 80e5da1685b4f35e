package import Foundation
import KFeedBase
package import KFeedX

/// Finds the bearer token: `--token-file`, else `X_BEARER_TOKEN`, else `TWITTER_BEARER_TOKEN`
/// (the process environment first, then `.env`). Never a flag value.
package enum TokenSource {
    /// The variables read, in order.
    package static let variables = ["X_BEARER_TOKEN", "TWITTER_BEARER_TOKEN"]

    /// Loads and validates the token.
    /// - Parameters:
    ///   - tokenFile: the `--token-file` path, if given.
    ///   - environment: the process environment over `.env`.
    ///   - warn: receives a warning when a file holding the token is readable by group or others.
    /// - Returns: the validated token.
    /// - Throws: `KFeedError` with code `.configuration` when there is no token, it is malformed, or the file
    ///   cannot be read.
    package static func token(
        tokenFile: URL?,
        environment: SettingsEnvironment,
        warn: (String) -> Void
    ) throws -> BearerToken {
        if let tokenFile {
            guard let data = FileManager.default.contents(atPath: tokenFile.path),
                let text = String(data: data, encoding: .utf8)
            else {
                throw KFeedError(
                    .configuration,
                    "cannot read the token file \(tokenFile.path): check the path and its permissions"
                )
            }
            warnIfShared(tokenFile, warn: warn)
            var token = Substring(text).unicodeScalars
            while let last = token.last, last == "\n" || last == "\r" { token = token.dropLast() }
            return try BearerToken(String(token), source: tokenFile.path)
        }
        // The real environment wins over `.env`, whichever of the two names each uses.
        for name in variables {
            if let value = environment.process[name], !value.isEmpty { return try BearerToken(value, source: name) }
        }
        for name in variables {
            if let value = environment.dotEnv?.values[name], !value.isEmpty {
                let file = environment.dotEnvFile?.path ?? ".env"
                if let url = environment.dotEnvFile { warnIfShared(url, warn: warn) }
                return try BearerToken(value, source: "\(name) in \(file)")
            }
        }
        throw KFeedError(
            .configuration,
            "no bearer token: set X_BEARER_TOKEN (or TWITTER_BEARER_TOKEN) in the environment or .env, or use --token-file"
        )
    }

    private static func warnIfShared(_ file: URL, warn: (String) -> Void) {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue, mode & 0o077 != 0
        else { return }
        warn("\(file.path) holds the bearer token but is readable by others; run: chmod 600 \(file.path)")
    }
}

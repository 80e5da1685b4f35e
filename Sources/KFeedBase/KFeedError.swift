public import Foundation

/// The one error type the library throws: a code to branch on, a one-line message that says what to do next.
public struct KFeedError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure this is; each code maps to one exit code of the contract.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case usage, configuration, unauthorized, creditsDepleted, rateLimited, usageCapped, transport, serverError
            case apiResponse, replay, cacheUnwritable, io, lockHeld, noEntry
        }
        private let base: Base

        /// A bad flag value or combination the command line could not reject itself.
        public static let usage = Code(base: .usage)
        /// An invalid query, option, `.env` or missing token: fix the configuration.
        public static let configuration = Code(base: .configuration)
        /// The API refused the token (401, 403).
        public static let unauthorized = Code(base: .unauthorized)
        /// The app has no credits left (402 `CreditsDepleted`): a person must add some; retrying does not help.
        public static let creditsDepleted = Code(base: .creditsDepleted)
        /// The API's rate limit was hit (429); retry after the reset time.
        public static let rateLimited = Code(base: .rateLimited)
        /// The app's usage cap was hit (429 `usage-capped`); retry no sooner than the next day.
        public static let usageCapped = Code(base: .usageCapped)
        /// The network failed, timed out or a body exceeded its byte cap.
        public static let transport = Code(base: .transport)
        /// The API kept answering 5xx.
        public static let serverError = Code(base: .serverError)
        /// The API answered with something kfeed cannot use (undecodable, errors only).
        public static let apiResponse = Code(base: .apiResponse)
        /// A replay directory is missing or has no answer for a request.
        public static let replay = Code(base: .replay)
        /// The cache directory cannot be created or written.
        public static let cacheUnwritable = Code(base: .cacheUnwritable)
        /// An I/O error while writing (for example a full disk).
        public static let io = Code(base: .io)
        /// Another refresh holds the cache lock.
        public static let lockHeld = Code(base: .lockHeld)
        /// No timeline entry covers the requested instant.
        public static let noEntry = Code(base: .noEntry)

        public var description: String { base.rawValue }

        /// The process exit code (sysexits) the contract assigns to this kind of failure.
        public var exitCode: Int32 {
            switch base {
            case .usage: 64
            case .apiResponse: 65
            case .replay: 66
            case .noEntry: 69
            case .cacheUnwritable: 73
            case .io: 74
            case .rateLimited, .usageCapped, .transport, .serverError, .lockHeld: 75
            case .unauthorized, .creditsDepleted: 77
            case .configuration: 78
            }
        }
    }

    /// What kind of failure this is.
    public var code: Code
    /// One sentence: what failed, on what input, and what to do next. Never contains a secret.
    public var message: String
    /// The raw detail, when there is one.
    public var underlying: (any Error & Sendable)?
    /// The earliest instant a retry can succeed, when the failure says (rate-limit reset, usage-cap period).
    public var retryNotBefore: Date?

    /// Creates an error.
    public init(
        _ code: Code,
        _ message: String,
        underlying: (any Error & Sendable)? = nil,
        retryNotBefore: Date? = nil
    ) {
        self.code = code
        self.message = message
        self.underlying = underlying
        self.retryNotBefore = retryNotBefore
    }

    public var description: String {
        guard let underlying else { return "\(code): \(message)" }
        return "\(code): \(message) (\(underlying))"
    }
}

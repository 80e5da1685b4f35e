package import Foundation
import KFeedBase

/// A problem object of the X API: the body of an error response (`application/problem+json`, or plain JSON as
/// the 402 `CreditsDepleted` comes), and each element of a 200's `errors` array. This type is the one place where
/// X's problems become ``KFeedError``s (``error(status:rateLimit:)``).
package struct XAPIProblem: Decodable, Sendable {
    struct Detail: Decodable, Sendable {
        var message: String?
    }
    var title: String?
    var detail: String?
    var type: String?
    var reason: String?
    var resourceType: String?
    var resourceID: String?
    var section: String?
    var errors: [Detail]?

    private enum CodingKeys: String, CodingKey {
        case title, detail, type, reason, section, errors
        case resourceType = "resource_type"
        case resourceID = "resource_id"
    }

    /// The last path segment of `type` (hosts vary: api.twitter.com, api.x.com, about:blank).
    package var kind: String? {
        guard let type, let last = type.split(separator: "/").last else { return nil }
        return String(last)
    }

    /// The most specific message: the first `errors[].message`, else `detail`, else `title`.
    package var summary: String? {
        errors?.lazy.compactMap(\.message).first ?? detail ?? title
    }

    /// Whether the problem is named `name` by its `title` or the last segment of its `type`.
    func isNamed(_ title: String, kind: String) -> Bool {
        self.title == title || self.kind == kind
    }

    /// Decodes a body whatever its content type; nil when it is not a problem object.
    package static func decode(_ body: Data) -> XAPIProblem? {
        try? JSONDecoder().decode(XAPIProblem.self, from: body)
    }

    /// A 200 that carries `errors` and no `data`: a failure, unlike partial errors beside data.
    static func errorsOnly(_ problems: [XAPIProblem]) -> KFeedError {
        let detail = problems.first.flatMap { $0.detail ?? $0.title } ?? "no detail"
        return KFeedError(
            .apiResponse,
            "the API answered with errors only (\(problems.count)): \(Sanitized.excerpt(detail))"
        )
    }

    /// Turns a non-2xx answer into the contract's error. Problems are recognised by
    /// name before status: X sends `CreditsDepleted` as 402 with plain `application/json`, and a usage cap as 429
    /// while the rate-limit headers still show plenty remaining.
    /// - Parameters:
    ///   - problem: the decoded body, when it was a problem object.
    ///   - status: the HTTP status.
    ///   - rateLimit: the response's rate-limit headers.
    /// - Returns: the error, coded for its exit status.
    static func error(_ problem: XAPIProblem?, status: Int, rateLimit: RateLimit?) -> KFeedError {
        let said = (problem?.summary).map { ": \(Sanitized.excerpt($0))" } ?? ""
        if let problem, problem.isNamed("CreditsDepleted", kind: "credits") {
            return KFeedError(
                .creditsDepleted,
                "X says this app is out of credits (\(status) CreditsDepleted): add credits to its account in the "
                    + "X developer console (console.x.com, Billing), then run kfeed refresh --force"
            )
        }
        if let problem, problem.isNamed("UsageCapExceeded", kind: "usage-capped") {
            return KFeedError(
                .usageCapped,
                "X's usage cap for this app is reached (\(status) usage-capped); kfeed waits until tomorrow, or raise the cap"
            )
        }
        switch status {
        case 400:
            return KFeedError(
                .configuration,
                "X rejected the search request (400)\(said); check --query and the options"
            )
        case 401:
            return KFeedError(
                .unauthorized,
                "X refused the bearer token (401); check X_BEARER_TOKEN, TWITTER_BEARER_TOKEN or --token-file"
            )
        case 402:
            return KFeedError(
                .creditsDepleted,
                "X refused the request for payment (402)\(said); check the app's credits in the X developer console"
            )
        case 403:
            if problem?.reason == "client-not-enrolled" || problem?.kind == "client-not-enrolled" {
                return KFeedError(
                    .unauthorized,
                    "X refused the app (403 client-not-enrolled): attach it to a project with recent-search access"
                )
            }
            return KFeedError(.unauthorized, "X refused access (403)\(said); check the app's access level")
        case 429:
            let until = rateLimit?.reset.map { " until \(InstantFormat.string(from: $0))" } ?? ""
            return KFeedError(
                .rateLimited,
                "recent search is rate limited (429)\(until); kfeed retries after the reset",
                retryNotBefore: rateLimit?.reset
            )
        case 500...599:
            return KFeedError(.serverError, "X answered \(status)\(said); try again later")
        default:
            return KFeedError(.apiResponse, "X answered an unexpected HTTP \(status)\(said)")
        }
    }
}

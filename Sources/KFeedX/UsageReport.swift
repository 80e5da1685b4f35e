package import Foundation
import KFeedBase
import KFeedHTTP

/// `GET /2/usage/tweets`: the project's posts read per day as X counts them (what `kfeed status` sets beside the
/// ledger's count). Counts arrive as strings or numbers; a day or field that does not decode is left out.
package struct UsageReport: Sendable, Hashable {
    /// The API path.
    package static let path = "/2/usage/tweets"

    /// Posts read per UTC day (`2026-11-25`), the project's.
    package var days: [String: Int] = [:]
    /// Posts read in the current billing period.
    package var projectUsage: Int?
    /// The period's cap.
    package var projectCap: Int?
    /// The day of the month the period starts again.
    package var capResetDay: Int?

    /// Creates an empty report.
    package init() {}

    /// The request's URL on `baseURL`, for the last `days` days (1…90).
    package static func url(baseURL: URL, days: Int) -> URL {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        let fields = PercentEncoding.encode("cap_reset_day,daily_project_usage,project_cap,project_usage")
        return URL(string: "\(base)\(path)?days=\(min(90, max(1, days)))&usage.fields=\(fields)") ?? baseURL
    }

    /// Reads a response body.
    /// - Throws: `KFeedError` `.apiResponse` when it is not a JSON object with `data`.
    package static func decode(_ body: Data) throws -> UsageReport {
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: body)
        } catch {
            throw KFeedError(
                .apiResponse,
                "the usage response is not the JSON kfeed expects (\(body.count) bytes)",
                underlying: error
            )
        }
        guard let data = wire.data else {
            throw KFeedError(.apiResponse, "the usage response has no data (\(body.count) bytes)")
        }
        var report = UsageReport()
        report.projectUsage = data.projectUsage?.value
        report.projectCap = data.projectCap?.value
        report.capResetDay = data.capResetDay?.value
        for day in data.dailyProjectUsage?.usage.compactMap(\.value) ?? [] {
            guard let date = day.date, date.count >= 10, let usage = day.usage?.value,
                date.prefix(10).allSatisfy({ $0.isNumber || $0 == "-" })
            else { continue }
            report.days[String(date.prefix(10)), default: 0].addSaturating(usage)
        }
        return report
    }

    /// The sum of the counts of the days whose name starts with `prefix` (a month: `2026-11`), at most `Int.max`.
    package func total(from prefix: String) -> Int {
        days.filter { $0.key.hasPrefix(prefix) }.values.reduce(into: 0) { $0.addSaturating($1) }
    }

    /// An integer sent as a number or a decimal string.
    private struct Count: Decodable {
        var value: Int?
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Int.self) {
                value = number
            } else if let text = try? container.decode(String.self), let number = Int(text) {
                value = number
            }
            if let number = value, number < 0 { value = nil }
        }
    }

    private struct Day: Decodable {
        var date: String?
        var usage: Count?
    }

    private struct Daily: Decodable {
        var usage: [Lossy<Day>] = []
        private enum CodingKeys: String, CodingKey { case usage }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            usage = (try? container.decodeIfPresent([Lossy<Day>].self, forKey: .usage)) ?? []
        }
    }

    private struct Body: Decodable {
        var projectUsage: Count?
        var projectCap: Count?
        var capResetDay: Count?
        var dailyProjectUsage: Daily?
        private enum CodingKeys: String, CodingKey {
            case projectUsage = "project_usage"
            case projectCap = "project_cap"
            case capResetDay = "cap_reset_day"
            case dailyProjectUsage = "daily_project_usage"
        }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            projectUsage = try? container.decodeIfPresent(Count.self, forKey: .projectUsage)
            projectCap = try? container.decodeIfPresent(Count.self, forKey: .projectCap)
            capResetDay = try? container.decodeIfPresent(Count.self, forKey: .capResetDay)
            dailyProjectUsage = try? container.decodeIfPresent(Daily.self, forKey: .dailyProjectUsage)
        }
    }

    private struct Wire: Decodable {
        var data: Body?
    }
}

extension Int {
    /// Adds `other`, stopping at `Int.max` (counts from the network can be anything).
    fileprivate mutating func addSaturating(_ other: Int) {
        let (sum, overflow) = addingReportingOverflow(other)
        self = overflow ? .max : sum
    }
}

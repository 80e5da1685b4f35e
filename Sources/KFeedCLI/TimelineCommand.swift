import ArgumentParser
import Foundation
import KFeed

/// `kfeed timeline`: prints the hourly schedule.
struct TimelineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline",
        abstract: "Print the hourly schedule (--json: the manifest)."
    )

    @OptionGroup var options: GlobalOptions

    @Flag(help: "Print the manifest (timeline.json) instead of the table.")
    var json = false

    func run() async throws {
        let environment = try SettingsEnvironment.load()
        let settings = try options.settings(environment: environment)
        let manifest = try await Search(settings: settings, environment: environment).manifest()
        if json {
            FileHandle.standardOutput.write(try manifest.jsonData())
            print()
        } else {
            for line in ScheduleText(timeZone: .current, now: settings.now).lines(for: manifest) { print(line) }
        }
    }
}

/// One search as the settings describe it: replayed or live, logged on stderr with `-v`.
struct Search {
    var settings: Settings
    var environment: SettingsEnvironment

    func manifest() async throws -> Manifest {
        let outcome = try await client().search(settings.query, for: settings.builder)
        if settings.verbosity == .verbose {
            for skip in outcome.selection.skipped {
                Console.info("post \(skip.postID) not used: \(skip.reason)")
            }
            for error in outcome.results.partialErrors {
                Console.info("partial error: \(Sanitized.excerpt(error.detail))")
            }
        }
        return settings.builder.manifest(
            for: outcome.selection,
            query: settings.query,
            size: settings.size,
            now: settings.now
        )
    }

    func client() throws -> XClient {
        let verbose = settings.verbosity == .verbose
        let log: @Sendable (String) -> Void = { line in if verbose { Console.info(line) } }
        if let replay = settings.replay {
            return XClient(
                configuration: .init(baseURL: settings.apiBase, pageBudget: settings.pageBudget),
                transport: try ReplayTransport(directory: replay),
                log: log
            )
        }
        let token = try TokenSource.token(tokenFile: settings.tokenFile, environment: environment) {
            Console.warning($0)
        }
        return XClient(
            configuration: .init(baseURL: settings.apiBase, bearerToken: token, pageBudget: settings.pageBudget),
            transport: try CurlTransport(),
            log: log
        )
    }
}

import ArgumentParser
import Foundation
import KFeed

/// `kfeed query`: prints the search URL that would be requested; needs no token and sends nothing.
struct QueryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Print the recent-search URL kfeed would request (no token, no request)."
    )

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let settings = try options.feed().settings
        let request = XClient.firstRequest(for: settings.query, wanting: settings.builder.entryCount)
        print(request.url(baseURL: settings.apiBase).absoluteString)
    }
}

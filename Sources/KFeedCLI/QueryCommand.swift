import ArgumentParser
import Foundation
import KFeed

/// `kfeed query`: prints the search URL that would be requested; needs no token and sends nothing.
struct QueryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Print the recent-search URL kfeed would request (no token, no request)."
    )

    @OptionGroup var selection: FeedSelection
    @OptionGroup var search: SearchOptions
    @OptionGroup var api: APIBaseOption

    func run() async throws {
        let feeds = try Invocation(selection: selection, apiBase: api, search: search).feeds()
        let settings = try feeds.member(named: selection.names.first).settings
        let sent = settings.search
        let request = XClient.firstRequest(for: sent.query, wanting: settings.entries)
        print(request.url(baseURL: feeds.apiBase).absoluteString)
        // Where each account rule is applied: by the query itself, or after the read when 512 characters are full.
        let accounts = { (names: [String]) in names.map { "@\($0)" }.joined(separator: " ") }
        if !settings.allow.isEmpty {
            Console.info(
                sent.allowInQuery
                    ? "allow: only \(accounts(settings.allow)), in the query (from:)"
                    : "allow: only \(accounts(settings.allow)), kept after the read (the query would pass X's 512 "
                        + "characters)"
            )
        }
        if !sent.inQuery.isEmpty { Console.info("deny: \(accounts(sent.inQuery)) excluded in the query (-from:)") }
        if !sent.filtered.isEmpty {
            Console.info(
                "deny: \(accounts(sent.filtered)) dropped after the read (the query would pass X's 512 characters)"
            )
        }
    }
}

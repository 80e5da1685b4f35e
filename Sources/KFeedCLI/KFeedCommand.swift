package import ArgumentParser
import Foundation
import KFeed
import KFeedBase
import Logging

/// `kfeed`: an hourly picture timeline from X's recent search, for widgets and displays.
package struct KFeedCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "kfeed",
        abstract: "Turn an X recent search into an hourly picture timeline for widgets and displays.",
        version: KFeedVersion.description,
        subcommands: [
            TimelineCommand.self, RefreshCommand.self, CurrentCommand.self, QueryCommand.self, PreviewCommand.self,
            ServeCommand.self, StatusCommand.self, FeedCommand.self, HideCommand.self, UnhideCommand.self,
        ]
    )

    package init() {}

    /// Parses the arguments, runs the command, and exits with the contract's code; every error is one line on stderr.
    package static func run(arguments: [String] = Array(CommandLine.arguments.dropFirst())) async -> Never {
        LoggingSystem.bootstrap { _ in ConsoleLogHandler() }
        do {
            var command = try parseAsRoot(arguments)
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
            terminate(0)
        } catch let error as KFeedError {
            Console.error(error.message)
            terminate(error.code.exitCode)
        } catch let code as ExitCode {
            terminate(code.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                terminate(0)
            }
            var message = self.message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
            if message.hasPrefix("Unexpected argument"), message.count > "Unexpected argument ''".count + 24 {
                // Never echo a long stray argument: it may be a pasted token.
                message = "unexpected argument (a token is never an argument: use X_BEARER_TOKEN, .env or --token-file)"
            }
            var help = "kfeed --help"
            if let option = unknownOption(in: message), let command = subcommand(named: arguments.first) {
                message = wrongCommand(option, given: command)
                help = "kfeed \(command.configuration.commandName ?? "") --help"
            }
            Console.error("\(message) (see \(help))")
            terminate(code == .validationFailure ? 64 : code.rawValue)
        }
    }
}

extension KFeedCommand {
    /// The option named in argument-parser's "Unknown option '--x'" message.
    static func unknownOption(in message: String) -> String? {
        guard message.hasPrefix("Unknown option '") else { return nil }
        return message.dropFirst("Unknown option '".count).split(separator: "'").first.map(String.init)
    }

    /// The subcommand `name` names, if any.
    static func subcommand(named name: String?) -> (any ParsableCommand.Type)? {
        configuration.subcommands.first { $0.configuration.commandName == name }
    }

    /// Which commands take `option`: each is asked to parse it alone, and those that do not know it say "Unknown
    /// option" (a missing value or a missing argument means the command knows it). No list of options is kept beside
    /// the commands' own.
    static func commands(taking option: String) -> [String] {
        configuration.subcommands.compactMap { command in
            do {
                _ = try command.parseAsRoot([option])
            } catch {
                if command.message(for: error).hasPrefix("Unknown option") { return nil }
            }
            return command.configuration.commandName
        }
    }

    /// The one line for an option that `command` does not take: which commands do.
    static func wrongCommand(_ option: String, given command: any ParsableCommand.Type) -> String {
        let name = command.configuration.commandName ?? "this command"
        let takers = commands(taking: option).map { "kfeed \($0)" }
        guard !takers.isEmpty else { return "unknown option '\(option)' for kfeed \(name)" }
        let list = takers.count == 1 ? takers[0] : takers.dropLast().joined(separator: ", ") + " and " + takers.last!
        return "kfeed \(name) does not take \(option); \(list) \(takers.count == 1 ? "takes" : "take") it"
    }
}

/// Flushes stdout and stderr and ends the process with `code`, without running exit handlers: every file kfeed
/// writes is written and synced before this (never left in a buffer), so they would only run the runtime's and the
/// loaded libraries' destructors (libcurl's dozens of dependencies after a refresh): about 1.4 ms of a not-due cron
/// run (60 alternating runs, 11.9 -> 10.5 ms).
private func terminate(_ code: Int32) -> Never {
    fflush(nil)  // flush stdout (print buffers it) before exiting
    _exit(code)
}

/// stderr output: one line per message, prefixed `kfeed:`.
enum Console {
    static func error(_ message: String) {
        FileHandle.standardError.write(Data("kfeed: error: \(message)\n".utf8))
    }

    static func warning(_ message: String) {
        FileHandle.standardError.write(Data("kfeed: warning: \(message)\n".utf8))
    }

    static func info(_ message: String) {
        FileHandle.standardError.write(Data("kfeed: \(message)\n".utf8))
    }

    /// What a refresh made, as `-v` says it (`kfeed refresh`, `kfeed serve --refresh`).
    static func refreshed(_ manifest: Manifest, _ summary: Refresher.Summary) -> String {
        "refreshed \(manifest.entries.count) entries: \(summary.fetched) images fetched, \(summary.reused) reused, "
            + "\(summary.placeholders) placeholders"
            + (summary.rendered > 0 ? ", \(summary.rendered) display renders" : "")
    }
}

/// Prints the library's log lines as `kfeed` always has: `kfeed: MESSAGE` on stderr, one line each, no timestamp
/// (the `Logger`'s level decides which lines come: debug ones with `-v`); warnings and errors as `Console` prints
/// them (`kfeed: warning: MESSAGE`). The handler of every `Logger` of the executable (`LoggingSystem.bootstrap`, in
/// ``KFeedCommand/run(arguments:)``).
struct ConsoleLogHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        switch event.level {
        case .warning: Console.warning("\(event.message)")
        case .error, .critical: Console.error("\(event.message)")
        default: Console.info("\(event.message)")
        }
    }
}

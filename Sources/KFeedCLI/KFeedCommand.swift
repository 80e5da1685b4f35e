public import ArgumentParser

/// `kfeed`: an hourly picture timeline from X's recent search, for widgets and displays.
public struct KFeedCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "kfeed",
        abstract: "Turn an X recent search into an hourly picture timeline for widgets and displays.",
        subcommands: []
    )

    public init() {}
}

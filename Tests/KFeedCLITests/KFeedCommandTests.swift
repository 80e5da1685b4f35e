import ArgumentParser
import Testing

@testable import KFeedCLI

struct KFeedCommandTests {
    @Test func rootCommandIsNamedKfeed() {
        #expect(KFeedCommand.configuration.commandName == "kfeed")
    }
}

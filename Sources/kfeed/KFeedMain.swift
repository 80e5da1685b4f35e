import KFeedCLI

@main
enum KFeedMain {
    static func main() async {
        await KFeedCommand.run()
    }
}

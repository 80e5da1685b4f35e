import KFeed
import KFeedCLI
import KFeedImages

@main
enum KFeedMain {
    static func main() async {
        // On the main thread, before any other thread allocates: the allocator's heap limit binds only those.
        JPEGThumbnailer.tuneAllocator()
        await KFeedCommand.run()
    }
}

import CKFeedMalloc
import KFeedCLI

@main
enum KFeedMain {
    static func main() async {
        // glibc's allocator, for this whole process, before any other thread allocates (the heap limit binds only
        // threads that have not allocated yet). Allocations of 1 MiB and more are mapped and unmapped when freed:
        // with glibc's default the threshold climbs after the first large free and later decode buffers stay
        // resident, so a batch of decodes peaks about 30 MiB higher. One heap for all threads: each thread's own
        // would keep its freed memory resident (about 0.5 MiB more at a refresh's peak), at no cost in time.
        _ = kfeed_malloc_set_mmap_threshold(1 << 20)
        _ = kfeed_malloc_set_arena_max(1)
        await KFeedCommand.run()
    }
}

import CKFeedMalloc
import KFeedCLI

@main
enum KFeedMain {
    static func main() async {
        // glibc's allocator, for this whole process, before any other thread allocates (the heap limit binds only
        // threads that have not allocated yet). Allocations under 16 MiB come from the heap, and up to 16 MiB free at
        // its top stay there: a render's planes (a few MiB each) then reuse the last render's pages, where mapping
        // each afresh cost a page fault per 4 KiB, a fifth of a `trmnl` render's CPU (docs/renders.md, "Benchmark").
        // Both are fixed: with glibc's default the thresholds climb after the first large free (up to 32 and 64
        // MiB) and a batch of decodes peaks about 30 MiB higher. One heap for all threads: each thread's own would
        // keep its freed memory resident (about 0.5 MiB more at a refresh's peak), at no cost in time.
        _ = kfeed_malloc_set_mmap_threshold(16 << 20)
        _ = kfeed_malloc_set_trim_threshold(16 << 20)
        _ = kfeed_malloc_set_arena_max(1)
        await KFeedCommand.run()
    }
}

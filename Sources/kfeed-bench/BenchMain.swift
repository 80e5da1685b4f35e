import CKFeedMalloc
import Foundation
import KFeed
import KFeedImages

/// `kfeed-bench transport|images|serve|reposts|replay|history|render|economy …`: the measurements `make bench` runs
/// (see bench/README.md).
@main
enum BenchMain {
    static func main() async {
        // First thing, as `kfeed` does (Sources/kfeed/KFeedMain.swift says why).
        _ = kfeed_malloc_set_mmap_threshold(16 << 20)
        _ = kfeed_malloc_set_trim_threshold(16 << 20)
        _ = kfeed_malloc_set_arena_max(1)
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            switch arguments.first {
            case "transport": try await TransportBench.run(Array(arguments.dropFirst()))
            case "images": try await ImageBench.run(Array(arguments.dropFirst()))
            case "serve": try await ServeBench.run(Array(arguments.dropFirst()))
            case "reposts": try RepostBench.run(Array(arguments.dropFirst()))
            case "replay": try RepostReplay.run(Array(arguments.dropFirst()))
            case "history": try HistoryBench.run(Array(arguments.dropFirst()))
            case "render": try await RenderBench.run(Array(arguments.dropFirst()))
            case "economy": try await EconomyBench.run(Array(arguments.dropFirst()))
            default:
                FileHandle.standardError.write(
                    Data(
                        "usage: kfeed-bench transport|images|serve|reposts|replay|history|render|economy [options]\n"
                            .utf8
                    )
                )
                exit(64)
            }
        } catch {
            FileHandle.standardError.write(Data("kfeed-bench: \(error)\n".utf8))
            exit(1)
        }
    }
}

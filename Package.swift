// swift-tools-version:6.1
import PackageDescription

/// The commit `kfeed --version` names: git's, abbreviated, "-dirty" when the tree has changes (ignored files aside);
/// nothing outside a git checkout (a tarball), which prints "commit unknown". SwiftPM reads it when it reads this
/// manifest, which it caches: after a new commit in a working tree, `touch Package.swift` and build with
/// `--manifest-cache none` to see it (scripts/package.sh does; a fresh clone needs neither).
let buildCommit: String = {
    guard let git = Context.gitInformation else { return "" }
    return String(git.currentCommit.prefix(7)) + (git.hasUncommittedChanges ? "-dirty" : "")
}()

let package = Package(
    name: "kfeed",
    // Linux only (Debian 12 is what is built and tested): the C shims and the cache's file handling use Glibc.
    products: [
        .library(name: "KFeed", targets: ["KFeed", "KFeedBase", "KFeedImages", "KFeedHTTP", "KFeedX"]),
        .executable(name: "kfeed", targets: ["kfeed"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `kfeed serve` only. No default traits: they would add swift-configuration to every build.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0", traits: []),
        // Already built for Hummingbird; named because KFeedServe uses them directly (port, signals, logger).
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.20.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        // The feeds file (`kfeed.toml`): toml++ behind a Swift API, so no TOML parsing of kfeed's own.
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        // Tests only: a clock the tests move by hand, so that deadlines run out without waiting.
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.0.0"),
    ],
    targets: [
        // libcurl's headers only: the library itself is opened on first use (see Sources/CKFeedCurl/shim.h),
        // so no `pkgConfig` here, which would link it and load its dependencies into every run.
        .systemLibrary(
            name: "CKFeedCurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .systemLibrary(
            name: "CKFeedTurboJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]
        ),
        // libjpeg-turbo's libjpeg API, which decodes a few rows at a time (TurboJPEG 2.x only whole images).
        // Headers only: libjpeg.so.62 is opened on the first decode (see the shim).
        .systemLibrary(
            name: "CKFeedJPEG",
            providers: [.apt(["libjpeg62-turbo-dev"])]
        ),
        // Display renders: libspng, and fontconfig + FreeType + HarfBuzz for captions. Headers only, like libcurl:
        // the libraries are opened on the first render (see the shims), never at start-up. FreeType's few
        // declarations are in CKFeedText's shim: its headers are off the default include path.
        .systemLibrary(
            name: "CKFeedPNG",
            providers: [.apt(["libspng-dev"])]
        ),
        .systemLibrary(
            name: "CKFeedText",
            providers: [.apt(["libfontconfig-dev", "libharfbuzz-dev"])]
        ),
        // HMAC-SHA-256 for `kfeed serve`'s signed picture URLs: libcrypto, opened on first use like the others. Its
        // two declarations are in the shim, so building needs no libssl-dev; Debian's libssl3 holds the library.
        .systemLibrary(
            name: "CKFeedCrypto",
            providers: [.apt(["libssl3"])]
        ),
        // The resampler's inner loops for AVX2 (the package's x86-64 baseline is SSE2, and it takes no -mavx2): header
        // only, each function marked for AVX2 on its own and called only where the CPU has it. No library.
        .systemLibrary(name: "CKFeedResample"),
        // No unsafe flags, so that other packages can depend on KFeed by version. The test script builds optimised
        // instead (`-Xswiftc -O` in scripts/test.sh): unoptimised pixel loops (resampling, colour conversion,
        // dithering) are ~30× slower and the tests decode hundreds of images.
        // What every layer shares: the error with the contract's exit codes, the instant format, the version.
        .target(name: "KFeedBase", dependencies: ["CKFeedBuildInfo"]),
        // The build's commit for `kfeed --version`, from the manifest's git information (above).
        .target(
            name: "CKFeedBuildInfo",
            exclude: ["module.modulemap"],
            cSettings: [.define("KFEED_COMMIT", to: "\"\(buildCommit)\"")]
        ),
        // The image pipeline: decode, downscale, hash, dither, render, encode. Knows nothing of X, posts or
        // timelines (docs/architecture.md); the compiler keeps it so.
        .target(
            name: "KFeedImages",
            dependencies: [
                "KFeedBase", "CKFeedTurboJPEG", "CKFeedJPEG", "CKFeedPNG", "CKFeedText", "CKFeedResample",
            ]
        ),
        // HTTP: libcurl's multi interface behind `HTTPTransport`, and the replay of recorded answers. Knows nothing
        // of X, posts, timelines or the cache (docs/architecture.md).
        .target(name: "KFeedHTTP", dependencies: ["KFeedBase", "CKFeedCurl"]),
        // The X API client: the query, the search's pages, the join of their includes, X's problems and rate limits.
        // Knows nothing of timelines, images or the cache; the compiler keeps it so.
        .target(
            name: "KFeedX",
            dependencies: [
                "KFeedBase", "KFeedHTTP",
                // The library logs through swift-log (already built for the server); the executable decides where.
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The timeline, the refresh, the cache, the preview and the renders, over the modules above.
        .target(
            name: "KFeed",
            dependencies: [
                "KFeedBase", "KFeedImages", "KFeedHTTP", "KFeedX",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "KFeedServe",
            dependencies: [
                "KFeed", "KFeedBase", "KFeedImages", "KFeedHTTP", "CKFeedCrypto",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        // The feeds file (`kfeed.toml`, docs/feeds.md): its own module so that the fuzz target reads it as the CLI does.
        .target(
            name: "KFeedConfig",
            dependencies: ["KFeed", "KFeedBase", "KFeedImages", .product(name: "TOMLKit", package: "TOMLKit")]
        ),
        .target(
            name: "KFeedCLI",
            dependencies: [
                "KFeed", "KFeedBase", "KFeedImages", "KFeedHTTP", "KFeedServe", "KFeedConfig",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // glibc's allocator settings: the executables set them, the library never changes a process-wide setting.
        .systemLibrary(name: "CKFeedMalloc"),
        .executableTarget(
            name: "kfeed",
            dependencies: [
                "KFeedCLI", "CKFeedMalloc", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "KFeedTestSupport",
            dependencies: ["KFeed", "KFeedBase", "KFeedImages", "KFeedHTTP", "CKFeedPNG"]
        ),
        .executableTarget(
            name: "kfeed-bench",
            dependencies: ["KFeed", "KFeedBase", "KFeedImages", "KFeedHTTP", "KFeedTestSupport", "CKFeedMalloc"]
        ),
        // Fuzz entry points for every parser of untrusted bytes (one file, FuzzTargets.swift), and the libFuzzer
        // driver: built with `-sanitize=fuzzer,address -DKFEED_FUZZ` by scripts/fuzz.sh, a plain replayer otherwise.
        .target(
            name: "KFeedFuzz",
            dependencies: ["KFeed", "KFeedBase", "KFeedImages", "KFeedHTTP", "KFeedConfig"]
        ),
        .systemLibrary(name: "CKFeedFuzzer"),
        .executableTarget(name: "kfeed-fuzz", dependencies: ["KFeedFuzz", "CKFeedFuzzer"]),
        .testTarget(
            name: "KFeedTests",
            dependencies: [
                "KFeed", "KFeedBase", "KFeedImages", "KFeedHTTP", "KFeedX", "KFeedTestSupport", "KFeedFuzz",
                "KFeedConfig",
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "KFeedCLITests",
            dependencies: [
                "KFeedCLI", "KFeed", "KFeedBase", "KFeedImages", "KFeedHTTP", "KFeedServe", "KFeedTestSupport",
            ]
        ),
        .testTarget(
            name: "KFeedServeTests",
            dependencies: [
                "KFeed", "KFeedBase", "KFeedImages", "KFeedHTTP", "KFeedServe", "KFeedTestSupport",
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
    ]
)

for target in package.targets where target.type != .system {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("MemberImportVisibility"),
            .enableUpcomingFeature("InternalImportsByDefault"),
        ]
}

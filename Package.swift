// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "kfeed",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "KFeed", targets: ["KFeed"]),
        .executable(name: "kfeed", targets: ["kfeed"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
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
        // Display renders: libspng, and fontconfig + FreeType + HarfBuzz for captions. Headers only, like libcurl:
        // the libraries are opened on the first render (see the shims), never at start-up.
        .systemLibrary(
            name: "CKFeedPNG",
            providers: [.apt(["libspng-dev"])]
        ),
        .systemLibrary(
            name: "CKFeedText",
            providers: [.apt(["libfontconfig-dev", "libfreetype-dev", "libharfbuzz-dev"])]
        ),
        .target(
            name: "KFeed",
            dependencies: ["CKFeedCurl", "CKFeedTurboJPEG", "CKFeedPNG", "CKFeedText"],
            swiftSettings: [
                // Optimized in debug builds too: unoptimized pixel loops (resampling, colour conversion, dithering)
                // are ~30× slower, and the tests decode hundreds of images.
                .unsafeFlags(["-O"], .when(configuration: .debug))
            ]
        ),
        .target(
            name: "KFeedCLI",
            dependencies: ["KFeed", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "kfeed",
            dependencies: ["KFeedCLI", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .target(name: "KFeedTestSupport", dependencies: ["KFeed", "CKFeedPNG"]),
        .executableTarget(name: "kfeed-bench", dependencies: ["KFeed", "KFeedTestSupport"]),
        .testTarget(name: "KFeedTests", dependencies: ["KFeed", "KFeedTestSupport"]),
        .testTarget(name: "KFeedCLITests", dependencies: ["KFeedCLI", "KFeed", "KFeedTestSupport"]),
    ]
)

for target in package.targets where target.type != .system {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("MemberImportVisibility"),
            .enableUpcomingFeature("InternalImportsByDefault"),
            // FreeType's headers live in /usr/include/freetype2, off the default include path, and every module
            // that imports KFeed loads CKFeedText's header. `pkgConfig: "freetype2"` would add this path but also
            // link libfreetype into the binary (a DT_NEEDED loaded at every start), which the shim avoids.
            .unsafeFlags(["-Xcc", "-I/usr/include/freetype2"]),
        ]
}

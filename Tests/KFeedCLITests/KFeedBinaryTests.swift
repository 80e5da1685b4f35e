import Foundation
import KFeedBase
import KFeedImages
import KFeedTestSupport
import Testing

/// What the built `kfeed` binary loads at start-up.
struct KFeedBinaryTests {
    /// Display renders open libspng, fontconfig, FreeType and HarfBuzz on the first render (dlopen), so the cron
    /// path (`kfeed refresh` with nothing due) never pays for loading them. `ldd` lists every library the loader
    /// maps at start, transitively.
    @Test func renderLibrariesAreNotLoadedAtStartUp() throws {
        let ldd = Process()
        ldd.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        ldd.arguments = [KFeedProcess.executable.path]
        let output = Pipe()
        ldd.standardOutput = output
        try ldd.run()
        let listing = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ldd.waitUntilExit()
        #expect(ldd.terminationStatus == 0)
        #expect(listing.contains("libturbojpeg"))  // the listing is real
        for library in ["libspng", "libfreetype", "libharfbuzz", "libfontconfig", "libcurl"] {
            #expect(!listing.contains(library), "\(library) is loaded at start-up:\n\(listing)")
        }
    }
}

import Foundation
import KFeed
import KFeedTestSupport
import Testing

/// The library product's public surface (`KFeedBase`, `KFeedImages`, `KFeedHTTP`, `KFeedX`, `KFeed`), read from the
/// symbol graph of the modules the test build made: it must match the checked-in listing `api/public-api.txt` (so
/// every change to it is a visible diff in review; `scripts/api.sh` rewrites the listing), stay at most 25 types, and
/// be documented.
struct PublicAPITests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    private static let listingPath = root.appendingPathComponent("api/public-api.txt")
    private static let modules = ["KFeedBase", "KFeedImages", "KFeedHTTP", "KFeedX", "KFeed"]

    private struct SymbolGraph: Decodable {
        struct Symbol: Decodable {
            struct Identifier: Decodable { var precise: String }
            struct Kind: Decodable { var identifier: String }
            struct Fragment: Decodable { var spelling: String }
            struct DocComment: Decodable {}
            var identifier: Identifier
            var kind: Kind
            var pathComponents: [String]
            var declarationFragments: [Fragment]
            var docComment: DocComment?
        }
        struct Relationship: Decodable {
            var kind: String
            var source: String
            var target: String
            var targetFallback: String?
        }
        var symbols: [Symbol]
        var relationships: [Relationship]
    }

    private static let typeKinds: Set<String> = [
        "swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.actor", "swift.typealias",
    ]

    /// The symbol graphs of the product's modules, extracted from the build's `.swiftmodule` files into
    /// `output/<module>/` (or a folder of their own, removed after).
    private static func graphs(into output: URL? = nil) async throws -> [(module: String, graph: SymbolGraph)] {
        let folder =
            output ?? FileManager.default.temporaryDirectory.appendingPathComponent("kfeed-api-\(UUID().uuidString)")
        defer { if output == nil { try? FileManager.default.removeItem(at: folder) } }
        let shims = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path)
            .filter { $0.hasPrefix("CKFeed") }.sorted()
            .map { root.appendingPathComponent("Sources/\($0)/module.modulemap").path }
            .filter { FileManager.default.fileExists(atPath: $0) }
        let modulesDirectory = try modulesDirectory()
        var graphs: [(module: String, graph: SymbolGraph)] = []
        for module in modules {
            let destination = folder.appendingPathComponent(module)
            try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
            let status = try await run(
                [
                    "swift", "symbolgraph-extract", "-module-name", module, "-I", modulesDirectory.path,
                    "-target", "\(Self.architecture)-unknown-linux-gnu", "-minimum-access-level", "public",
                    "-output-dir", destination.path,
                ] + shims.flatMap { ["-Xcc", "-fmodule-map-file=\($0)"] }
            )
            #expect(status.code == 0, "swift symbolgraph-extract failed for \(module): \(status.output)")
            let data = try Data(contentsOf: destination.appendingPathComponent("\(module).symbols.json"))
            graphs.append((module, try JSONDecoder().decode(SymbolGraph.self, from: data)))
        }
        return graphs
    }

    /// Runs a toolchain command found on `PATH`, off the cooperative pool; its exit status and what it printed.
    private static func run(_ arguments: [String]) async throws -> (code: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let result = try await KFeedProcess.outcome(of: process)
        return (result.status, result.stdout + result.stderr)
    }

    private static var architecture: String {
        #if arch(arm64)
            "aarch64"
        #else
            "x86_64"
        #endif
    }

    /// The `Modules` folder beside the running test bundle (`.build/<triple>/debug/Modules`).
    private static func modulesDirectory() throws -> URL {
        var candidates = [root.appendingPathComponent(".build/debug/Modules")]
        if let bundle = CommandLine.arguments.first {
            let here = URL(fileURLWithPath: bundle).resolvingSymlinksInPath()
            candidates.insert(here.deletingLastPathComponent().appendingPathComponent("Modules"), at: 0)
            candidates.insert(
                here.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Modules"),
                at: 1
            )
        }
        let found = candidates.first {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("KFeed.swiftmodule").path)
        }
        return try #require(found, "no KFeed.swiftmodule in \(candidates.map(\.path))")
    }

    /// The listing: per module, every public symbol (synthesized ones left out) as its path and declaration, types
    /// with what they conform to, sorted.
    private static func listing(_ graphs: [(module: String, graph: SymbolGraph)]) -> String {
        var text = """
            # The public API of the KFeed library product, from the symbol graph (tests fail when it differs).
            # Rewrite it with scripts/api.sh after a deliberate change, and let review see the diff.

            """
        for (module, graph) in graphs {
            let symbols = graph.symbols.filter { !$0.identifier.precise.contains("::SYNTHESIZED::") }
            var conformances: [String: [String]] = [:]
            for relationship in graph.relationships where relationship.kind == "conformsTo" {
                let name = relationship.targetFallback ?? relationship.target
                conformances[relationship.source, default: []].append(
                    String(name.split(separator: ".").last ?? Substring(name))
                )
            }
            text += "\n## \(module)\n"
            let lines = symbols.map { symbol -> String in
                let path = symbol.pathComponents.joined(separator: ".")
                let declaration = symbol.declarationFragments.map(\.spelling).joined()
                if typeKinds.contains(symbol.kind.identifier) {
                    let conformed = Set(conformances[symbol.identifier.precise] ?? []).sorted()
                    guard !conformed.isEmpty else { return "\(path): \(declaration)" }
                    return "\(path): \(declaration): " + conformed.joined(separator: ", ")
                }
                return "\(path): \(declaration)"
            }
            text += lines.sorted().joined(separator: "\n") + "\n"
        }
        return text
    }

    @Test
    func theListingMatchesTheCode() async throws {
        let listing = Self.listing(try await Self.graphs())
        if ProcessInfo.processInfo.environment["KFEED_WRITE_API"] == "1" {
            try FileManager.default.createDirectory(
                at: Self.listingPath.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try listing.write(to: Self.listingPath, atomically: true, encoding: .utf8)
        }
        let checkedIn = try String(contentsOf: Self.listingPath, encoding: .utf8)
        if checkedIn != listing {
            let old = Set(checkedIn.split(separator: "\n"))
            let new = Set(listing.split(separator: "\n"))
            let added = new.subtracting(old).sorted().map { "+ \($0)" }
            let removed = old.subtracting(new).sorted().map { "- \($0)" }
            Issue.record(
                """
                the public API differs from api/public-api.txt (run scripts/api.sh if the change is meant):
                \((removed + added).joined(separator: "\n"))
                """
            )
        }
    }

    @Test
    func atMostTwentyFiveTypesEachDocumentedInItsCatalogue() async throws {
        var types: [String] = []
        for (module, graph) in try await Self.graphs() {
            let catalogue = Self.root.appendingPathComponent("Sources/\(module)/\(module).docc/\(module).md")
            let text = (try? String(contentsOf: catalogue, encoding: .utf8)) ?? ""
            for symbol in graph.symbols where !symbol.identifier.precise.contains("::SYNTHESIZED::") {
                let path = symbol.pathComponents.joined(separator: ".")
                #expect(symbol.docComment != nil, "\(module).\(path) has no documentation comment")
                guard Self.typeKinds.contains(symbol.kind.identifier) else { continue }
                types.append(path)
                let link = "``\(symbol.pathComponents.joined(separator: "/"))``"
                #expect(text.contains(link), "\(link) is not in \(module).docc/\(module).md")
            }
        }
        #expect(types.count <= 25, "\(types.count) public types: \(types.sorted())")
        #expect(types.count >= 10, "the symbol graph listed only \(types.sorted())")
    }

    /// Each module's DocC catalogue builds against its symbol graph without a warning (every ``link`` resolves, in
    /// the catalogue and in the public types' comments).
    @Test
    func everyCatalogueBuildsWithoutAWarning() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try await Self.graphs(into: directory.url)
        for module in Self.modules {
            let status = try await Self.run([
                "docc", "convert", Self.root.appendingPathComponent("Sources/\(module)/\(module).docc").path,
                "--additional-symbol-graph-dir", directory.url.appendingPathComponent(module).path,
                "--fallback-display-name", module, "--fallback-bundle-identifier", "org.kfeed.\(module)",
                "--output-path", directory.url.appendingPathComponent("\(module).doccarchive").path,
                "--warnings-as-errors",
            ])
            #expect(status.code == 0, "docc convert \(module).docc: \(status.output)")
        }
    }

    /// The catalogue's example (`KFeed.docc/KFeed.md`), with the test's own directory and instant: a program that
    /// embeds kfeed refreshes from the recorded sample and reads the entry covering now.
    @Test
    func theCataloguesExampleRefreshesAndReadsTheCurrentEntry() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let now = try #require(ISO8601DateFormatter().date(from: "2026-11-22T09:30:00Z"))
        let cache = CacheStore(directory: directory.url)
        let refresher = Refresher(store: cache, settings: FeedSettings(query: .default, size: .small)) {
            try .replay(from: Fixture.replay("sample"))
        }
        guard case .refreshed(let manifest, let summary) = try await refresher.refresh(now: now) else {
            Issue.record("the sample did not refresh")
            return
        }
        #expect(manifest.entries.count == 24)
        #expect(summary.fetched >= 24, "\(summary)")
        guard case .notDue(let until) = try await refresher.refresh(now: now) else {
            Issue.record("a second refresh at once was due")
            return
        }
        // Not due until the timeline ends, or sooner its posts' deleted-post check (20 h after they were read).
        #expect(until == [manifest.reloadAfter, cache.state()?.lookupDue].compactMap { $0 }.min())
        let read = try #require(try cache.manifest())
        let index = try #require(read.currentEntryIndex(at: now.addingTimeInterval(3 * 3_600)))
        #expect(index == 3)
        let image = try #require(read.entries[index].image)
        #expect(FileManager.default.fileExists(atPath: cache.absolutePath(image)))
        #expect(cache.state()?.lastError == nil)
    }
}

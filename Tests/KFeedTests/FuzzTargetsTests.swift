import Foundation
import KFeedBase
import KFeedFuzz
import KFeedImages
import Testing

/// Replays every committed fuzz seed (`Fuzz/corpus/<target>/`) and regression (`Fixtures/fuzz/<target>/`) through
/// the fuzz targets: each must return, not trap. `scripts/fuzz.sh` runs the same entry points under libFuzzer.
struct FuzzTargetsTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    private static func inputs(of target: FuzzTargets.Target, in folder: String) -> [URL] {
        let directory = root.appendingPathComponent(folder).appendingPathComponent(target.rawValue)
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
        return files.filter { !$0.lastPathComponent.hasPrefix(".") }.sorted { $0.path < $1.path }
    }

    @Test(arguments: FuzzTargets.Target.allCases)
    func everySeedRuns(target: FuzzTargets.Target) throws {
        let seeds = Self.inputs(of: target, in: "Fuzz/corpus")
        #expect(!seeds.isEmpty, "no seeds in Fuzz/corpus/\(target.rawValue)")
        for file in seeds { target.run(try Data(contentsOf: file)) }
    }

    @Test(arguments: FuzzTargets.Target.allCases)
    func everyRegressionRuns(target: FuzzTargets.Target) throws {
        let regressions = Self.inputs(of: target, in: "Fixtures/fuzz")
        #expect(!regressions.isEmpty, "no regression inputs in Fixtures/fuzz/\(target.rawValue)")
        for file in regressions { target.run(try Data(contentsOf: file)) }
    }

    /// Inputs no corpus holds: empty, one byte, and every seed cut short, which each parser must refuse calmly.
    @Test(arguments: FuzzTargets.Target.allCases)
    func emptyAndTruncatedInputsRun(target: FuzzTargets.Target) throws {
        target.run(Data())
        target.run(Data([0xFF]))
        for file in Self.inputs(of: target, in: "Fuzz/corpus").prefix(4) {
            let data = try Data(contentsOf: file)
            for length in [1, 2, 3, 17, data.count / 2, data.count - 1] where (0..<data.count).contains(length) {
                target.run(data.prefix(length))
            }
        }
    }
}

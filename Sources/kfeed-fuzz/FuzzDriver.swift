import CKFeedFuzzer
import Foundation
import KFeedFuzz

/// `kfeed-fuzz`: with `-sanitize=fuzzer -DKFEED_FUZZ` (scripts/fuzz.sh), libFuzzer's driver on the target that
/// `KFEED_FUZZ_TARGET` names, taking libFuzzer's arguments. Otherwise `kfeed-fuzz TARGET PATH…` runs the target
/// once on each file (or each file of each directory), to reproduce a finding in a normal build.
@main
struct FuzzDriver {
    static func main() {
        #if KFEED_FUZZ
            _ = selected
            var argc = CommandLine.argc
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
            exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
        #else
            let arguments = CommandLine.arguments.dropFirst()
            guard let name = arguments.first, let target = FuzzTargets.Target(rawValue: name) else {
                usage("usage: kfeed-fuzz TARGET PATH..., TARGET")
            }
            var count = 0
            for path in arguments.dropFirst() {
                let url = URL(fileURLWithPath: path)
                var isDirectory: ObjCBool = false
                let contents =
                    FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
                    ? try? FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil) : nil
                for file in contents?.sorted(by: { $0.path < $1.path }) ?? [url] {
                    guard let data = try? Data(contentsOf: file) else { usage("cannot read \(file.path); TARGET") }
                    target.run(data)
                    count += 1
                }
            }
            print("\(name): \(count) inputs ran")
        #endif
    }

    static func usage(_ prefix: String) -> Never {
        let names = FuzzTargets.Target.allCases.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write(Data("kfeed-fuzz: \(prefix) one of: \(names)\n".utf8))
        exit(2)
    }
}

#if KFEED_FUZZ
    /// The target of this process, from `KFEED_FUZZ_TARGET`.
    private let selected: FuzzTargets.Target = {
        guard let name = ProcessInfo.processInfo.environment["KFEED_FUZZ_TARGET"],
            let target = FuzzTargets.Target(rawValue: name)
        else { FuzzDriver.usage("set KFEED_FUZZ_TARGET to") }
        return target
    }()

    /// libFuzzer's callback. Exported under its conventional name too, as compiler-rt's `main` (linked in by
    /// `-sanitize=fuzzer`) refers to it.
    @_cdecl("LLVMFuzzerTestOneInput")
    func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
        // No copy: reads past the input land outside libFuzzer's exact-size buffer, where ASan sees them.
        let data =
            if let bytes, count > 0 {
                Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: bytes), count: count, deallocator: .none)
            } else {
                Data()
            }
        selected.run(data)
        return 0
    }
#endif

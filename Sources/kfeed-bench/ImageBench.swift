import Foundation
import KFeed
import KFeedImages

/// `kfeed-bench images --size small|medium --out DIR [--workers N] [--oversampling X] [--any-eighth] [--lobes L]
/// [--budget-mib N] [--kernel portable|avx2] files…` downscales every file in one process the way a refresh does (N concurrent workers, gated by ``ImageDecodeBudget``) and writes
/// `DIR/<name>.jpg`. `kfeed-bench images --size S --floor-scales files…` prints `M file` per file instead: the
/// smallest fast DCT scale M/8 still covering the target, for the `djpeg -scale M/8` decode floor. `--any-eighth` lets
/// libjpeg decode at any M/8 and `--lobes 2` resamples with Lanczos-2, as dithered display renders do (with
/// `--oversampling 1`): their pixels before dithering.
enum ImageBench {
    struct Options {
        var size = ImageSize.small
        var output: URL?
        var workers = 2
        var oversampling = 2.0
        var anyEighth = false
        var lobes = 3.0
        var floorScales = false
        var budgetMiB: Int?
        var kernel = ResamplingKernel.fastest
        var files: [URL] = []

        init(_ arguments: [String]) throws {
            var remaining = arguments[...]
            func value(_ flag: String) throws -> String {
                guard let next = remaining.popFirst() else { throw BenchError("\(flag) needs a value") }
                return next
            }
            while let argument = remaining.popFirst() {
                switch argument {
                case "--size": size = try ImageSize(parsing: try value(argument))
                case "--out": output = URL(fileURLWithPath: try value(argument), isDirectory: true)
                case "--workers":
                    guard let count = Int(try value(argument)), count > 0 else { throw BenchError("bad --workers") }
                    workers = count
                case "--oversampling":
                    guard let factor = Double(try value(argument)), factor >= 1 else {
                        throw BenchError("bad --oversampling")
                    }
                    oversampling = factor
                case "--budget-mib":
                    guard let mib = Int(try value(argument)), mib > 0 else { throw BenchError("bad --budget-mib") }
                    budgetMiB = mib
                case "--kernel":
                    let name = try value(argument)
                    guard let chosen = ResamplingKernel.allCases.first(where: { "\($0)" == name }), chosen.isAvailable
                    else { throw BenchError("bad --kernel (portable, or avx2 where the CPU has it)") }
                    kernel = chosen
                case "--any-eighth": anyEighth = true
                case "--lobes":
                    guard let count = Double(try value(argument)), (1...3).contains(count) else {
                        throw BenchError("bad --lobes")
                    }
                    lobes = count
                case "--floor-scales": floorScales = true
                default: files.append(URL(fileURLWithPath: argument))
                }
            }
            guard !files.isEmpty else { throw BenchError("usage: kfeed-bench images --size S --out DIR files…") }
        }
    }

    struct BenchError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Hands out file indices to the workers.
    actor Queue {
        private var next = 0
        private let count: Int
        init(count: Int) { self.count = count }
        func take() -> Int? {
            guard next < count else { return nil }
            defer { next += 1 }
            return next
        }
    }

    static func run(_ arguments: [String]) async throws {
        let options = try Options(arguments)
        if options.floorScales {
            let thumbnailer = JPEGThumbnailer()
            for file in options.files {
                let scale = try thumbnailer.coveringScaleInEighths(of: try Data(contentsOf: file), size: options.size)
                print("\(scale) \(file.path)")
            }
            return
        }
        guard let output = options.output else { throw BenchError("--out DIR is required") }
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let thumbnailer = {
            var thumbnailer = JPEGThumbnailer(
                decodeOversampling: options.oversampling,
                decodesAnyEighth: options.anyEighth,
                resamplingLobes: options.lobes
            )
            thumbnailer.resamplingKernel = options.kernel
            return thumbnailer
        }()
        let budget = options.budgetMiB.map { ImageDecodeBudget(capacity: $0 << 20) } ?? ImageDecodeBudget()
        let size = options.size
        let start = ContinuousClock.now
        let (files, failures) = try await eachFile(of: options.files, workers: options.workers) { file in
            let jpeg = try Data(contentsOf: file)
            let thumbnail = try await thumbnailer.thumbnail(of: jpeg, size: size, budget: budget)
            let name = file.deletingPathExtension().lastPathComponent + ".jpg"
            try thumbnail.write(to: output.appendingPathComponent(name))
        }
        let elapsed = ContinuousClock.now - start
        print("kfeed: \(files.count - failures)/\(files.count) thumbnails at \(size) in \(elapsed)")
        if failures > 0 { throw BenchError("\(failures) files failed") }
    }

    /// Runs `work` on every file, `workers` at a time, largest file first (as a refresh would order them: big
    /// progressive decodes start early, small ones fill in); a failure is printed and counted, not thrown.
    /// - Returns: the files in the order taken, and how many failed.
    static func eachFile(
        of files: [URL],
        workers: Int,
        _ work: @escaping @Sendable (URL) async throws -> Void
    ) async throws -> (files: [URL], failures: Int) {
        let files = files.sorted { fileSize($0) > fileSize($1) }
        let queue = Queue(count: files.count)
        let failures = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<workers {
                group.addTask {
                    var failures = 0
                    while let index = await queue.take() {
                        do {
                            try await work(files[index])
                        } catch {
                            failures += 1
                            FileHandle.standardError.write(Data("\(files[index].lastPathComponent): \(error)\n".utf8))
                        }
                    }
                    return failures
                }
            }
            return try await group.reduce(0, +)
        }
        return (files, failures)
    }

    private static func fileSize(_ url: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int) ?? 0
    }
}

import Foundation
import KFeed
import KFeedImages

/// `kfeed-bench render --profile P --out DIR [--workers N] [--no-caption | --line] [--name N --username U --hour H
/// --date D --text T --avatar FILE] [--placeholder REASON] files…` renders every file for display profile P in one
/// process, N workers pulling from a shared queue (largest file first), and writes `DIR/<name>.<ext>`.
/// `--no-caption` renders the bare picture (no attribution: the benchmark's like-for-like job); `--line` draws the
/// slim attribution line that kfeed's `--no-caption` renders carry; `--hour` is the post's time.
enum RenderBench {
    struct Options {
        var profile = DisplayProfile.trmnl
        var output: URL?
        var workers = 2
        var caption: DisplayCaption? = DisplayCaption(name: "kfeed", username: "kfeed", time: "14:00")
        var avatar: URL?
        var placeholder: String?
        var files: [URL] = []

        init(_ arguments: [String]) throws {
            var remaining = arguments[...]
            func value(_ flag: String) throws -> String {
                guard let next = remaining.popFirst() else { throw ImageBench.BenchError("\(flag) needs a value") }
                return next
            }
            var name: String?
            var username: String?
            var hour: String?
            var date: String?
            var text: String?
            var style = DisplayCaption.Style.band
            while let argument = remaining.popFirst() {
                switch argument {
                case "--profile": profile = try DisplayProfile(parsing: try value(argument))
                case "--out": output = URL(fileURLWithPath: try value(argument), isDirectory: true)
                case "--workers":
                    guard let count = Int(try value(argument)), count > 0 else {
                        throw ImageBench.BenchError("bad --workers")
                    }
                    workers = count
                case "--no-caption": caption = nil
                case "--name": name = try value(argument)
                case "--username": username = try value(argument)
                case "--hour": hour = try value(argument)
                case "--date": date = try value(argument)
                case "--text": text = try value(argument)
                case "--line": style = .line
                case "--avatar": avatar = URL(fileURLWithPath: try value(argument))
                case "--placeholder": placeholder = try value(argument)
                default: files.append(URL(fileURLWithPath: argument))
                }
            }
            if caption != nil {
                caption = DisplayCaption(
                    name: name ?? "kfeed",
                    username: username ?? "kfeed",
                    time: hour ?? "14:00",
                    date: date ?? "",
                    text: text ?? "",
                    avatarJPEG: try avatar.map { try Data(contentsOf: $0) },
                    style: style
                )
            }
            guard !files.isEmpty || placeholder != nil else {
                throw ImageBench.BenchError("usage: kfeed-bench render --profile P --out DIR files…")
            }
        }
    }

    static func run(_ arguments: [String]) async throws {
        let options = try Options(arguments)
        guard let output = options.output else { throw ImageBench.BenchError("--out DIR is required") }
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let renderer = DisplayRenderer(profile: options.profile)
        if let reason = options.placeholder {
            let render = try renderer.renderPlaceholder(reason: reason, caption: options.caption)
            try render.data.write(to: output.appendingPathComponent("placeholder.\(render.fileExtension)"))
            return
        }
        let caption = options.caption
        let budget = ImageDecodeBudget()
        let start = ContinuousClock.now
        let (files, failures) = try await ImageBench.eachFile(of: options.files, workers: options.workers) { file in
            let jpeg = try Data(contentsOf: file)
            let render = try await renderer.render(photo: jpeg, caption: caption, budget: budget)
            let name = file.deletingPathExtension().lastPathComponent + "." + render.fileExtension
            try render.data.write(to: output.appendingPathComponent(name))
        }
        let elapsed = ContinuousClock.now - start
        print("kfeed: \(files.count - failures)/\(files.count) renders for \(options.profile) in \(elapsed)")
        if failures > 0 { throw ImageBench.BenchError("\(failures) files failed") }
    }
}

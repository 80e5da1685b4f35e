package import Foundation
package import KFeed
import KFeedBase
import TOMLKit

/// `kfeed.toml`: several feeds, the spend cap they share, and how `kfeed serve` serves them (`docs/feeds.md`).
///
/// ```toml
/// [budget]
/// posts_per_day = 60
///
/// [feeds.kpop]
/// contexts = ["55.888105153038958593"]
/// profiles = ["trmnl"]
///
/// [feeds.pets]
/// query = "(cat OR dog) has:images -is:retweet"
/// entries = 12
/// ```
///
/// Parsed by TOMLKit (toml++); every value is checked here, before any request, and every error names the file,
/// the line and the key (`kfeed.toml:7: feeds.pets.entries: …`), exit 78.
package struct FeedsFile: Sendable {
    /// One `[feeds.NAME]` table: its name and its settings (what the table does not say is the defaults').
    package struct Feed: Sendable {
        package var name: String
        package var settings: FeedSettings
    }

    /// `[serve]`.
    package struct Serve: Sendable {
        /// `listen = "HOST:PORT"`: where `kfeed serve` listens unless `--listen` says.
        package var listen: ListenAddress?
        /// `key_file = "PATH"` (relative to the file's directory): the key unless `--key-file` says.
        package var keyFile: String?
        /// `idle_timeout = SECONDS` (1…3600): how long a connection may take to send a request's head or stay idle
        /// between requests, unless `--idle-timeout` says.
        package var idleTimeout: Int?
        /// The idle timeouts allowed, in seconds, and the one used when neither the flag nor the file says.
        package static let idleTimeouts = 1...3600
        package static let defaultIdleTimeout = 5
        /// `[serve.trmnl]`: device id (MAC) → the feed its panel shows.
        package var devices: [String: String] = [:]
    }

    /// Where the file was read from.
    package var url: URL
    /// The feeds, in the file's order (the first is the default: what the old single-feed paths and commands use).
    package var feeds: [Feed]
    /// `[budget]`.
    package var budget: Budget
    package var serve: Serve

    /// The keys a `[feeds.NAME]` table may have.
    package static let feedKeys = [
        "contexts", "query", "entries", "interval", "policy", "size", "profiles", "no_repeat_days", "allow_sensitive",
        "video_previews", "captions", "deny", "allow", "min_likes", "min_reposts", "min_replies", "quiet", "timezone",
    ]
    /// A feed's name: what `DIR/feeds/NAME/` and `/f/NAME/` are made of.
    package static let nameCharacters = Set("abcdefghijklmnopqrstuvwxyz0123456789-_")

    /// The file to read: `--config`, else `KFEED_CONFIG`, else `$XDG_CONFIG_HOME/kfeed/kfeed.toml` (or
    /// `~/.config/kfeed/kfeed.toml`) when it exists. Nil: no feeds file (one feed from flags and environment).
    package static func location(explicit: String?, environment: SettingsEnvironment) -> URL? {
        if let path = explicit ?? environment["KFEED_CONFIG"] { return URL(fileURLWithPath: path) }
        let base: URL
        if let xdg = environment.process["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg)
        } else if let home = environment.process["HOME"], home.hasPrefix("/") {
            base = URL(fileURLWithPath: home).appendingPathComponent(".config")
        } else {
            return nil
        }
        let url = base.appendingPathComponent("kfeed/kfeed.toml")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    /// Reads and checks the file.
    /// - Parameters:
    ///   - url: the file.
    ///   - now: the instant relative policies (`after:6h`) count from.
    ///   - defaults: each feed's settings before its table is read (the contract's, with the caller's zone and
    ///     no-repeat default).
    /// - Returns: the file's feeds, budget and `[serve]`.
    /// - Throws: `KFeedError` `.configuration` naming the file, line and key.
    package static func load(_ url: URL, now: Date, defaults: FeedSettings = FeedSettings()) throws -> FeedsFile {
        guard let data = FileManager.default.contents(atPath: url.path), data.count <= maxBytes,
            let text = String(data: data, encoding: .utf8)
        else {
            throw KFeedError(
                .configuration,
                "cannot read the feeds file \(url.path) (UTF-8 text, at most 1 MiB): check the path (--config)"
            )
        }
        return try parse(text, url: url, now: now, defaults: defaults)
    }

    /// The largest feeds file read, in bytes.
    package static let maxBytes = 1 << 20

    /// Checks `text` as the feeds file at `url` (named in errors).
    /// - Throws: `KFeedError` `.configuration` naming the file, line and key.
    package static func parse(
        _ text: String,
        url: URL,
        now: Date,
        defaults: FeedSettings = FeedSettings()
    ) throws -> FeedsFile {
        if let (line, excess) = TOMLNesting.firstExcess(in: text) {
            throw KFeedError(.configuration, "\(url.path):\(line): " + Self.description(of: excess))
        }
        if let line = headerWithoutName(in: text) {
            throw KFeedError(
                .configuration,
                "\(url.path):\(line): a table header needs a name after its [ (letters, digits, - and _, or a quoted "
                    + "string); fix the TOML syntax"
            )
        }
        let table: TOMLTable
        do {
            table = try TOMLAbortGuard.run(
                message: "\(url.path) is not valid TOML (the TOML reader gave up on it): check its brackets, quotes "
                    + "and commas"
            ) { try TOMLTable(string: text) }
        } catch let error as TOMLParseError {
            throw KFeedError(
                .configuration,
                "\(url.path):\(error.source.begin.line): \(error.description); fix the TOML syntax"
            )
        }
        let reader = Reader(url: url, lines: text.components(separatedBy: "\n"))
        try reader.allow(["feeds", "budget", "serve"], in: table, at: [])
        guard let feedsTable = table["feeds"]?.table, !feedsTable.isEmpty else {
            throw reader.error(at: ["feeds"], "no feed: add a [feeds.NAME] table with contexts or a query")
        }
        let names = feedsTable.keys.sorted {
            (reader.line(of: ["feeds", $0]) ?? 0, $0) < (reader.line(of: ["feeds", $1]) ?? 0, $1)
        }
        let feeds = try names.map { name in try reader.feed(name, in: feedsTable, now: now, defaults: defaults) }
        return FeedsFile(
            url: url,
            feeds: feeds,
            budget: try reader.budget(table["budget"]),
            serve: try reader.serve(table["serve"], feeds: Set(names))
        )
    }

    /// What is wrong with a document that nests deeper than ``TOMLNesting`` allows, and what to do about it.
    static func description(of excess: TOMLNesting.Excess) -> String {
        let advice = "kfeed's keys have at most 3 parts and its values are strings, numbers and lists of strings"
        switch excess {
        case .keyParts(let parts):
            return "a key of \(parts) parts is deeper than kfeed reads (at most \(TOMLNesting.maxKeyParts)); \(advice)"
        case .valueNesting:
            return "arrays and inline tables nested more than \(TOMLNesting.maxValueNesting) deep are deeper than "
                + "kfeed reads; \(advice)"
        case .depth:
            return "tables and values nested more than \(TOMLNesting.maxDepth) deep (a header's, the keys' and the "
                + "values' levels together) are deeper than kfeed reads; \(advice)"
        }
    }

    /// The first line whose table header has no name after its `[` or `[[` (`[ (kpop) ]`). toml++ 3.4.0, under
    /// TOMLKit, asserts instead of reporting that error (its `parse_key` assumes a key's first character) and so
    /// aborts the process; this finds the case first. Not a TOML reader: it looks, scalar by scalar as toml++ does,
    /// at what follows a line's opening brackets and spaces or tabs (on every line, multi-line strings included:
    /// such a line there is refused too), and TOMLKit reads everything else.
    static func headerWithoutName(in text: String) -> Int? {
        let isSpace = { (scalar: Unicode.Scalar) in scalar == " " || scalar == "\t" }
        let isKeyStart = { (scalar: Unicode.Scalar) in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || "-_\"']".unicodeScalars.contains(scalar))
        }
        var scalars = Substring(text).unicodeScalars
        if scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }  // toml++ skips a byte-order mark
        for (index, line) in scalars.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var rest = line.drop(while: isSpace)
            guard rest.first == "[" else { continue }
            rest = rest.dropFirst()
            if rest.first == "[" { rest = rest.dropFirst() }
            rest = rest.drop(while: isSpace)
            guard let first = rest.first, isKeyStart(first) else { return index + 1 }
        }
        return nil
    }

    /// The feed named `name`, or the default (the first) when nil.
    /// - Throws: `KFeedError` `.configuration` for a name the file does not define.
    package func feed(named name: String?) throws -> Feed {
        guard let name else { return feeds[0] }
        guard let feed = feeds.first(where: { $0.name == name }) else {
            throw KFeedError(
                .configuration,
                "no feed '\(name)' in \(url.path): it defines \(feeds.map(\.name).joined(separator: ", "))"
            )
        }
        return feed
    }
}

extension FeedsFile {
    /// Checks values and names where an error is: the TOML library parses, this only locates a key's line in the
    /// text for the message (the first `KEY =` line under the key's table header).
    struct Reader {
        var url: URL
        var lines: [String]

        /// The error for the key at `path`: `FILE:LINE: a.b.c: message`.
        func error(at path: [String], _ message: String) -> KFeedError {
            let line = line(of: path).map { ":\($0)" } ?? ""
            return KFeedError(.configuration, "\(url.path)\(line): \(path.joined(separator: ".")): \(message)")
        }

        /// The 1-based line that defines `path` (a table header, a `KEY =` line in its table, or a dotted key), if
        /// one is found.
        func line(of path: [String]) -> Int? {
            var table: [String] = []
            for (index, raw) in lines.enumerated() {
                let line = raw.trimmingCharacters(in: .whitespaces)
                if line.hasPrefix("[") {
                    let inner = line.drop { $0 == "[" }.prefix { $0 != "]" }
                    table = inner.split(separator: ".").map { Self.bare($0) }
                    if table == path { return index + 1 }
                    continue
                }
                guard let equals = line.firstIndex(of: "="), !line.hasPrefix("#") else { continue }
                let key = line[..<equals].split(separator: ".").map { Self.bare($0) }
                let full = table + key
                if full == path || (full.count > path.count && Array(full.prefix(path.count)) == path) {
                    return index + 1
                }
            }
            return nil
        }

        private static func bare(_ text: Substring) -> String {
            text.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
        }

        /// Refuses a key that `allowed` does not name (a typo would otherwise be ignored).
        func allow(_ allowed: [String], in table: TOMLTable, at path: [String]) throws {
            for key in table.keys.sorted() where !allowed.contains(key) {
                let hint = allowed.first {
                    $0.replacingOccurrences(of: "_", with: "-") == key || $0 == key.lowercased()
                }
                throw error(
                    at: path + [key],
                    hint.map { "unknown key; did you mean \($0)?" }
                        ?? "unknown key; expected one of \(allowed.joined(separator: ", "))"
                )
            }
        }

        func string(_ value: (any TOMLValueConvertible)?, at path: [String]) throws -> String? {
            guard let value else { return nil }
            guard let text = value.string else { throw error(at: path, "must be a string, like \"…\"") }
            return text
        }

        func int(_ value: (any TOMLValueConvertible)?, at path: [String], in range: ClosedRange<Int>) throws -> Int? {
            guard let value else { return nil }
            guard let number = value.int, range.contains(number) else {
                throw error(at: path, "must be a whole number \(range.lowerBound)…\(range.upperBound)")
            }
            return number
        }

        func bool(_ value: (any TOMLValueConvertible)?, at path: [String]) throws -> Bool? {
            guard let value else { return nil }
            guard let flag = value.bool else { throw error(at: path, "must be true or false") }
            return flag
        }

        func strings(_ value: (any TOMLValueConvertible)?, at path: [String]) throws -> [String]? {
            guard let value else { return nil }
            guard let array = value.array else { throw error(at: path, "must be a list of strings, like [\"…\"]") }
            return try array.map { element in
                guard let text = element.string else { throw error(at: path, "must be a list of strings") }
                return text
            }
        }

        /// Runs `parse`, turning its `KFeedError` into one that names the key.
        func parsed<T>(at path: [String], _ parse: () throws -> T) throws -> T {
            do { return try parse() } catch let failure as KFeedError {
                throw error(at: path, failure.message)
            }
        }
    }
}

extension FeedsFile.Reader {
    /// `[feeds.NAME]`: each key it has, written into `defaults`.
    func feed(_ name: String, in feeds: TOMLTable, now: Date, defaults: FeedSettings) throws -> FeedsFile.Feed {
        let path = ["feeds", name]
        guard !name.isEmpty, name.count <= 40, name.allSatisfy(FeedsFile.nameCharacters.contains) else {
            throw error(at: path, "a feed's name is 1…40 of a-z, 0-9, - and _ (it names a directory and a URL path)")
        }
        guard let table = feeds[name]?.table else { throw error(at: path, "must be a table: [feeds.\(name)]") }
        try allow(FeedsFile.feedKeys, in: table, at: path)
        var settings = defaults
        let key = { (name: String) in (value: table[name], path: path + [name]) }
        settings.query = try query(contexts: key("contexts"), raw: key("query"), feed: path)
        if let entries = try int(table["entries"], at: path + ["entries"], in: 1...100) { settings.entries = entries }
        if let text = try string(table["interval"], at: path + ["interval"]) {
            settings.interval = try parsed(at: path + ["interval"]) { try Interval(parsing: text) }
        }
        if let text = try string(table["policy"], at: path + ["policy"]) {
            settings.policy = try parsed(at: path + ["policy"]) { try ReloadPolicy(parsing: text, now: now) }
        }
        if let text = try string(table["size"], at: path + ["size"]) {
            settings.size = try parsed(at: path + ["size"]) { try ImageSize(parsing: text) }
        }
        if let texts = try strings(table["profiles"], at: path + ["profiles"]) {
            settings.profiles = []
            settings.addProfiles(
                try texts.map { text in try parsed(at: path + ["profiles"]) { try DisplayProfile(parsing: text) } }
            )
        }
        if let days = try int(table["no_repeat_days"], at: path + ["no_repeat_days"], in: 0...365) {
            settings.noRepeatDays = days
        }
        if let flag = try bool(table["allow_sensitive"], at: path + ["allow_sensitive"]) {
            settings.allowsSensitive = flag
        }
        if let flag = try bool(table["video_previews"], at: path + ["video_previews"]) {
            settings.usesVideoPreviews = flag
        }
        if let flag = try bool(table["captions"], at: path + ["captions"]) { settings.captions = flag }
        for (key, accounts) in [("deny", \FeedSettings.deny), ("allow", \FeedSettings.allow)] {
            guard let texts = try strings(table[key], at: path + [key]) else { continue }
            settings[keyPath: accounts] = try texts.map { text in
                try parsed(at: path + [key]) { try FeedSettings.account(parsing: text) }
            }
        }
        let minimums = [
            ("min_likes", \FeedSettings.Minimums.likes), ("min_reposts", \FeedSettings.Minimums.reposts),
            ("min_replies", \FeedSettings.Minimums.replies),
        ]
        for (key, threshold) in minimums {
            guard let value = try int(table[key], at: path + [key], in: 0...FeedSettings.Minimums.limit) else {
                continue
            }
            settings.minimums[keyPath: threshold] = value
        }
        if let text = try string(table["timezone"], at: path + ["timezone"]) {
            settings.timeZone = try parsed(at: path + ["timezone"]) { try TimeZone.named(text) }
        }
        if let text = try string(table["quiet"], at: path + ["quiet"]) {
            settings.quietHours = try parsed(at: path + ["quiet"]) { try QuietHours(parsing: text) }
        }
        try parsed(at: path) { try settings.validate() }
        return FeedsFile.Feed(name: name, settings: settings)
    }

    /// `contexts` or `query`: exactly one of them.
    private func query(
        contexts: (value: (any TOMLValueConvertible)?, path: [String]),
        raw: (value: (any TOMLValueConvertible)?, path: [String]),
        feed path: [String]
    ) throws -> RecentSearchQuery {
        switch (try strings(contexts.value, at: contexts.path), try string(raw.value, at: raw.path)) {
        case (.some, .some):
            throw error(at: raw.path, "contexts and query exclude each other: give one of them")
        case (nil, nil):
            throw error(at: path, "no search: give contexts = [\"DOMAIN.ENTITY\"] or query = \"…\"")
        case (let texts?, nil):
            return try parsed(at: contexts.path) {
                RecentSearchQuery(contexts: try texts.map(ContextAnnotation.init(parsing:)))
            }
        case (nil, let text?):
            return try parsed(at: raw.path) { try RecentSearchQuery(raw: text) }
        }
    }

    /// `[budget]`: `posts_per_day`, `usd_per_month`, `usd_per_post`, `usd_per_user`.
    func budget(_ value: (any TOMLValueConvertible)?) throws -> Budget {
        guard let value else { return Budget() }
        guard let table = value.table else { throw error(at: ["budget"], "must be a table: [budget]") }
        try allow(["posts_per_day", "usd_per_month", "usd_per_post", "usd_per_user"], in: table, at: ["budget"])
        let posts = try int(table["posts_per_day"], at: ["budget", "posts_per_day"], in: 0...1_000_000)
        let month = try money(table["usd_per_month"], at: ["budget", "usd_per_month"])
        let price = try money(table["usd_per_post"], at: ["budget", "usd_per_post"]) ?? Budget.defaultPrice
        guard price > 0 else { throw error(at: ["budget", "usd_per_post"], "must be more than 0") }
        let userPrice = try money(table["usd_per_user"], at: ["budget", "usd_per_user"]) ?? Budget.defaultUserPrice
        return Budget(postsPerDay: posts, usdPerMonth: month, usdPerPost: price, usdPerUser: userPrice)
    }

    /// An amount of US dollars: a number ≥ 0, whole or not.
    private func money(_ value: (any TOMLValueConvertible)?, at path: [String]) throws -> Double? {
        guard let value else { return nil }
        guard let amount = value.double ?? value.int.map(Double.init), amount >= 0, amount.isFinite else {
            throw error(at: path, "must be an amount in US dollars, like 9 or 0.005")
        }
        return amount
    }

    /// `[serve]`: `listen`, `key_file`, `idle_timeout`, and `[serve.trmnl]` (device id → feed name).
    func serve(_ value: (any TOMLValueConvertible)?, feeds: Set<String>) throws -> FeedsFile.Serve {
        guard let value else { return FeedsFile.Serve() }
        guard let table = value.table else { throw error(at: ["serve"], "must be a table: [serve]") }
        try allow(["listen", "key_file", "idle_timeout", "trmnl"], in: table, at: ["serve"])
        let listen = try string(table["listen"], at: ["serve", "listen"]).map { text in
            guard let address = ListenAddress(parsing: text) else {
                throw error(at: ["serve", "listen"], "'\(text)' is not HOST:PORT, e.g. \"127.0.0.1:8787\"")
            }
            return address
        }
        var serve = FeedsFile.Serve(
            listen: listen,
            keyFile: try string(table["key_file"], at: ["serve", "key_file"]),
            idleTimeout: try int(
                table["idle_timeout"],
                at: ["serve", "idle_timeout"],
                in: FeedsFile.Serve.idleTimeouts
            )
        )
        if let devices = table["trmnl"] {
            guard let devices = devices.table else {
                throw error(at: ["serve", "trmnl"], "must be a table: [serve.trmnl] with DEVICE-ID = \"FEED\" lines")
            }
            for id in devices.keys.sorted() {
                let path = ["serve", "trmnl", id]
                guard let feed = try string(devices[id], at: path), feeds.contains(feed) else {
                    throw error(at: path, "must name a feed of this file: \(feeds.sorted().joined(separator: ", "))")
                }
                serve.devices[id] = feed
            }
        }
        return serve
    }
}

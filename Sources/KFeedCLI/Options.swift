import ArgumentParser
import Foundation
import KFeed
import KFeedBase
import KFeedImages

// The command line's options, one group per concern: each command takes the groups it uses and no other
// (docs/commands.md). Every group writes what it was given into an `Invocation`, which resolves the feeds once.

/// Every group of a command that refreshes (`timeline`, `refresh`, `serve`): which feeds, where their cache is, their
/// settings, how to reach X, the instant and how much to say.
struct RefreshingOptions: ParsableArguments {
    @OptionGroup var selection: FeedSelection
    @OptionGroup var cache: CacheLocation
    @OptionGroup var search: SearchOptions
    @OptionGroup var timeline: TimelineOptions
    @OptionGroup var source: SourceOptions
    @OptionGroup var clock: ClockOption
    @OptionGroup var output: VerbosityOptions

    /// What was given, to resolve.
    var invocation: Invocation {
        Invocation(
            selection: selection,
            cache: cache,
            clock: clock,
            verbosity: output.verbosity,
            source: source,
            search: search,
            timeline: timeline
        )
    }
}

/// `--config`, `--feed`: which feeds a command works on.
struct FeedSelection: ParsableArguments {
    @Option(
        name: .customLong("config"),
        help: ArgumentHelp(
            "The feeds file (default: KFEED_CONFIG, else ~/.config/kfeed/kfeed.toml when it exists).",
            valueName: "path"
        )
    )
    var config: String?

    @Option(
        name: .customLong("feed"),
        help: ArgumentHelp(
            "The feed of the feeds file to use (refresh, serve, status, hide and unhide: repeat for several; default "
                + "all, else the first).",
            valueName: "name"
        )
    )
    var names: [String] = []
}

/// `--cache`, `--replay`: where the cache is, and the recorded answers that stand for X (a replay has a cache of its
/// own unless `--cache` says).
struct CacheLocation: ParsableArguments {
    @Option(name: .customLong("cache"), help: ArgumentHelp("The cache directory.", valueName: "dir"))
    var directory: String?

    @Option(help: ArgumentHelp("Answer every request from a recorded directory.", valueName: "dir"))
    var replay: String?
}

/// `--now`: the instant the command runs at.
struct ClockOption: ParsableArguments {
    @Option(
        help: ArgumentHelp("The current time: ISO 8601 with Z or an offset.", valueName: "t"),
        transform: { text in
            guard let date = InstantFormat.date(from: text) else {
                throw ValidationError("'\(text)' is not an ISO 8601 date with a zone, e.g. 2026-11-22T09:00:00Z")
            }
            return date
        }
    )
    var now: Date?
}

/// `-v`, `-q`: how much goes to stderr.
struct VerbosityOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "More detail on stderr (never the token).")
    var verbose = false

    @Flag(name: .shortAndLong, help: "Nothing on stderr but errors.")
    var quiet = false

    func validate() throws {
        if verbose && quiet { throw ValidationError("--verbose and --quiet exclude each other") }
    }

    var verbosity: Invocation.Verbosity { verbose ? .verbose : quiet ? .quiet : .normal }
}

/// `--api-base`: the API host.
struct APIBaseOption: ParsableArguments {
    @Option(name: .customLong("api-base"), help: ArgumentHelp("The API host.", valueName: "url"))
    var apiBase: String?
}

/// `--api-base`, `--token-file`, `--pages`: how a refresh reaches X.
struct SourceOptions: ParsableArguments {
    @OptionGroup var api: APIBaseOption

    @Option(
        name: .customLong("token-file"),
        help: ArgumentHelp("Read the bearer token from this file.", valueName: "path")
    )
    var tokenFile: String?

    @Option(help: ArgumentHelp("Pages one search may read, 1…10.", valueName: "n"))
    var pages: Int = 3

    func validate() throws {
        guard (1...10).contains(pages) else { throw ValidationError("--pages must be 1…10, not \(pages)") }
    }
}

/// `--context`, `--query`, `--allow`, `--deny`, `--min-likes`…, `--entries`: what a feed searches and how many posts it
/// wants. Each given flag
/// overrides the feed's setting (from the feeds file, or the environment and `.env`).
struct SearchOptions: ParsableArguments {
    @Option(
        name: .customLong("context"),
        help: ArgumentHelp("A context annotation DOMAIN.ENTITY; repeat to OR several.", valueName: "d.e")
    )
    var contexts: [String] = []

    @Option(name: .customLong("query"), help: ArgumentHelp("A raw search query, used as given.", valueName: "q"))
    var query: String?

    @Option(
        name: .customLong("deny"),
        help: ArgumentHelp("An account never shown, @username (repeatable).", valueName: "@user")
    )
    var deny: [String] = []

    @Option(
        name: .customLong("allow"),
        help: ArgumentHelp(
            "An account whose posts are shown, @username (repeatable; none: every account).",
            valueName: "@user"
        )
    )
    var allow: [String] = []

    @Option(name: .customLong("min-likes"), help: ArgumentHelp("The fewest likes a post needs.", valueName: "n"))
    var minLikes: Int?

    @Option(name: .customLong("min-reposts"), help: ArgumentHelp("The fewest reposts a post needs.", valueName: "n"))
    var minReposts: Int?

    @Option(name: .customLong("min-replies"), help: ArgumentHelp("The fewest replies a post needs.", valueName: "n"))
    var minReplies: Int?

    @Option(help: ArgumentHelp("Timeline length, 1…100 (default 24).", valueName: "n"))
    var entries: Int?

    func validate() throws {
        if let entries, !(1...100).contains(entries) {
            throw ValidationError("--entries must be 1…100, not \(entries)")
        }
        for (flag, names) in [("--deny", deny), ("--allow", allow)] {
            for text in names {
                do { _ = try FeedSettings.account(parsing: text) } catch {
                    throw ValidationError("\(flag): \(error.message)")
                }
            }
        }
        for (flag, value) in [("--min-likes", minLikes), ("--min-reposts", minReposts), ("--min-replies", minReplies)] {
            guard let value else { continue }
            do { _ = try FeedSettings.Minimums.threshold(value, named: flag) } catch {
                throw ValidationError(error.message)
            }
        }
    }

    /// Writes the flags given into `settings`.
    /// - Throws: `KFeedError` `.configuration` for an invalid query or context.
    func apply(to settings: inout FeedSettings) throws {
        if query != nil && !contexts.isEmpty {
            throw KFeedError(.configuration, "--query and --context exclude each other: give one of them")
        }
        if let query { settings.query = try RecentSearchQuery(raw: query) }
        if !contexts.isEmpty {
            settings.query = RecentSearchQuery(contexts: try contexts.map(ContextAnnotation.init(parsing:)))
        }
        if !deny.isEmpty { settings.deny = try deny.map { try FeedSettings.account(parsing: $0) } }
        if !allow.isEmpty { settings.allow = try allow.map { try FeedSettings.account(parsing: $0) } }
        if let minLikes { settings.minimums.likes = minLikes }
        if let minReposts { settings.minimums.reposts = minReposts }
        if let minReplies { settings.minimums.replies = minReplies }
        if let entries { settings.entries = entries }
    }
}

/// How a feed's timeline is laid out and rendered. Each given flag overrides the feed's setting.
struct TimelineOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp("Time between entries (15m, 1h, 2h…; default 1h).", valueName: "d"),
        transform: { text in
            do { return try Interval(parsing: text) } catch let error as KFeedError {
                throw ValidationError(error.message)
            }
        }
    )
    var interval: Interval?

    @Option(
        help: ArgumentHelp(
            "When widgets reload: atEnd (default), never, after:DATE or after:DURATION.",
            valueName: "p"
        )
    )
    var policy: String?

    @Option(
        help: ArgumentHelp("Image size: small (default), medium, large or WxH.", valueName: "s"),
        transform: { text in
            do { return try ImageSize(parsing: text) } catch let error as KFeedError {
                throw ValidationError(error.message)
            }
        }
    )
    var size: ImageSize?

    @Option(
        name: .customLong("no-repeat-days"),
        help: ArgumentHelp(
            "Days a shown post or picture is not shown again, 0…365; 0 keeps no history (default 7, 0 with --replay).",
            valueName: "n"
        )
    )
    var noRepeatDays: Int?

    @Option(
        name: .customLong("profile"),
        help: ArgumentHelp(
            "Also render each entry for a display: trmnl, trmnl-bmp, trmnl-grey4, trmnl-x, grey4, inky7, spectra6, spectra6-13, inkplate, inkplate10, inkplate6plus, frame or WxH:KIND[:FORMAT] (repeatable).",
            valueName: "p"
        )
    )
    var profiles: [String] = []

    @Flag(name: .customLong("no-caption"), help: "Display renders without the caption band: the bare picture.")
    var noCaption = false

    @Option(
        name: .customLong("quiet-hours"),
        help: ArgumentHelp(
            "Daily hours with no search, panels told to sleep until their end: HH:MM-HH:MM (23:00-07:00), or off.",
            valueName: "range"
        ),
        transform: QuietHoursChoice.init(flag:)
    )
    var quietHours: QuietHoursChoice?

    @Option(
        name: .customLong("timezone"),
        help: ArgumentHelp(
            "The feed's zone, an IANA name (Europe/Berlin): quiet hours and the renders' hours (default: TZ).",
            valueName: "zone"
        ),
        transform: { (text: String) throws -> TimeZone in
            do { return try TimeZone.named(text) } catch let error as KFeedError {
                throw ValidationError(error.message)
            }
        }
    )
    var timeZone: TimeZone?

    @Flag(name: .customLong("allow-sensitive"), help: "Keep posts flagged possibly_sensitive.")
    var allowSensitive = false

    @Flag(name: .customLong("video-previews"), help: "Use the still preview of videos and GIFs.")
    var videoPreviews = false

    func validate() throws {
        if let noRepeatDays, !(0...365).contains(noRepeatDays) {
            throw ValidationError("--no-repeat-days must be 0…365, not \(noRepeatDays)")
        }
    }

    /// Writes the flags given into `settings`.
    /// - Throws: `KFeedError` `.usage` for a policy, `.configuration` for a profile it cannot read.
    func apply(to settings: inout FeedSettings, now: Date) throws {
        if let interval { settings.interval = interval }
        if let policy {
            do { settings.policy = try ReloadPolicy(parsing: policy, now: now) } catch let error as KFeedError {
                throw KFeedError(.usage, "--policy: \(error.message)")
            }
        }
        if let size { settings.size = size }
        if let noRepeatDays { settings.noRepeatDays = noRepeatDays }
        if !profiles.isEmpty {
            settings.profiles = []
            settings.addProfiles(try profiles.map { try DisplayProfile(parsing: $0) })
        }
        if noCaption { settings.captions = false }
        switch quietHours {
        case .hours(let hours): settings.quietHours = hours
        case .off: settings.quietHours = nil
        case nil: break
        }
        if let timeZone { settings.timeZone = timeZone }
        if allowSensitive { settings.allowsSensitive = true }
        if videoPreviews { settings.usesVideoPreviews = true }
    }
}

/// `--quiet-hours`: a range, or `off` (no quiet hours, whatever the feeds file says).
enum QuietHoursChoice: Sendable {
    case hours(QuietHours)
    case off

    /// Reads the flag's value.
    /// - Throws: `ValidationError` (exit 64) saying what to write.
    init(flag text: String) throws {
        if text == "off" {
            self = .off
            return
        }
        do { self = .hours(try QuietHours(parsing: text)) } catch {
            throw ValidationError(error.message)
        }
    }
}

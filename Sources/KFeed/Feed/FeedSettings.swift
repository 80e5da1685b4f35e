public import Foundation
import KFeedBase
public import KFeedImages

/// Everything that shapes one feed: what it searches, how its timeline is laid out, what is rendered for displays.
///
/// The one settings type of a feed. Each source of settings writes into it in turn — the defaults, a feeds file's
/// `[feeds.NAME]` table, the environment and `.env` (for the feed of the flags), the command line — and every layer
/// below reads it: the refresher, the server, the timeline's fingerprint (`docs/timeline.md`). A new per-feed option
/// is a property here, the code that uses it, and its line in the feeds file's and the command line's readers.
public struct FeedSettings: Sendable, Hashable {
    /// What to search (the query as the user gave it; ``search`` adds the denied accounts).
    public var query: RecentSearchQuery
    /// How many entries the timeline has at most (1…100; `--entries`, `entries`).
    public var entries: Int
    /// The time between entries (`--interval`, `interval`).
    public var interval: Interval
    /// When the timeline asks for the next one (`--policy`, `policy`).
    public var policy: ReloadPolicy
    /// The widget image size (`--size`, `size`).
    public var size: ImageSize
    /// Keep posts flagged `possibly_sensitive` (`--allow-sensitive`, `allow_sensitive`).
    public var allowsSensitive: Bool
    /// Use the still preview of videos and GIFs (`--video-previews`, `video_previews`).
    public var usesVideoPreviews: Bool
    /// Days a shown post or picture is not shown again (0…365; `--no-repeat-days`, `no_repeat_days`); 0 keeps no
    /// history.
    public var noRepeatDays: Int
    /// The display renders made for every entry (`--profile`, `profiles`).
    public var profiles: [DisplayProfile]
    /// Whether renders carry the caption band (`--no-caption`, `captions`).
    public var captions: Bool
    /// Accounts never shown, by username without the `@` (`--deny`, `deny`), lower-cased.
    public var deny: [String]
    /// The only accounts shown, when any is given (`--allow`, `allow`): usernames without the `@`, lower-cased.
    public var allow: [String]
    /// The fewest likes, reposts and replies a post needs (`--min-likes`…, `min_likes`…); 0 asks for none.
    public var minimums: Minimums
    /// The feed's zone (`--timezone`, `timezone`): the renders' hours are shown in it and the quiet hours read on
    /// its clock.
    public var timeZone: TimeZone
    /// The daily hours with no search, panels told to sleep until their end (`--quiet-hours`, `quiet`); nil: none.
    public var quietHours: QuietHours?

    /// Creates settings; the defaults are the contract's.
    /// - Parameters:
    ///   - query: what to search.
    ///   - entries: how many entries the timeline has at most (1…100).
    ///   - interval: the time between entries.
    ///   - policy: when the timeline asks for the next one.
    ///   - size: the widget image size.
    ///   - allowsSensitive: keep posts flagged `possibly_sensitive`.
    ///   - usesVideoPreviews: use the still preview of videos and GIFs.
    ///   - noRepeatDays: days a shown post or picture is not shown again; zero keeps no history.
    ///   - profiles: the display renders made for every entry.
    ///   - captions: whether renders carry the caption band.
    ///   - deny: accounts never shown (usernames, with or without `@`).
    ///   - allow: the only accounts shown, when any is given (usernames, with or without `@`).
    ///   - minimums: the fewest likes, reposts and replies a post needs.
    ///   - timeZone: the zone the renders' hours are shown in and the quiet hours are read in.
    ///   - quietHours: the daily hours with no search; nil for none.
    public init(
        query: RecentSearchQuery = .default,
        entries: Int = 24,
        interval: Interval = .hour,
        policy: ReloadPolicy = .atEnd,
        size: ImageSize = .small,
        allowsSensitive: Bool = false,
        usesVideoPreviews: Bool = false,
        noRepeatDays: Int = 7,
        profiles: [DisplayProfile] = [],
        captions: Bool = true,
        deny: [String] = [],
        allow: [String] = [],
        minimums: Minimums = Minimums(),
        timeZone: TimeZone = .gmt,
        quietHours: QuietHours? = nil
    ) {
        self.query = query
        self.entries = entries
        self.interval = interval
        self.policy = policy
        self.size = size
        self.allowsSensitive = allowsSensitive
        self.usesVideoPreviews = usesVideoPreviews
        self.noRepeatDays = noRepeatDays
        self.profiles = profiles
        self.captions = captions
        self.deny = deny.map(Self.username)
        self.allow = allow.map(Self.username)
        self.minimums = minimums
        self.timeZone = timeZone
        self.quietHours = quietHours
    }

    /// Settings around a builder's selection and schedule (the tests' shape).
    package init(
        query: RecentSearchQuery,
        builder: TimelineBuilder,
        size: ImageSize,
        noRepeatWindow: TimeInterval = 7 * 86_400,
        profiles: [DisplayProfile] = [],
        captions: Bool = true,
        timeZone: TimeZone = .gmt
    ) {
        self.init(
            query: query,
            entries: builder.entryCount,
            interval: builder.interval,
            policy: builder.policy,
            size: size,
            allowsSensitive: builder.allowsSensitive,
            usesVideoPreviews: builder.usesVideoPreviews,
            noRepeatDays: Int((noRepeatWindow / 86_400).rounded(.up)),
            profiles: profiles,
            captions: captions,
            timeZone: timeZone
        )
    }

    /// Adds each of `profiles` that the settings do not render yet, by name, in order (a name given twice counts
    /// once).
    package mutating func addProfiles(_ profiles: [DisplayProfile]) {
        for profile in profiles where !self.profiles.contains(where: { $0.name == profile.name }) {
            self.profiles.append(profile)
        }
    }

    // MARK: - What the layers below read

    /// Selection and schedule.
    package var builder: TimelineBuilder {
        var builder = TimelineBuilder(
            entryCount: entries,
            interval: interval,
            policy: policy,
            allowsSensitive: allowsSensitive,
            usesVideoPreviews: usesVideoPreviews
        )
        builder.deniedUsernames = Set(deny)
        builder.allowedUsernames = Set(allow)
        return builder
    }

    /// How long a shown post, media key or picture stays unusable.
    package var noRepeatWindow: TimeInterval { Double(noRepeatDays) * 86_400 }

    /// Candidates fetched beyond the entries when history is kept, so that a picture found to repeat one already
    /// shown only after its download gives its slot to the next: a sixth of the entries, 1…4.
    package var extraCandidates: Int {
        noRepeatDays > 0 ? min(4, max(1, entries / 6)) : 0
    }

    /// The query sent: ``query``, then the ``minimums`` (`min_likes:N`…), the allowed accounts as one group
    /// (`(from:A OR from:B)`) when it fits, and `-from:USER` for each denied account while the whole stays within X's
    /// 512 characters (a query with an `OR` at its top level is put in parentheses first, so that what follows applies
    /// to all of it). What does not fit is in ``Search``: those accounts' posts are filtered after the read, as every
    /// denied or unallowed account's are. The minimums always go in the query (``validate()`` checks they fit).
    public var search: Search {
        var search = Search(query: query, inQuery: [], filtered: [], allowInQuery: false)
        let thresholds = minimums.operators.map { " \($0)" }.joined()
        guard !thresholds.isEmpty || !allow.isEmpty || !deny.isEmpty else { return search }
        var text = (Self.hasTopLevelOR(query.text) ? "(\(query.text))" : query.text) + thresholds
        func fits(_ addition: String) -> Bool {
            text.unicodeScalars.count + addition.unicodeScalars.count <= RecentSearchQuery.maxLength
        }
        if !allow.isEmpty {
            let group = allow.map { "from:\($0)" }.joined(separator: " OR ")
            let addition = allow.count == 1 ? " \(group)" : " (\(group))"
            if fits(addition) {
                text += addition
                search.allowInQuery = true
            }
        }
        for name in deny {
            let exclusion = " -from:\(name)"
            if fits(exclusion) {
                text += exclusion
                search.inQuery.append(name)
            } else {
                search.filtered.append(name)
            }
        }
        let changed = !thresholds.isEmpty || search.allowInQuery || !search.inQuery.isEmpty
        guard changed, let folded = try? RecentSearchQuery(raw: text) else {
            return Search(query: query, inQuery: [], filtered: deny, allowInQuery: false)
        }
        search.query = folded
        return search
    }

    /// Checks that the query with its ``minimums`` stays within X's 512 characters (the accounts never make it
    /// fail: those that do not fit are filtered after the read).
    /// - Throws: `KFeedError` `.configuration` saying how long the query would be.
    public func validate() throws(KFeedError) {
        let thresholds = minimums.operators.map { " \($0)" }.joined()
        guard !thresholds.isEmpty else { return }
        let text = (Self.hasTopLevelOR(query.text) ? "(\(query.text))" : query.text) + thresholds
        let length = text.unicodeScalars.count
        guard length <= RecentSearchQuery.maxLength else {
            throw KFeedError(
                .configuration,
                "the query with \(minimums.operators.joined(separator: " ")) has \(length) characters, more than "
                    + "the \(RecentSearchQuery.maxLength) X accepts; shorten the query"
            )
        }
    }

    /// The query as sent, and where each account rule is applied.
    public struct Search: Sendable, Hashable {
        /// The query sent to X.
        public var query: RecentSearchQuery
        /// Denied accounts excluded by the query itself (`-from:USER`).
        public var inQuery: [String]
        /// Denied accounts that did not fit in 512 characters: their posts are dropped after the read.
        public var filtered: [String]
        /// Whether the allowed accounts are in the query (`from:`); when not (and there are some), every other
        /// account's posts are dropped after the read.
        public var allowInQuery: Bool
    }

    /// The fewest likes, reposts and replies a post needs: X's `min_likes:`, `min_reposts:` and `min_replies:`
    /// operators, put in the query. Zero asks for none.
    public struct Minimums: Sendable, Hashable {
        /// The fewest likes (`min_likes`).
        public var likes: Int
        /// The fewest reposts (`min_reposts`).
        public var reposts: Int
        /// The fewest replies (`min_replies`).
        public var replies: Int

        /// The largest threshold accepted.
        public static let limit = 10_000_000

        /// Creates thresholds; zero asks for none.
        public init(likes: Int = 0, reposts: Int = 0, replies: Int = 0) {
            self.likes = likes
            self.reposts = reposts
            self.replies = replies
        }

        /// The operators sent, in this order: `min_likes:N`, `min_reposts:N`, `min_replies:N`, those above zero.
        public var operators: [String] {
            [("min_likes", likes), ("min_reposts", reposts), ("min_replies", replies)]
                .filter { $0.1 > 0 }.map { "\($0.0):\($0.1)" }
        }

        /// Checks a threshold: a whole number 0…10,000,000.
        /// - Parameters:
        ///   - value: the threshold.
        ///   - name: the setting's name, for the message (`min_likes`, `--min-likes`).
        /// - Returns: `value`.
        /// - Throws: `KFeedError` `.configuration` naming the setting.
        public static func threshold(_ value: Int, named name: String) throws(KFeedError) -> Int {
            guard (0...limit).contains(value) else {
                throw KFeedError(.configuration, "\(name) must be 0…\(limit), not \(value)")
            }
            return value
        }
    }

    // MARK: - Fingerprints

    /// A digest of every setting that shapes the timeline's posts and schedule: query (with the minimums and the
    /// accounts allowed and denied),
    /// entries, interval, the policy's kind, size, sensitive posts, video previews and the no-repeat window. A
    /// timeline records it; a change makes the feed due at the next run. The policy counts by kind only
    /// (`after:6h` resolves to a new instant at every run).
    package var timelineFingerprint: String {
        Self.digest([
            "query=\(search.query.text)", "entries=\(entries)", "interval=\(Int(interval.seconds))",
            "policy=\(policy.name)", "size=\(size.width)x\(size.height)", "sensitive=\(allowsSensitive)",
            "video=\(usesVideoPreviews)", "norepeat=\(noRepeatDays)", "deny=\(deny.sorted().joined(separator: ","))",
            "allow=\(allow.sorted().joined(separator: ","))",
        ])
    }

    /// A digest of what the display renders show besides each entry: the caption band, and the attribution's
    /// version (`attribution=1`: the X mark, the post's time and text; a timeline rendered before it re-renders). A
    /// change re-renders the timeline's entries with no search (as a profile added does). Not the zone the band's hour
    /// is shown in: without `timezone` it is the machine's, which a cron line and a shell may see differently.
    package var renderFingerprint: String {
        Self.digest(["captions=\(captions)", "attribution=1"])
    }

    /// Sixteen hex digits of FNV-1a over the lines: stable across runs and machines.
    private static func digest(_ lines: [String]) -> String {
        var hash = FNV1a()
        hash.add(lines.joined(separator: "\n").utf8)
        return hash.hex
    }

    /// Whether `text` has an `OR` outside parentheses and quotes (X binds AND tighter than OR, so an exclusion
    /// appended to it would apply to its last alternative only).
    static func hasTopLevelOR(_ text: String) -> Bool {
        var depth = 0
        var inQuotes = false
        var word = ""
        for character in text + " " {
            if character == "\"" { inQuotes.toggle() }
            if inQuotes { continue }
            switch character {
            case "(": depth += 1
            case ")": depth -= 1
            case _ where character.isWhitespace:
                if word == "OR" && depth == 0 { return true }
                word = ""
                continue
            default: break
            }
            word.append(character)
        }
        return false
    }

    // MARK: - Accounts

    /// `@Name` or `Name` → `name`.
    static func username(_ text: String) -> String {
        (text.hasPrefix("@") ? String(text.dropFirst()) : text).lowercased()
    }

    /// Checks an account name as X's usernames are: 1…15 of letters, digits and `_`, with or without `@`.
    /// - Returns: the username, lower-cased, without the `@`.
    /// - Throws: `KFeedError` `.configuration` naming the account.
    public static func account(parsing text: String) throws(KFeedError) -> String {
        let name = username(text.trimmingCharacters(in: .whitespaces))
        guard (1...15).contains(name.count),
            name.allSatisfy({ $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) })
        else {
            throw KFeedError(
                .configuration,
                "'\(text)' is not an X account: give @username (1 to 15 letters, digits or _)"
            )
        }
        return name
    }
}

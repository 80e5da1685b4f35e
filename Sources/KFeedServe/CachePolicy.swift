import Foundation
import HTTPTypes
import KFeed

/// How long caches may keep an answer, written as `Cache-Control`, `Expires` and `Vary` (`docs/serve.md`, "Behind a
/// cache or a CDN").
///
/// Freshness is an absolute time (`Expires`), never a relative `max-age`: a shared cache such as nginx's
/// `proxy_cache` sends no `Age`, so a relative lifetime it passes on starts again at every client, and a copy stored
/// early in the hour would let a client keep it up to an hour past the entry's end. `Expires` ends where it ends,
/// however many caches pass the copy on. The one relative lifetime is the year of a content-addressed URL, whose
/// bytes never change.
///
/// No `s-maxage` either, though it is the directive CDNs document: a shared cache takes it over `Expires`, and it is
/// as relative as `max-age`. Straight from kfeed it would be exact, but nginx passes it on unchanged with no `Age` and
/// a `Date` of its own, so a CDN in front of that nginx (a common set-up: the CDN's edge, nginx at home, kfeed behind
/// it) would start the copy's lifetime again and keep `/current.jpg` up to an hour past its entry. `Expires` asks
/// nothing of the chain: every shared cache (nginx, Varnish, Cloudflare, Fastly, CloudFront) keeps an answer until
/// `Expires` (RFC 9111 §4.2.1: `Expires` − `Date`, and each cache's own `Date` moves with it). Where `s-maxage` could
/// not stretch a copy — a content-addressed URL — it would say what `max-age` says already.
/// (`docs/serve.md`, "Behind a CDN".)
enum CachePolicy: Sendable, Equatable {
    /// Never stored: errors, `/healthz`, TRMNL's device answers, anything that may hand out the key.
    case noStore
    /// Stored, but checked with the server (by `ETag`) before every use.
    case revalidate
    /// Fresh until the instant; after it, a cache may answer from its stale copy for at most `staleSeconds` while one
    /// request fetches the new one (`stale-while-revalidate`): at the hour one request reaches the server, not all.
    case until(Date, staleSeconds: Int)
    /// A URL whose bytes never change (the file's digest in `?v=`): a year, `immutable`.
    case immutable

    /// The longest a cache may keep an answer that counts seconds to the entry's end (`/current.json`'s
    /// `refresh_rate`), in seconds: what a client reads from such a copy is at most this late.
    ///
    /// A countdown cannot be kept longer behind a cache that sends no `Age` (nginx's `proxy_cache`): a copy stored at
    /// `s` with `R(s)` seconds to the end and kept until `s + m` tells a client that reads it at `s + m` to come back at
    /// `s + m + R(s)`, `m` past the end. So the 60 s `docs/serve.md` allows bound `m` whatever the clients do, and at
    /// 30 s (40 s with a client's own `stale-while-revalidate`) such a path reaches kfeed at most once per 30 s,
    /// however many clients read it: a few hundred bytes each time. `refresh_rate` stays a countdown (TRMNL-style
    /// clients read it); a client that wants one request per entry reads `until`, an instant, instead. `/widget`
    /// counts nothing: its script reloads at the instant the page names, so it is kept until the entry's end.
    static let countingSeconds = 30.0
    /// How long after it expires an answer that changes at the hour may still be used while it is being fetched
    /// again, in seconds (a shared cache uses it for the duration of one request to the server).
    static let hourlyStaleSeconds = 10
    /// The longest a content-addressed URL is kept, in seconds: a year.
    static let immutableSeconds = 31_536_000

    /// The header `Vary` names for an answer to a request that carried the key: the two headers that can carry it.
    static let keyHeaders = "Authorization, Access-Token"

    private static let publicHourly = "public, stale-while-revalidate=\(hourlyStaleSeconds)"
    private static let privateHourly = "private, stale-while-revalidate=\(hourlyStaleSeconds)"

    /// HTTP dates made recently, by second: most answers share a few instants (the entry's end), and the image path
    /// answers tens of thousands a second, for which formatting each costs more than a look-up.
    private static let dates = Locked<[Int64: String]>([:])

    /// `date` as an HTTP date (whole seconds, rounded down), from ``dates`` when it was made recently.
    static func httpDate(_ date: Date) -> String {
        let second = Int64(date.timeIntervalSince1970.rounded(.down))
        if let text = dates.withLock({ $0[second] }) { return text }
        let text = InstantFormat.httpDate(from: Date(timeIntervalSince1970: Double(second)))
        dates.withLock { dates in
            if dates.count >= 64 { dates.removeAll(keepingCapacity: true) }
            dates[second] = text
        }
        return text
    }

    /// Sets `Cache-Control` (and `Expires`, `Vary`) on `headers`. `isPrivate` (an answer to a request that needed
    /// the key) keeps the answer out of shared caches and varies it on the key's headers; a browser's own cache may
    /// still keep it.
    func apply(to headers: inout HTTPFields, isPrivate: Bool) {
        let scope = isPrivate ? "private" : "public"
        switch self {
        case .noStore:
            headers[.cacheControl] = "no-store"
        case .revalidate:
            headers[.cacheControl] = isPrivate ? "private, no-cache" : "public, no-cache"
        case .until(let expires, let staleSeconds):
            headers[.cacheControl] =
                staleSeconds == Self.hourlyStaleSeconds
                ? (isPrivate ? Self.privateHourly : Self.publicHourly)
                : "\(scope), stale-while-revalidate=\(staleSeconds)"
            headers[.expires] = Self.httpDate(expires)
        case .immutable:
            headers[.cacheControl] = "\(scope), max-age=\(Self.immutableSeconds), immutable"
        }
        if isPrivate, self != .noStore {
            headers[.vary] = headers[.vary].map { "\($0), \(Self.keyHeaders)" } ?? Self.keyHeaders
        }
    }
}

package import Foundation
package import KFeedImages

extension DeviceLogBook {
    /// The renders to make ahead for TRMNL devices, by feed: for each device of `devices` (its ID to the feed it
    /// shows), the render it was last shown — which its model and size chose, as kept in `directory`'s book — or
    /// `trmnl` for a device not seen yet (or whose last render is no profile kfeed still knows). `kfeed serve
    /// --refresh` reads it again before each refresh, so that a TRMNL X, or an OG whose firmware takes 2-bit
    /// pictures, has its own render made with the timeline from its first request on, and a panel on battery does
    /// not wait for it.
    package static func renders(for devices: [String: String], in directory: URL) -> [String: [DisplayProfile]] {
        let shown = Dictionary(
            read(from: directory).map { ($0.id, $0.profile) },
            uniquingKeysWith: { mostRecent, _ in mostRecent }
        )
        var renders: [String: [DisplayProfile]] = [:]
        for (id, feed) in devices.sorted(by: { $0.key < $1.key }) {
            let last = shown[ServeResponder.normalizedID(id)] ?? nil
            let profile = last.flatMap { try? DisplayProfile(parsing: $0) } ?? .trmnl
            if !renders[feed, default: []].contains(profile) { renders[feed, default: []].append(profile) }
        }
        return renders
    }
}

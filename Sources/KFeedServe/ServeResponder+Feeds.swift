import Foundation
import Hummingbird
import KFeed

/// `/feed.json` and `/feed.xml` (and under `/f/NAME/`): the feed's timeline for feed readers (``FeedDocument``).
extension ServeResponder {
    /// The feed's document in `format`: its entries up to now, newest first, every URL absolute on this server as
    /// the client addressed it (its `Host`), the pictures' with their version (`?v=`) and, with a key, signed. Fresh
    /// until the entry ends (a new item comes with the next entry), with an `ETag` for `If-None-Match`.
    func feedDocument(
        _ format: FeedDocument.Format,
        moment: Moment,
        snapshot: ServedCache.Snapshot,
        request: Request,
        scope: FeedScope
    ) -> ServeAnswer {
        guard let generation = moment.generation else { return .error(.notFound, "no timeline yet: run kfeed refresh") }
        let base = "\(base(request))/\(scope.prefix)"
        let document = FeedDocument(name: scope.feed.name, manifest: generation.manifest, now: moment.now, base: base) {
            path in
            guard let file = snapshot.file(path) else { return nil }
            return FeedDocument.Picture(
                url: base + link(path, in: generation, scope: scope),
                length: file.bytes.readableBytes
            )
        }
        var answer = ServeAnswer.bytes(Array(document.data(format)), type: format.contentType)
        answer.caching = moment.untilEntryEnds
        answer.validate(modified: moment.modified)
        return answer
    }
}

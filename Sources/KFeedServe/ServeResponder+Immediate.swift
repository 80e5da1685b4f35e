import HTTPTypes
import KFeed

/// The answers ``ImmediateFileHandler`` gives on the event loop, before the router: the same functions as the routes
/// `/current.jpg` and the files (``ServeResponder/currentImage(_:snapshot:)``, ``ServeResponder/file(_:version:snapshot:moment:feed:)``).
extension ServeResponder {
    /// The answer to a `GET` or `HEAD` of `/current.jpg` or a file (at the default feed's paths or, with a feeds file,
    /// under `/f/NAME/`; without a query string, or with only its version `?v=`) with the key (when one is required)
    /// in a header; nil for every other request, which goes to the router. The paths it takes are exactly the ones the
    /// router would give these routes (a file's path is one the cache can hold: `CacheStore.isGenerationFile`).
    func immediateAnswer(to head: HTTPTypes.HTTPRequest) -> ServeAnswer? {
        guard head.method == .get || head.method == .head, let target = head.path,
            head.headerFields[.connection] == nil
        else { return nil }
        // (`utf8` views: String's own `contains` and `split` go through Foundation here, at a cost per request.)
        let question = target.utf8.firstIndex(of: UInt8(ascii: "?"))
        let path = question.map { target[..<$0] } ?? target[...]
        var version: Substring?
        if let question {
            let query = target[target.index(after: question)...]
            guard query.hasPrefix("\(ServedFile.versionParameter)="), !query.utf8.contains(UInt8(ascii: "&")) else {
                return nil
            }
            version = query.dropFirst(ServedFile.versionParameter.count + 1)
        }
        guard path.hasPrefix("/") else { return nil }
        var scope = feeds.defaultScope
        var relative = path.dropFirst()
        if feeds.servesFeedPaths, relative.hasPrefix("f/") {
            let rest = relative.dropFirst(2)
            guard let slash = rest.utf8.firstIndex(of: UInt8(ascii: "/")),
                let named = feeds.scope(named: String(rest[..<slash]))
            else { return nil }
            scope = named
            relative = rest[rest.index(after: slash)...]
        }
        if let key, !key.isPresented(inHeaders: head.headerFields) { return nil }
        let isCurrentImage = relative == "current.jpg"
        guard isCurrentImage ? version == nil : CacheStore.isGenerationFile(String(relative)) else { return nil }
        let snapshot = scope.feed.cache.current()
        let moment = Moment(generation: snapshot.current, now: settings.now())
        var answer =
            isCurrentImage
            ? currentImage(moment, snapshot: snapshot)
            : file(String(relative), version: version, snapshot: snapshot, moment: moment, feed: scope.feed)
        answer.isPrivate = key != nil
        return answer
    }
}

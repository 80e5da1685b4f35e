import Foundation

extension CacheStore {
    /// The recent-search pages earlier refreshes read for `query`, newest first, exactly as X sent them: posts that
    /// were not shown (held back by the author cap, or not needed) stay candidates while they are in the search's
    /// 7-day window, so a later refresh asks X for fewer posts. Empty when there are none or the query changed.
    func candidatePages(for query: String) -> [Data] {
        guard let data = files.read(Self.candidatesName),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            object["query"] as? String == query, let pages = object["pages"] as? [Any]
        else { return [] }
        return pages.compactMap { try? JSONSerialization.data(withJSONObject: $0) }
    }

    /// Replaces `candidates.json` atomically with `pages` (newest first) for `query`. With `syncDirectory` false,
    /// the new name is durable only after ``syncDirectory()``.
    func writeCandidatePages(_ pages: [Data], for query: String, syncDirectory: Bool = true) throws {
        var text = Data(#"{"schema":1,"query":"#.utf8)
        text += try JSONSerialization.data(withJSONObject: query, options: [.fragmentsAllowed])
        text += Data(#","pages":["#.utf8)
        text += Data(pages.map { String(decoding: $0, as: UTF8.self) }.joined(separator: ",").utf8)
        text += Data("]}\n".utf8)
        try files.write(text, to: Self.candidatesName, syncDirectory: syncDirectory)
    }
}

import Foundation

/// The body TRMNL's firmware posts to `/api/log` (at most 64 KiB, bytes from the network): `{"log": {"logs_array":
/// [{"log_message": …, "log_codeline": N, "log_sourcefile": …}, …]}}`, read for the messages `kfeed serve` keeps.
package enum TRMNLLog {
    /// The messages of `body`, at most `limit`, each as printable ASCII of at most `length` characters (anything else
    /// `?`): the firmware's entries' `log_message` (with `(file:line)` when given); any other JSON or text is one
    /// message, its first characters; nothing for an empty body.
    package static func messages(in body: [UInt8], limit: Int, length: Int) -> [String] {
        if let json = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
            let log = json["log"] as? [String: Any], let array = log["logs_array"] as? [Any]
        {
            return array.prefix(limit).compactMap { (item: Any) -> String? in
                guard let entry = item as? [String: Any], let message = entry["log_message"] as? String else {
                    return nil
                }
                var text = message
                if let line = entry["log_codeline"] as? Int, let source = entry["log_sourcefile"] as? String {
                    text += " (\(source):\(line))"
                }
                return printable(text, length: length)
            }
        }
        let text = String(decoding: body.prefix(length * 4), as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines
        )
        return text.isEmpty ? [] : [printable(text, length: length)]
    }

    /// `text`'s first `length` characters, control characters and non-ASCII shown as `?`.
    static func printable(_ text: String, length: Int) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.prefix(length).map { $0.isASCII && $0.value >= 0x20 && $0.value != 0x7F ? $0 : "?" }
            )
        )
    }
}

import HTTPTypes
import Hummingbird

/// Cross-origin access for browser clients (TRMNL simulators and mirror apps, dashboards, feed readers in a page):
/// the device API (`/api/…`), `/current.json` and the feeds (`/feed.json`, `/feed.xml`), at the top level and under
/// `/f/NAME/`, chosen by path so that a route added later at one of them has it too.
///
/// Any origin (`Access-Control-Allow-Origin: *`), never credentials (no `Access-Control-Allow-Credentials`: a browser
/// then sends no cookies and no HTTP authentication of its own). The key is untouched: a preflight (`OPTIONS`, which
/// a browser sends without the request's headers) is answered without it, and says only which methods and headers
/// may be sent; the real request still needs the key in a header or `?key=`, and gets `401` without it.
extension ServeResponder {
    /// The headers a preflight allows when it names none: the ones TRMNL's firmware sends, and the key's.
    static let corsAllowedHeaders =
        "ID, Access-Token, Authorization, Model, Width, Height, Battery-Voltage, FW-Version, RSSI, Refresh-Rate, "
        + "Content-Type, If-None-Match"
    /// How long a browser may keep a preflight's answer, in seconds (Chromium keeps it at most 2 hours).
    static let corsMaxAge = 7_200

    /// Whether `path` (without its query) gets CORS headers.
    static func isCrossOrigin(_ path: String) -> Bool {
        var rest = Substring(path)
        if rest.hasPrefix("/f/") {
            let name = rest.dropFirst(3)
            guard let slash = name.firstIndex(of: "/") else { return false }
            rest = name[slash...]
        }
        return rest.hasPrefix("/api/") || rest == "/current.json" || rest == "/feed.json" || rest == "/feed.xml"
    }

    /// The answer to a preflight: `204` with the methods, the headers asked for (when they are plain header names)
    /// or ``corsAllowedHeaders``, and how long to keep it.
    func preflight(_ request: Request) -> ServeAnswer {
        var answer = ServeAnswer(status: .noContent)
        answer.headers[.accessControlAllowOrigin] = "*"
        answer.headers[.accessControlAllowMethods] = "GET, HEAD, POST, OPTIONS"
        let asked = request.headers[.accessControlRequestHeaders] ?? ""
        let isPlain =
            !asked.isEmpty && asked.utf8.count <= 1_024
            && asked.utf8.allSatisfy { byte in
                byte == UInt8(ascii: ",") || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: "_")
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            }
        answer.headers[.accessControlAllowHeaders] = isPlain ? asked : Self.corsAllowedHeaders
        answer.headers[.accessControlMaxAge] = String(Self.corsMaxAge)
        answer.headers[.vary] = "Access-Control-Request-Headers"
        return answer
    }
}

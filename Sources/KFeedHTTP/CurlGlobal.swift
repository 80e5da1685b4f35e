import CKFeedCurl
import KFeedBase

#if canImport(Glibc)
    import Glibc
#endif

/// Process-wide libcurl setup, done once: `curl_global_init` and ignoring `SIGPIPE`.
enum CurlGlobal {
    /// `nil` when setup succeeded, else libcurl's explanation. Computed once, on first use, by a lazy static.
    private static let failure: String? = {
        // A peer that closes its socket mid-write must not kill the process; libcurl is told not to use
        // signals itself (`CURLOPT_NOSIGNAL`), so the process ignores SIGPIPE once here.
        _ = signal(SIGPIPE, SIG_IGN)
        guard kfeed_curl_available() != 0 else {
            return "libcurl.so.4 cannot be loaded; install Debian's libcurl4 package"
        }
        let code = kfeed_curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        guard code != CURLE_OK else { return nil }
        return String(cString: kfeed_curl_easy_strerror(code))
    }()

    /// Initializes libcurl once for the process.
    /// - Throws: `KFeedError` with code `.transport` when libcurl cannot initialize.
    static func initialize() throws {
        if let failure {
            throw KFeedError(
                .transport,
                "libcurl could not initialize (\(failure)); check the libcurl installation",
                underlying: CurlError(operation: "curl_global_init", detail: failure)
            )
        }
    }
}

/// The raw libcurl failure behind a `KFeedError`: which call failed and libcurl's own text.
struct CurlError: Error, Sendable, CustomStringConvertible {
    /// The libcurl call or stage that failed, e.g. `curl_multi_add_handle` or `transfer`.
    var operation: String
    /// libcurl's explanation (`curl_easy_strerror`, `curl_multi_strerror` or the error buffer).
    var detail: String

    var description: String { "\(operation): \(detail)" }
}

import Glibc

/// Turns an abort inside the TOML library into kfeed's own error: toml++ 3.4.0 (under TOMLKit) checks some of its
/// parser's assumptions with `assert`, and a few malformed documents break them (a table header with no name, a
/// value missing inside an array; found by `scripts/fuzz.sh feeds-file`), so the library aborts instead of
/// reporting a syntax error. While `parse` runs, standard error is muted (the library's assertion text would be a
/// second line) and an abort prints `message` (one line, made beforehand) and exits 78, the code of a
/// configuration error. Nothing has been written yet when a feeds file is read, so nothing is lost.
enum TOMLAbortGuard {
    /// The line written and the descriptor it goes to, read by the signal handler (set before the handler is
    /// installed and cleared after it is removed, on the one thread that reads the feeds file).
    nonisolated(unsafe) private static var line: [UInt8] = []
    nonisolated(unsafe) private static var stderrCopy: Int32 = -1

    /// Runs `parse` with the guard on.
    static func run<T>(message: String, _ parse: () throws -> T) rethrows -> T {
        line = Array("kfeed: error: \(message)\n".utf8)
        stderrCopy = dup(STDERR_FILENO)
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        if null >= 0 {
            dup2(null, STDERR_FILENO)
            close(null)
        }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            TOMLAbortGuard.line.withUnsafeBytes { _ = write(TOMLAbortGuard.stderrCopy, $0.baseAddress, $0.count) }
            _exit(78)
        }
        var previous = sigaction()
        sigaction(SIGABRT, &action, &previous)
        defer {
            sigaction(SIGABRT, &previous, nil)
            if stderrCopy >= 0 {
                dup2(stderrCopy, STDERR_FILENO)
                close(stderrCopy)
            }
            stderrCopy = -1
        }
        return try parse()
    }
}

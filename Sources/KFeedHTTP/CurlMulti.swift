import CKFeedCurl
import Foundation
import KFeedBase

/// Owns one libcurl multi handle and the thread that drives it: many transfers in flight at once, sharing one
/// connection cache for the multi handle's life, each bridged to `async` with a continuation.
///
/// `@unchecked Sendable` because two kinds of state live here. The multi handle, the table of active transfers and
/// every libcurl call except `curl_multi_wakeup` belong to the driver thread alone. The queues of transfers to
/// start and cancel, and the stop flags, are shared with the tasks that call `perform`, and `lock` guards them.
/// `curl_multi_wakeup` is documented as callable from any thread; it is called under `lock` so that it never
/// races with `curl_multi_cleanup`.
final class CurlMulti: @unchecked Sendable {
    /// A transfer the driver thread is running: its easy handle and the task waiting for it.
    private struct Transfer {
        let easy: CurlEasy
        let continuation: CheckedContinuation<HTTPResponse, any Error>
    }

    /// The longest the driver sleeps in `curl_multi_poll` with nothing to do, in milliseconds. libcurl shortens
    /// it for its own timers, and `curl_multi_wakeup` ends it when work arrives.
    private static let idlePollMilliseconds: Int32 = 1_000

    private let handle: UnsafeMutableRawPointer

    // Guarded by `lock`.
    private let lock = NSLock()
    private var pendingStarts: [Transfer] = []
    private var pendingCancels: [CurlEasy] = []
    private var isStopping = false
    private var isClosed = false

    // Driver thread only.
    private var active: [UnsafeMutableRawPointer: Transfer] = [:]

    /// The most connections open at once, to all hosts.
    static let maxConnections = 64

    /// Creates the multi handle and starts its driver thread.
    /// - Throws: `KFeedError` with code `.transport` when libcurl cannot initialize.
    init() throws {
        try CurlGlobal.initialize()
        guard let handle = kfeed_curl_multi_init() else {
            throw KFeedError(
                .transport,
                "libcurl could not create its transfer driver; the process may be out of memory"
            )
        }
        self.handle = handle
        // A refresh starts every download at once: HTTP/2 streams share one connection per host (pbs.twimg.com
        // answers in HTTP/2), HTTP/1.1 hosts get a connection per transfer up to the cap, past which libcurl queues.
        _ = kfeed_curl_multi_setopt_long(handle, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        _ = kfeed_curl_multi_setopt_long(handle, CURLMOPT_MAX_TOTAL_CONNECTIONS, Self.maxConnections)
        // The thread holds `self` until `stop()` lets it end; `CurlTransport.deinit` calls `stop()`.
        let thread = Thread { [self] in drive() }
        thread.name = "kfeed.curl"
        thread.start()
    }

    /// Runs `easy` to completion on the driver thread and returns its response.
    /// - Throws: `CancellationError` when the task is cancelled, else `KFeedError` with code `.transport`.
    func perform(_ easy: CurlEasy) async throws -> HTTPResponse {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                start(Transfer(easy: easy, continuation: continuation))
            }
        } onCancel: {
            cancel(easy)
        }
    }

    /// Lets the driver thread finish: it fails whatever is still queued or running, then frees the multi handle.
    func stop() {
        lock.withLock {
            isStopping = true
            wakeDriver()
        }
    }

    private func start(_ transfer: Transfer) {
        let accepted = lock.withLock {
            guard !isStopping else { return false }
            pendingStarts.append(transfer)
            wakeDriver()
            return true
        }
        if !accepted {
            transfer.continuation.resume(throwing: Self.stoppedError(transfer.easy))
        }
    }

    private func cancel(_ easy: CurlEasy) {
        easy.cancel()
        lock.withLock {
            pendingCancels.append(easy)
            wakeDriver()
        }
    }

    /// Interrupts `curl_multi_poll`. Call with `lock` held.
    private func wakeDriver() {
        guard !isClosed else { return }
        // A failed wakeup only delays the driver until its poll times out (at most `idlePollMilliseconds`), so
        // there is nothing better to do with the code than ignore it.
        _ = kfeed_curl_multi_wakeup(handle)
    }

    // MARK: - Driver thread

    private func drive() {
        while true {
            let (starts, cancels, stopping) = lock.withLock {
                defer {
                    pendingStarts.removeAll()
                    pendingCancels.removeAll()
                }
                return (pendingStarts, pendingCancels, isStopping)
            }
            for transfer in starts { add(transfer) }
            for easy in cancels { abort(easy) }
            if stopping { break }

            var running: Int32 = 0
            let performCode = kfeed_curl_multi_perform(handle, &running)
            if performCode != CURLM_OK {
                failAll(with: performCode, operation: "curl_multi_perform")
            }
            collectFinished()
            let pollCode = kfeed_curl_multi_poll(handle, nil, 0, Self.idlePollMilliseconds, nil)
            if pollCode != CURLM_OK {
                failAll(with: pollCode, operation: "curl_multi_poll")
                Thread.sleep(forTimeInterval: 0.01)  // don't spin if polling keeps failing
            }
        }
        let leftovers = lock.withLock {
            isClosed = true
            defer { pendingStarts.removeAll() }
            return pendingStarts
        }
        for transfer in leftovers {
            transfer.continuation.resume(throwing: Self.stoppedError(transfer.easy))
        }
        for (easyHandle, transfer) in active {
            _ = kfeed_curl_multi_remove_handle(handle, easyHandle)  // the multi handle is going away either way
            transfer.continuation.resume(throwing: Self.stoppedError(transfer.easy))
        }
        active.removeAll()
        _ = kfeed_curl_multi_cleanup(handle)  // nothing is attached any more; a failure here has no one to report to
    }

    private func add(_ transfer: Transfer) {
        if transfer.easy.isCancelled {
            transfer.continuation.resume(throwing: CancellationError())
            return
        }
        let code = kfeed_curl_multi_add_handle(handle, transfer.easy.handle)
        guard code == CURLM_OK else {
            transfer.continuation.resume(
                throwing: Self.multiError(code, operation: "curl_multi_add_handle", easy: transfer.easy)
            )
            return
        }
        active[transfer.easy.handle] = transfer
    }

    private func abort(_ easy: CurlEasy) {
        guard let transfer = active.removeValue(forKey: easy.handle) else { return }  // finished or never started
        _ = kfeed_curl_multi_remove_handle(handle, easy.handle)  // the transfer is abandoned whatever this returns
        transfer.continuation.resume(throwing: CancellationError())
    }

    private func collectFinished() {
        var remaining: Int32 = 0
        while let message = kfeed_curl_multi_info_read(handle, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easyHandle = message.pointee.easy_handle else { continue }
            let result = message.pointee.data.result  // read before removing: that frees the message
            guard let transfer = active.removeValue(forKey: easyHandle) else { continue }
            let removeCode = kfeed_curl_multi_remove_handle(handle, easyHandle)
            guard removeCode == CURLM_OK else {
                transfer.continuation.resume(
                    throwing: Self.multiError(removeCode, operation: "curl_multi_remove_handle", easy: transfer.easy)
                )
                continue
            }
            transfer.continuation.resume(with: transfer.easy.result(of: result))
        }
    }

    private func failAll(with code: CURLMcode, operation: String) {
        for (easyHandle, transfer) in active {
            // Already failing: the first error is the one to report.
            _ = kfeed_curl_multi_remove_handle(handle, easyHandle)
            transfer.continuation.resume(throwing: Self.multiError(code, operation: operation, easy: transfer.easy))
        }
        active.removeAll()
    }

    private static func multiError(_ code: CURLMcode, operation: String, easy: CurlEasy) -> KFeedError {
        let text = String(cString: kfeed_curl_multi_strerror(code))
        return KFeedError(
            .transport,
            "libcurl's transfer driver failed while fetching \(easy.hostDescription) (\(operation): \(text)); retry later",
            underlying: CurlError(operation: operation, detail: text)
        )
    }

    private static func stoppedError(_ easy: CurlEasy) -> KFeedError {
        KFeedError(
            .transport,
            "the HTTP transport shut down before fetching \(easy.hostDescription); keep the CurlTransport alive while it sends"
        )
    }
}

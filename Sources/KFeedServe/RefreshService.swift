import ServiceLifecycle

/// `--refresh`: calls the refresh at start and then on a timer until shutdown (the refresh itself decides whether
/// one is due and logs its failures; the last good timeline keeps being served).
struct RefreshService: Service {
    let refresh: @Sendable () async -> Void
    let interval: Duration
    /// The clock the timer runs on (``ServeConfiguration/clock``).
    let clock: any Clock<Duration>

    func run() async throws {
        try await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await refresh()
                try await clock.sleep(for: interval)
            }
        }
    }
}

/// The time passed on a clock since the stopwatch was made: the server's clock (``ServeConfiguration/clock``), so
/// that tests move it by hand.
struct Stopwatch: Sendable {
    private let elapsed: @Sendable () -> Duration

    /// Starts now on `clock`.
    init<C: Clock<Duration>>(_ clock: C) {
        let start = clock.now
        elapsed = { start.duration(to: clock.now) }
    }

    /// The time passed since the stopwatch started.
    func callAsFunction() -> Duration {
        elapsed()
    }

    /// The time passed, in milliseconds.
    var milliseconds: Double {
        let parts = elapsed().components
        return Double(parts.seconds) * 1e3 + Double(parts.attoseconds) / 1e15
    }
}

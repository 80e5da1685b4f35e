import Foundation

/// A value behind a lock. `@unchecked Sendable`: every access goes through `lock`.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Wraps `value`.
    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value while holding the lock.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

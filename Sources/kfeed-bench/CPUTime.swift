import Foundation

/// The calling thread's CPU time in milliseconds: what the benchmarks time work by, not the wall (the machine is
/// shared).
func threadCPUMilliseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) / 1e6
}

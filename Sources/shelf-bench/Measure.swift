import Foundation

/// Clocks, CPU time, memory and medians.
enum Measure {
    /// Wall time of `body`.
    static func time<T>(_ body: () throws -> T) rethrows -> (T, Duration) {
        let start = ContinuousClock.now
        let result = try body()
        return (result, ContinuousClock.now - start)
    }

    /// User + system CPU time of the whole process so far (getrusage RUSAGE_SELF).
    static func cpuTime() -> Duration {
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        let seconds = Int64(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        let microseconds = Int64(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
        return .seconds(seconds) + .microseconds(microseconds)
    }

    /// Sleeps until `deadline` on the continuous clock, costing no CPU.
    static func sleep(until deadline: ContinuousClock.Instant) {
        let left = deadline - .now
        if left > .zero { Thread.sleep(forTimeInterval: left.seconds) }
    }

    static func sleep(_ duration: Duration) { sleep(until: .now + duration) }

    // MARK: Memory

    /// Returns freed memory to the system and restarts the peak (VmHWM) from the current RSS,
    /// so the next `peakMemory` belongs to what ran since. False when the kernel refused.
    @discardableResult
    static func resetPeakMemory() -> Bool {
        // malloc_trim is glibc's and not in the Glibc module: looked up at run time.
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
            typealias MallocTrim = @convention(c) (Int) -> Int32
            _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        }
        let fd = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return write(fd, "5", 1) == 1
    }

    /// Peak resident memory: VmHWM from /proc/self/status (reset by `resetPeakMemory`), or
    /// getrusage's ru_maxrss (the whole process's) when /proc is not there. In bytes.
    static func peakMemory() -> Int {
        if let kilobytes = procStatus("VmHWM") { return kilobytes * 1024 }
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss * 1024
    }

    /// Resident memory now (VmRSS), in bytes.
    static func currentMemory() -> Int? { procStatus("VmRSS").map { $0 * 1024 } }

    private static func procStatus(_ field: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
        }
        return nil
    }

    // MARK: Statistics

    /// The median (the mean of the two middle values for an even count).
    static func median(_ values: [Duration]) -> Duration {
        precondition(!values.isEmpty, "median of nothing")
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The value below which `fraction` of the values fall (nearest rank).
    static func percentile(_ values: [Duration], _ fraction: Double) -> Duration {
        let sorted = values.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }
}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

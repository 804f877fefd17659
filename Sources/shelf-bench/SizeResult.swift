/// The figures for one collection size.
struct SizeResult {
    enum Writing {
        /// All N written one by one with `setData(from:)`: the total is measured.
        case durable
        /// N − sample seeded in bulk (`seeding` long), then `sample` durable writes measured;
        /// the total is extrapolated from them.
        case sampled(sample: Int, seeding: Duration)
    }

    /// CPU time spent over a stretch of wall time with nothing changing.
    struct Idle {
        var cpu: Duration
        var wall: Duration
        /// Share of one core.
        var share: Double { cpu.seconds / wall.seconds }
    }

    var size: Int
    var writing: Writing = .durable
    /// Measured, or for `.sampled` extrapolated.
    var writeAll: Duration = .zero
    var writes: [Duration] = []
    var oneMore: [Duration] = []
    var reads: [Duration] = []
    var decode: Duration = .zero
    var firstSnapshots: [Duration] = []
    var baseline = Idle(cpu: .zero, wall: .seconds(1))
    var firstMinute = Idle(cpu: .zero, wall: .seconds(1))
    var steady = Idle(cpu: .zero, wall: .seconds(1))
    var created: [Duration] = []
    var replaced: [Duration] = []
    var deleted: [Duration] = []
    /// Process CPU time per create, replace or delete trial, beyond steady idle polling.
    var cpuPerChange: Duration = .zero
    var editedInPlace: [Duration] = []
    /// Deliveries that did not come before the trial's timeout, per kind.
    var missed: [String: Int] = [:]
    /// The longest an in-place edit can wait for the sweep: `SizeRun.sweepTicks(N)` ticks.
    var sweepWorst: Duration = .zero
    var memoryWithListener: Int?
    var peakMemory = 0
}

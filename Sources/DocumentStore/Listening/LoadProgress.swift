import Dispatch

/// Paces progress reports during a long first read: at most one every 50 ms.
struct LoadProgress {
    static let worthReporting = 2_000
    let total: Int
    private var read = 0
    private var lastReport = DispatchTime.now()

    init(total: Int) { self.total = total }

    mutating func advance(_ report: (Int, Int) -> Void) {
        read += 1
        guard read % 256 == 0 else { return }
        let now = DispatchTime.now()
        if now.uptimeNanoseconds - lastReport.uptimeNanoseconds >= 50_000_000 {
            lastReport = now
            report(read, total)
        }
    }
}

import Foundation

/// With `SHELF_TIMINGS=<file>`, the app appends what the UI benchmark measures: when each key
/// reached the app and when the frame showing its effect was drawn, and when each collection
/// finished loading. Times are CLOCK_MONOTONIC seconds, so the benchmark can relate them to
/// its own clock. Off (and free) unless asked for.
struct TimingLog {
    private let file: FileHandle

    init?(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let path = environment["SHELF_TIMINGS"], !path.isEmpty,
              FileManager.default.createFile(atPath: path, contents: nil),
              let file = FileHandle(forWritingAtPath: path) else { return nil }
        self.file = file
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    func log(_ fields: String...) {
        file.write(Data((fields.joined(separator: " ") + "\n").utf8))
    }
}

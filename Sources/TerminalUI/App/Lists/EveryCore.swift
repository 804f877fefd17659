import Foundation

/// Work on a large list's rows spread over every core: in chunks, four a core so the cores
/// share it evenly, each chunk writing only its own part of the answer.
enum EveryCore {
    /// `transform` of each of `0..<count`, in order: on the calling thread below `past`, else
    /// on every core. `transform` runs on several threads at once, so it may only read what
    /// nothing changes meanwhile (the rows' stored snapshots, the texts made from them), and it
    /// is `@Sendable` so that the compiler refuses one isolated to the main actor, which the
    /// runtime would trap on another core (issue 51: a filter typed while books loaded).
    static func map<T>(count: Int, past: Int, _ transform: @Sendable (Int) -> T) -> [T] {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        guard count >= past && cores > 1 else { return (0..<count).map(transform) }
        let chunks = cores * 4, chunkSize = (count + chunks - 1) / chunks
        return withoutActuallyEscaping(transform) { transform in
            let work = Work(transform: transform)
            return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
                let slots = Slots(base: buffer.baseAddress!)
                DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                    for index in min(chunk * chunkSize, count)..<min((chunk + 1) * chunkSize, count) {
                        (slots.base + index).initialize(to: work.transform(index))
                    }
                }
                initialized = count
            }
        }
    }

    /// `transform` of runs of `0..<count` that together cover it, in order: one run on the
    /// calling thread below `past`, else four a core, each run on one core, for work that
    /// gathers a run's results in one place (a run's search texts in blocks of their own).
    static func runs<T>(count: Int, past: Int, _ transform: @Sendable (Range<Int>) -> T) -> [T] {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        guard count >= past && cores > 1 else { return count == 0 ? [] : [transform(0..<count)] }
        let chunks = cores * 4, chunkSize = (count + chunks - 1) / chunks
        let starts = Array(stride(from: 0, to: count, by: chunkSize))
        return map(count: starts.count, past: 0) { transform(starts[$0]..<min(starts[$0] + chunkSize, count)) }
    }

    /// Each chunk's values, written at its own indices only.
    private struct Slots<T>: @unchecked Sendable {
        let base: UnsafeMutablePointer<T>
    }

    /// The transform, called from every core (see `map`).
    private struct Work<T>: @unchecked Sendable {
        let transform: @Sendable (Int) -> T
    }
}

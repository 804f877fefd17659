import Foundation

/// The threads that read and parse document files, one a core, the same ones read after read.
///
/// glibc's malloc gives each thread an arena of its own and keeps what is freed there for that
/// arena's next allocations. Read on whichever of Dispatch's threads were free, the documents
/// of each read came from other arenas, and each arena kept a read's worth of freed memory:
/// 100,000 documents read a few times took 280 MB of resident memory for 90 MB of live data.
/// Read here, they come from the same few arenas each time.
final class ReaderThreads: @unchecked Sendable {
    static let shared = ReaderThreads(count: ProcessInfo.processInfo.activeProcessorCount)

    private let count: Int
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var jobs: [(run: @Sendable () -> Void, done: DispatchGroup)] = []
    private static let mark = "DocumentStore.ReaderThreads"

    private init(count: Int) {
        self.count = max(count, 1)
        for _ in 0..<self.count {
            let thread = Thread { [unowned self] in self.work() }
            thread.threadDictionary[Self.mark] = true
            thread.start()
        }
    }

    private func work() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.run()
            job.done.leave()
        }
    }

    /// Calls `body` once with each of `0..<iterations` on these threads, concurrently, and
    /// returns when every call has. One iteration, or a call on one of these threads, runs on
    /// the calling thread. Each thread working on them makes one `State` (`makeState`) and
    /// hands it to each of its calls in turn: what a parser learns from one file serves it
    /// for the rest.
    func perform<State>(iterations: Int, state makeState: @escaping @Sendable () -> State,
                        _ body: @escaping @Sendable (Int, inout State) -> Void) {
        if iterations <= 1 || Thread.current.threadDictionary[Self.mark] != nil {
            var state = makeState()
            for index in 0..<iterations { body(index, &state) }
            return
        }
        let next = Locked(0)
        let run: @Sendable () -> Void = {
            var state = makeState()
            while true {
                let index = next.withLock { index in
                    defer { index += 1 }
                    return index
                }
                guard index < iterations else { return }
                body(index, &state)
            }
        }
        let done = DispatchGroup()
        condition.lock()
        for _ in 0..<min(iterations, count) {
            done.enter()
            jobs.append((run, done))
        }
        condition.broadcast()
        condition.unlock()
        done.wait()
    }
}

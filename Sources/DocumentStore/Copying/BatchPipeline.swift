import Dispatch

/// Batches made one ahead: while the caller writes one batch, the next is made on another
/// thread, so making documents (building, encoding, reading their times, preparing the commit:
/// `WriteBatch.prepare`) and the kernel's work of writing files share the two cores instead of
/// taking turns (`shelf generate`, `export`).
package enum BatchPipeline {
    /// Calls `write` with `make(0)`, `make(1)`, …, in order, until `make` returns nil, each
    /// next batch made while the one before is written. The first error of either ends it (a
    /// batch being made meanwhile is dropped once made).
    package static func run<Batch: Sendable>(make: @escaping @Sendable (Int) throws -> Batch?,
                                     write: (Batch, Int) throws -> Void) throws {
        var next = Making(index: 0, make)
        var index = 0
        while let batch = try next.result() {
            next = Making(index: index + 1, make)
            try write(batch, index)
            index += 1
        }
    }

    /// One batch being made on a global queue.
    private final class Making<Batch: Sendable>: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        /// Set once, by the maker, before `done` is signalled; read only after waiting for it.
        private var made: Result<Batch?, any Error>?

        init(index: Int, _ make: @escaping @Sendable (Int) throws -> Batch?) {
            DispatchQueue.global(qos: .userInitiated).async {
                self.made = Result { try make(index) }
                self.done.signal()
            }
        }

        func result() throws -> Batch? {
            done.wait()
            return try made!.get()
        }
    }
}

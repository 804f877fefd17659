import Foundation

/// A read its caller may give up on: the async reads (`getDocuments()`, `getAggregation`) make
/// one for their work off the caller's thread and cancel it when their task is cancelled (a
/// list's window replaced by the next key of a filter). A database server stops the query it
/// runs for it (`whileRunning(onCancel:)`), so the server's cores go to the reads still wanted.
package final class ReadCancellation: @unchecked Sendable {
    private let lock = NSLock()
    private var isCancelled = false                      // under `lock`
    private var handlers: [Int: @Sendable () -> Void] = [:]  // under `lock`
    private var nextID = 0                               // under `lock`

    init() {}

    /// The cancellation of the read the calling thread does, if it can be given up on.
    package static var current: ReadCancellation? { Thread.current.threadDictionary[threadKey] as? ReadCancellation }
    private static let threadKey = "DocumentStore.ReadCancellation"

    /// Runs `work` as a read that this cancels.
    func reading<T>(_ work: () throws -> T) rethrows -> T {
        Thread.current.threadDictionary[Self.threadKey] = self
        defer { Thread.current.threadDictionary[Self.threadKey] = nil }
        return try work()
    }

    /// Gives up on the read: the handlers registered run, off the calling thread (a task is
    /// often cancelled from the main thread).
    func cancel() {
        let handlers = lock.withLock {
            isCancelled = true
            defer { self.handlers = [:] }
            return Array(self.handlers.values)
        }
        for handler in handlers { DispatchQueue.global().async(execute: handler) }
    }

    /// Runs `body`; a cancel while it runs calls `stop` (on another thread), and `stop` never
    /// runs once `body` has returned, nor is `body` left before a `stop` under way ends: a
    /// server's connection goes back to its pool only when no cancel can reach it any more.
    package func whileRunning<T>(onCancel stop: @escaping @Sendable () -> Void, _ body: () throws -> T) rethrows -> T {
        let running = Locked(true)
        let handler: @Sendable () -> Void = { running.withLock { if $0 { stop() } } }
        let id: Int? = lock.withLock {
            guard !isCancelled else { return nil }
            nextID += 1
            handlers[nextID] = handler
            return nextID
        }
        if id == nil { DispatchQueue.global().async(execute: handler) }
        defer {
            running.withLock { $0 = false }
            if let id { lock.withLock { _ = handlers.removeValue(forKey: id) } }
        }
        return try body()
    }
}

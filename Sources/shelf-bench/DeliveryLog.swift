import DocumentStore
import Foundation

/// What one collection listener delivered, and when: the benchmark's thread waits on it while
/// the callbacks arrive on the store's callback queue.
final class DeliveryLog: @unchecked Sendable {
    struct Key: Hashable {
        var id: String
        var type: DocumentChangeType
    }

    private let condition = NSCondition()
    private var first: (count: Int, at: ContinuousClock.Instant)?
    private var changes: [Key: ContinuousClock.Instant] = [:]
    private var errors: [String] = []

    /// The listener's callback.
    func record(_ snapshot: QuerySnapshot?, _ error: Error?) {
        let now = ContinuousClock.now
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        if let error { errors.append("\(error)"); return }
        guard let snapshot else { return }
        guard first != nil else {
            first = (snapshot.count, now)
            return
        }
        for change in snapshot.documentChanges {
            let key = Key(id: change.document.documentID, type: change.type)
            if changes[key] == nil { changes[key] = now }
        }
    }

    /// The first snapshot's size and arrival, waiting up to `timeout` for it.
    func waitForFirstSnapshot(timeout: Duration) -> (count: Int, at: ContinuousClock.Instant)? {
        wait(timeout) { $0.first }
    }

    /// When the change of `type` to document `id` was delivered, waiting up to `timeout`.
    func waitFor(_ type: DocumentChangeType, of id: String, timeout: Duration) -> ContinuousClock.Instant? {
        wait(timeout) { $0.changes[Key(id: id, type: type)] }
    }

    /// Everything delivered after the first snapshot, and the errors.
    var deliveredChanges: Int { condition.withLock { changes.count } }
    var deliveredErrors: [String] { condition.withLock { errors } }

    private func wait<T>(_ timeout: Duration, _ found: (DeliveryLog) -> T?) -> T? {
        let deadline = Date().addingTimeInterval(timeout.seconds)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let value = found(self) { return value }
            if !condition.wait(until: deadline) { return found(self) }
        }
    }
}

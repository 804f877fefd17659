import Foundation

/// Keeps this store's threads from opening folders while the kernel adds an inotify watch.
///
/// Adding a watch to a folder marks every name of it the kernel holds in memory, with the
/// folder's own entry locked: 80 ms for a million names. Opening that folder (or a file in
/// it) meanwhile spins on that lock with preemption off, so on two cores a read of one
/// document's times and the watch took both, and the app's first rows waited 60 ms for a
/// core. Opens wait here instead, asleep.
final class FolderWatchGate: Sendable {
    private let condition = NSCondition()
    /// Watches being added; guarded by `condition`.
    private nonisolated(unsafe) var adding = 0
    /// How many watches were added through the gate, so tests can check listeners use it.
    let watchesAdded = Locked(0)
    /// How many opens found a watch being added and waited, so tests can wait for one.
    let opensHeld = Locked(0)

    /// Runs `body`, which adds a watch, with folder opens held back.
    func addingWatch<T>(_ body: () -> T) -> T {
        condition.lock()
        adding += 1
        condition.unlock()
        watchesAdded.withLock { $0 += 1 }
        defer {
            condition.lock()
            adding -= 1
            if adding == 0 { condition.broadcast() }
            condition.unlock()
        }
        return body()
    }

    /// Returns once no watch is being added.
    func waitToOpen() {
        condition.lock()
        if adding > 0 { opensHeld.withLock { $0 += 1 } }
        while adding > 0 { condition.wait() }
        condition.unlock()
    }
}

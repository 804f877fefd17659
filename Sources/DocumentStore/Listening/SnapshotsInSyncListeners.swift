import Foundation

/// Firebase's snapshots-in-sync listeners: each is called once when added, then after every
/// round in which a watcher delivered changes, behind those snapshots on the callback queue
/// (so, on a serial queue, once the listeners that change concerned have fired).
final class SnapshotsInSyncListeners: Sendable {
    private let registrations = Locked<[Registration]>([])

    final class Registration: ListenerRegistration, @unchecked Sendable {
        private weak var owner: SnapshotsInSyncListeners?
        private let listener: Callback<() -> Void>
        private let removed = Locked(false)

        fileprivate init(owner: SnapshotsInSyncListeners, listener: @escaping () -> Void) {
            self.owner = owner
            self.listener = Callback(listener)
        }

        func remove() {
            removed.withLock { $0 = true }
            owner?.registrations.withLock { $0.removeAll { $0 === self } }
        }

        fileprivate func raise(on queue: DispatchQueue) {
            queue.async { [self] in
                guard !removed.withLock({ $0 }) else { return }
                listener.function()
            }
        }
    }

    func add(_ listener: @escaping () -> Void, raisingOn queue: DispatchQueue) -> ListenerRegistration {
        let registration = Registration(owner: self, listener: listener)
        registrations.withLock { $0.append(registration) }
        registration.raise(on: queue)
        return registration
    }

    func raise(on queue: DispatchQueue) {
        for registration in registrations.withLock({ $0 }) { registration.raise(on: queue) }
    }
}

extension Firestore {
    /// Calls `listener` now and after each round of snapshots delivered to this store's
    /// listeners, as Firebase's snapshots-in-sync event.
    @discardableResult
    public func addSnapshotsInSyncListener(_ listener: @escaping () -> Void) -> ListenerRegistration {
        snapshotsInSync.add(listener, raisingOn: callbackQueue)
    }
}

import Foundation

/// Polls one collection or document on a timer and feeds every subscription to it. Shared:
/// several listeners on the same path cost one poll.
package class Watcher: @unchecked Sendable {
    let key: Firestore.WatchKey
    weak var firestore: Firestore?
    let backend: StorageBackend
    /// Serial: all polling state is touched only here.
    let queue: DispatchQueue
    /// Guarded by the store's lock.
    var subscribers: [Subscription] = []
    private var timer: DispatchSourceTimer?
    private var hasScanned = false
    private var lastError: String?

    init(firestore: Firestore, key: Firestore.WatchKey) {
        self.firestore = firestore
        self.backend = firestore.backend
        self.key = key
        queue = DispatchQueue(label: "DocumentStore.watcher")
    }

    /// Called under the store's lock.
    func start(interval: TimeInterval) {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let nanoseconds = Int(interval * 1e9)
        timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds),
                       leeway: .nanoseconds(nanoseconds / 10))
        timer.setEventHandler { [weak self] in self?.tick() }
        timer.resume()
        self.timer = timer
    }

    /// Called under the store's lock; no tick starts after this.
    func stop() {
        timer?.cancel()
        timer = nil
        queue.async { self.release() }  // a removed registration may outlive us: free what we hold now
    }

    var isPolling: Bool { timer != nil }

    /// Looks now, instead of at the next tick.
    func poll() { queue.async { self.tick() } }

    /// The store wrote these documents (some of which this watcher may follow): look now.
    func wrote(_ paths: [ResourcePath]) { poll() }

    func deliverFirstSnapshot(to subscription: Subscription) {
        queue.async {
            if !self.hasScanned {
                self.tick()
            } else {
                self.send(to: subscription, changed: nil)
            }
        }
    }

    private func tick() {
        try? look()
    }

    /// The documents as they are now, for a one-off query read while this watcher runs: one
    /// look first (delivering what changed to the listeners too), so a write that returned
    /// before the read is in the answer.
    func freshDocuments() throws -> [QueryDocumentSnapshot] {
        try fresh { currentDocuments }
    }

    /// `body` on the watcher's queue, after one look.
    func fresh<T>(_ body: () -> T) throws -> T {
        try queue.sync {
            try look()
            return body()
        }
    }

    /// Scans, then sends each listener what changed; a failing scan is reported to the
    /// listeners once per distinct problem (polling goes on so a fix is seen) and rethrown.
    private func look() throws {
        let changed: Set<ExactID>
        do {
            changed = try backend.consistently { try scan() }  // never half a batch (see CommitJournal)
            lastError = nil
        } catch {
            let message = "\(error)"
            if message != lastError {
                lastError = message
                for subscription in firestore?.subscribers(of: self) ?? [] { subscription.deliver(error: publicError(error)) }
            }
            throw error
        }
        let isFirst = !hasScanned
        hasScanned = true
        var sent = false
        for subscription in firestore?.subscribers(of: self) ?? [] {
            if isFirst || !hasDelivered(to: subscription) {
                send(to: subscription, changed: nil)
                sent = true
            } else if !changed.isEmpty {
                send(to: subscription, changed: changed)
                sent = true
            }
        }
        if sent, let firestore { firestore.snapshotsInSync.raise(on: firestore.callbackQueue) }
    }

    // MARK: For subclasses

    /// A first read of this many documents reports its progress (`LoadProgress`).
    static let worthReporting = 2_000

    /// Tells the listeners still waiting for their first snapshot how far the reading is, with
    /// the documents just read.
    func reportProgress(read: Int, total: Int?, documents: [QueryDocumentSnapshot]) {
        for subscription in awaitingFirstSnapshot { subscription.deliver(progress: read, of: total, read: documents) }
    }

    /// The query listeners that have not had their first snapshot yet.
    var awaitingFirstSnapshot: [QuerySubscription] {
        (firestore?.subscribers(of: self) ?? []).compactMap { $0 as? QuerySubscription }.filter { !$0.hasDelivered }
    }

    /// The folder backend's files, for the folder's watchers (which only it makes).
    var files: DocumentFiles { (backend as! FolderBackend).files }

    /// Looks at the files; returns the ids of the documents that changed, by their bytes.
    func scan() throws -> Set<ExactID> { [] }
    func hasDelivered(to subscription: Subscription) -> Bool { true }
    /// Frees what polling holds besides memory (the kernel's event queue), on the queue.
    func release() {}
    func send(to subscription: Subscription, changed: Set<ExactID>?) {}
    /// Every document the watcher holds (collection and group watchers).
    var currentDocuments: [QueryDocumentSnapshot] { [] }
}

import Foundation

/// Follows one collection, collection group, document or query for all its listeners: the one
/// place that holds the documents (`WatchedDocuments`), tells what changed and delivers it, so
/// every backend's listeners get the same snapshots and changes. What changed comes from the
/// backend's `ChangeSource`, looked at on a timer or when the source wakes the watcher.
/// Shared: several listeners on the same key cost one watcher.
package final class Watcher: @unchecked Sendable {
    let key: Firestore.WatchKey
    package weak var firestore: Firestore?
    let backend: StorageBackend
    /// Touched only on `queue`, but for `start` and `stop`.
    let source: ChangeSource
    /// Serial: the documents and the source's state are touched only here.
    let queue: DispatchQueue
    /// Guarded by the store's lock.
    var subscribers: [Subscription] = []
    let documents = WatchedDocuments()
    /// The documents laid out for one-off queries, once one has asked (see `DocumentTable`).
    private var queryTable: DocumentTable?
    private var timer: DispatchSourceTimer?
    private(set) var hasLooked = false
    /// How many looks were made, found something or not: a test waits for a number of them
    /// to show that ticks deliver nothing, rather than for a time.
    let looks = Locked(0)
    private var lastError: String?
    /// The keys of the documents this store is committing now, with how many commits write
    /// each (see `Watcher+LocalCommits`).
    let committing = Locked<[ExactID: Int]>([:])
    /// For each such key, what the listeners were shown of it meanwhile and what they held
    /// before (watcher's queue only).
    var shownWhileCommitting: [ExactID: [StoredDocument]] = [:]

    init(firestore: Firestore, key: Firestore.WatchKey, source: ChangeSource) {
        self.firestore = firestore
        self.backend = firestore.backend
        self.key = key
        self.source = source
        queue = DispatchQueue(label: "DocumentStore.watcher")
    }

    /// Called under the store's lock.
    func start(interval: TimeInterval) {
        source.start { [weak self] in self?.poll() }
        guard source.looksOnTimer else { return }
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
        source.stop()
        timer?.cancel()
        timer = nil
        queue.async {  // a removed registration may outlive us: free what we hold now
            self.queryTable = nil
            self.source.release()
        }
    }

    /// Looks now, instead of at the next tick.
    func poll() { queue.async { self.tick() } }

    /// The store wrote these documents (some of which this watcher may follow) and shows no
    /// pending write of them here (see `committed`): look now.
    func wrote(_ written: [WrittenDocument]) {
        source.wrote(written)
        poll()
    }

    func deliverFirstSnapshot(to subscription: Subscription) {
        queue.async {
            // Changes a failed look left waiting would be news to the others and not to it.
            guard !self.hasLooked || self.documents.hasChanges else { return self.deliver(to: subscription, changed: nil) }
            let toldBefore = self.lastError
            do {
                try self.look()
            } catch {
                // The others were told of this problem before: this one was not.
                if "\(error)" == toldBefore { subscription.deliver(error: publicError(error)) }
            }
        }
    }

    private func tick() {
        try? look()
    }

    /// Every document the watcher holds (collection, group and query watchers).
    var currentDocuments: [QueryDocumentSnapshot] { documents.all }

    /// The documents as they are now, for a one-off query read while this watcher runs: one
    /// look first (delivering what changed to the listeners too), so a write that returned
    /// before the read is in the answer.
    func freshDocuments() throws -> [QueryDocumentSnapshot] {
        try fresh { currentDocuments }
    }

    /// A one-off query's results from a collection watcher's memory, after one look.
    func freshResults(_ evaluator: QueryEvaluator) throws -> [QueryDocumentSnapshot] {
        try fresh {
            if queryTable == nil { queryTable = DocumentTable(documents.all) }
            return queryTable!.results(evaluator)
        }
    }

    /// `body` on the watcher's queue, after one look.
    func fresh<T>(_ body: () -> T) throws -> T {
        try queue.sync {
            try look()
            return body()
        }
    }

    /// Has the source look, then sends each listener what changed; a failing look is reported
    /// to the listeners once per distinct problem (looking goes on so a fix is seen) and
    /// rethrown. What a failing look changed is sent after the next one.
    func look() throws {
        defer { looks.withLock { $0 += 1 } }
        do {
            try backend.consistently { try source.look(into: documents, for: self) }  // never half a batch (see CommitJournal)
            lastError = nil
        } catch {
            let message = "\(error)"
            if message != lastError {
                lastError = message
                for subscription in firestore?.watchers.subscribers(of: self) ?? [] { subscription.deliver(error: publicError(error)) }
            }
            throw error
        }
        deliverChanges()
    }

    /// Sends each listener what changed since it was last told: its first snapshot, every
    /// document, to a new one.
    func deliverChanges() {
        let changed = documents.takeChanged()
        queryTable?.apply(changed.keys, from: documents)
        let isFirst = !hasLooked
        hasLooked = true
        if isFirst { holdBackWhatIsBeingCommitted() }
        var sent = false
        for subscription in firestore?.watchers.subscribers(of: self) ?? [] {
            if isFirst || !subscription.hasDelivered {
                deliver(to: subscription, changed: nil)
                sent = true
            } else if !changed.isEmpty {
                deliver(to: subscription, changed: changed)
                sent = true
            }
        }
        if sent, let firestore { firestore.snapshotsInSync.raise(on: firestore.callbackQueue) }
    }

    /// `changed`: what changed since the last delivery; nil: look at everything.
    private func deliver(to subscription: Subscription, changed: WatchedDocuments.Changes?) {
        guard source.isConsistent else { return }  // no snapshot before the source's first consistent state
        subscription.update(documents, changed: changed)
    }

    // MARK: For change sources

    /// A first read of this many documents reports its progress (`LoadProgress`).
    package static let worthReporting = 2_000

    /// True while a listener waits for its first snapshot.
    package var isAwaitingFirstSnapshot: Bool {
        (firestore?.watchers.subscribers(of: self) ?? []).contains { !$0.hasDelivered }
    }

    /// Tells the listeners still waiting for their first snapshot how far the reading is, with
    /// the documents just read.
    package func reportProgress(read: Int, total: Int?, documents: [QueryDocumentSnapshot]) {
        for subscription in firestore?.watchers.subscribers(of: self) ?? [] where !subscription.hasDelivered {
            subscription.deliver(progress: read, of: total, read: documents)
        }
    }
}

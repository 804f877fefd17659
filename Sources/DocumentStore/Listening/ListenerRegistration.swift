import Foundation

/// Returned by `addSnapshotListener`; `remove()` stops the listener for good.
public protocol ListenerRegistration: AnyObject, Sendable {
    /// After this returns, the listener's callback is not called again. Calling it twice is harmless.
    func remove()
}

/// One listener: where its callbacks run, and whether it was removed.
class Subscription: ListenerRegistration, @unchecked Sendable {
    let firestore: Firestore
    let callbackQueue: DispatchQueue
    /// Set by `WatcherRegistry.subscribe`, under its lock.
    var watcher: Watcher?
    private let removed = Locked(false)

    init(firestore: Firestore) {
        self.firestore = firestore
        callbackQueue = firestore.callbackQueue
    }

    func remove() {
        let wasRemoved = removed.withLock { removed -> Bool in
            defer { removed = true }
            return removed
        }
        if !wasRemoved { firestore.watchers.remove(self) }
    }

    var isRemoved: Bool { removed.withLock { $0 } }

    /// Runs `body` on the callback queue unless the listener has been removed by then.
    func send(_ body: @escaping @Sendable () -> Void) {
        callbackQueue.async { [self] in
            guard !isRemoved else { return }
            body()
        }
    }

    func deliver(error: Error) {}

    /// True once the listener had its first snapshot.
    var hasDelivered: Bool { true }

    /// Sends what changed in the watcher's documents (`changed`: their keys, with what was
    /// sent before; nil: look at everything). On the watcher's queue.
    func update(_ documents: WatchedDocuments, changed: WatchedDocuments.Changes?) {}

    /// Tells a listener waiting for its first snapshot how far the first read is, with the
    /// documents just read. On the watcher's queue.
    func deliver(progress read: Int, of total: Int?, read documents: [QueryDocumentSnapshot]) {}
}

/// A query listener: keeps the results it last delivered (see `LiveQueryResults`) and sends
/// what changed.
final class QuerySubscription: Subscription, @unchecked Sendable {
    let query: Query
    /// Firebase's `includeMetadataChanges`: also the snapshots where only `hasPendingWrites` changed.
    let includesMetadataChanges: Bool
    private let listener: Callback<(QuerySnapshot?, Error?) -> Void>
    /// Touched only on the watcher's queue.
    private var results: LiveQueryResults?
    /// Whether the results last held a pending write, sent or not (watcher's queue only).
    private var heldPendingWrites = false
    private let progress: Callback<(LoadProgress) -> Void>?

    init(query: Query, includesMetadataChanges: Bool = false, progress: ((LoadProgress) -> Void)? = nil,
         listener: @escaping (QuerySnapshot?, Error?) -> Void) {
        self.query = query
        self.includesMetadataChanges = includesMetadataChanges
        self.listener = Callback(listener)
        self.progress = progress.map(Callback.init)
        super.init(firestore: query.firestore)
    }

    /// Called on the watcher's queue; `documents` are those just read, which the query's
    /// filters sort out here.
    override func deliver(progress read: Int, of total: Int?, read documents: [QueryDocumentSnapshot]) {
        guard let progress else { return }
        let evaluator = query.evaluator
        let shown = evaluator.definition.limit == nil ? documents.filter(evaluator.matches) : []
        let report = LoadProgress(read: read, total: total, documents: shown)
        send { progress.function(report) }
    }

    override var hasDelivered: Bool { results != nil }

    override func update(_ documents: WatchedDocuments, changed: WatchedDocuments.Changes?) {
        guard let results else {
            let results = LiveQueryResults(evaluator: query.evaluator, documents: documents.all, inIDOrder: documents.inIDOrder)
            self.results = results
            heldPendingWrites = results.view.contains { $0.pendingWrite != nil }
            send(QuerySnapshot(query: query, documents: results.view, changes: nil, hasPendingWrites: heldPendingWrites))
            return
        }
        guard let changes = results.update(documents: documents, changed: changed) else { return }
        // A pending write is shown in one delivery and committed in the next (`Watcher.showCommit`),
        // so the documents pending now are among those that just changed.
        let pending = changes.contains { $0.type != .removed && $0.document.pendingWrite != nil }
        let pendingChanged = pending != heldPendingWrites
        heldPendingWrites = pending
        // Firebase's QueryListener: metadata-only changes only when asked for; a snapshot for
        // a change of the data, or, when asked for, of `hasPendingWrites` alone.
        let shown = includesMetadataChanges ? changes : changes.filter { !$0.isMetadataOnly }
        guard !shown.isEmpty || (pendingChanged && includesMetadataChanges) else { return }
        send(QuerySnapshot(query: query, documents: results.view, changes: shown, hasPendingWrites: pending))
    }

    private func send(_ snapshot: QuerySnapshot) {
        send { [listener] in listener.function(snapshot, nil) }
    }

    override func deliver(error: Error) {
        let box = Callback(error)
        send { [listener] in listener.function(nil, box.function) }
    }
}

/// A document listener: sends the document whenever its content changes (and, when asked
/// for, when only `hasPendingWrites` does).
final class DocumentSubscription: Subscription, @unchecked Sendable {
    let reference: DocumentReference
    /// Firebase's `includeMetadataChanges`.
    let includesMetadataChanges: Bool
    private let listener: Callback<(DocumentSnapshot?, Error?) -> Void>
    private var last: DocumentSnapshot?  // watcher's queue only

    init(reference: DocumentReference, includesMetadataChanges: Bool = false, listener: @escaping (DocumentSnapshot?, Error?) -> Void) {
        self.reference = reference
        self.includesMetadataChanges = includesMetadataChanges
        self.listener = Callback(listener)
        super.init(firestore: reference.firestore)
    }

    override var hasDelivered: Bool { last != nil }

    override func update(_ documents: WatchedDocuments, changed: WatchedDocuments.Changes?) {
        guard let snapshot = documents.document, last !== snapshot else { return }
        let before = last
        last = snapshot
        if !includesMetadataChanges, let before, snapshot.differsOnlyInMetadata(from: before) { return }
        send { [listener] in listener.function(snapshot, nil) }
    }

    override func deliver(error: Error) {
        let box = Callback(error)
        send { [listener] in listener.function(nil, box.function) }
    }
}

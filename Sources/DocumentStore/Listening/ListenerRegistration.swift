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
    /// Set by `Firestore.subscribe`, under the store's lock.
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
        if !wasRemoved { firestore.unsubscribe(self) }
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
}

/// A query listener: keeps the results it last delivered and sends what changed.
final class QuerySubscription: Subscription, @unchecked Sendable {
    let query: Query
    private let listener: Callback<(QuerySnapshot?, Error?) -> Void>
    // Touched only on the watcher's queue.
    private var results: [QueryDocumentSnapshot]?
    /// By the bytes of the ids: "café" precomposed and decomposed are two documents.
    private var resultIDs: Set<ExactID> = []

    private let progress: Callback<(Int, Int) -> Void>?

    init(query: Query, progress: ((Int, Int) -> Void)? = nil, listener: @escaping (QuerySnapshot?, Error?) -> Void) {
        self.query = query
        self.listener = Callback(listener)
        self.progress = progress.map(Callback.init)
        super.init(firestore: query.firestore)
    }

    func deliver(progress read: Int, of total: Int) {
        guard let progress else { return }
        send { progress.function(read, total) }
    }

    var hasDelivered: Bool { results != nil }

    /// `changed` lists the ids whose document changed since the last call; nil means "look at
    /// everything".
    func update(documents: [ExactID: QueryDocumentSnapshot], changed: Set<ExactID>?) {
        guard let old = results else {
            let all = query.apply(to: documents.values)
            store(all)
            send(QuerySnapshot(query: query, documents: all, changes: Query.allAdded(all)))
            return
        }
        var removed: Set<ExactID> = []
        var added: [QueryDocumentSnapshot] = []
        var modified: [QueryDocumentSnapshot] = []
        if let changed, query.limit == nil {
            for id in changed {
                let matching = documents[id].flatMap { query.matches($0) ? $0 : nil }
                switch (resultIDs.contains(id), matching) {
                case (true, nil): removed.insert(id)
                case (false, let document?): added.append(document)
                case (true, let document?): modified.append(document)
                case (false, nil): break
                }
            }
        } else {
            // A limit can pull documents in and out of the results: compare all of them.
            let new = query.apply(to: documents.values)
            let newIDs = Set(new.map(\.key))
            removed = resultIDs.subtracting(newIDs)
            let oldByID = Dictionary(uniqueKeysWithValues: old.map { ($0.key, $0) })
            for document in new {
                if let before = oldByID[document.key] {
                    if before !== document { modified.append(document) }
                } else {
                    added.append(document)
                }
            }
        }
        guard !removed.isEmpty || !added.isEmpty || !modified.isEmpty else { return }
        let (new, changes) = Self.apply(removed: removed, added: added, modified: modified, to: old, order: query.areInIncreasingOrder)
        results = new
        resultIDs.subtract(removed)
        for document in added { resultIDs.insert(document.key) }
        send(QuerySnapshot(query: query, documents: new, changes: changes))
    }

    private func store(_ new: [QueryDocumentSnapshot]) {
        results = new
        resultIDs = Set(new.map(\.key))
    }

    private func send(_ snapshot: QuerySnapshot) {
        send { [listener] in listener.function(snapshot, nil) }
    }

    override func deliver(error: Error) {
        let box = Callback(error)
        send { [listener] in listener.function(nil, box.function) }
    }

    /// Applies the changes one by one, as Firestore reports them: removals, then additions,
    /// then modifications, each index taken in the results as they stand at that step.
    static func apply(removed: Set<ExactID>, added: [QueryDocumentSnapshot], modified: [QueryDocumentSnapshot],
                      to old: [QueryDocumentSnapshot], order: (QueryDocumentSnapshot, QueryDocumentSnapshot) -> Bool)
        -> ([QueryDocumentSnapshot], [DocumentChange]) {
        var current = old
        var changes: [DocumentChange] = []
        func insertionIndex(_ document: QueryDocumentSnapshot) -> Int {
            var low = 0, high = current.count
            while low < high {
                let mid = (low + high) / 2
                if order(current[mid], document) { low = mid + 1 } else { high = mid }
            }
            return low
        }
        for document in old where removed.contains(document.key) {
            let index = current.firstIndex { $0.key == document.key }!
            current.remove(at: index)
            changes.append(DocumentChange(type: .removed, document: document, oldIndex: UInt(index), newIndex: DocumentChange.notFound))
        }
        for document in added.sorted(by: order) {
            let index = insertionIndex(document)
            current.insert(document, at: index)
            changes.append(DocumentChange(type: .added, document: document, oldIndex: DocumentChange.notFound, newIndex: UInt(index)))
        }
        for document in modified.sorted(by: order) {
            let oldIndex = current.firstIndex { $0.key == document.key }!
            current.remove(at: oldIndex)
            let newIndex = insertionIndex(document)
            current.insert(document, at: newIndex)
            changes.append(DocumentChange(type: .modified, document: document, oldIndex: UInt(oldIndex), newIndex: UInt(newIndex)))
        }
        return (current, changes)
    }
}

/// A document listener: sends the document whenever its content changes.
final class DocumentSubscription: Subscription, @unchecked Sendable {
    let reference: DocumentReference
    private let listener: Callback<(DocumentSnapshot?, Error?) -> Void>
    private var last: DocumentSnapshot?  // watcher's queue only

    init(reference: DocumentReference, listener: @escaping (DocumentSnapshot?, Error?) -> Void) {
        self.reference = reference
        self.listener = Callback(listener)
        super.init(firestore: reference.firestore)
    }

    var hasDelivered: Bool { last != nil }

    func update(_ snapshot: DocumentSnapshot) {
        guard last !== snapshot else { return }
        last = snapshot
        send { [listener] in listener.function(snapshot, nil) }
    }

    override func deliver(error: Error) {
        let box = Callback(error)
        send { [listener] in listener.function(nil, box.function) }
    }
}

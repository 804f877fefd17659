import Foundation

/// What a server that pushes changes (Firestore's `Listen`) said about one watched key at a
/// point where its documents are consistent: everything the key holds (the first time, and
/// after the server reset the target), or only the documents that changed since the last
/// such point. A removed document is `.missing`.
package struct PushedChanges: Sendable {
    package var isEverything: Bool
    package var documents: [(path: ResourcePath, stored: StoredDocument)]

    package init(isEverything: Bool, documents: [(path: ResourcePath, stored: StoredDocument)]) {
        self.isEverything = isEverything
        self.documents = documents
    }
}

/// A backend whose server tells it what changed, so its watchers read nothing themselves.
package protocol ChangePushingBackend: StorageBackend {
    /// Follows `key` until the returned cancel is called; `receive` gets each consistent set of
    /// changes, or an error when the server refused the key or cannot be reached (following
    /// goes on: a later set of changes means it is back).
    func follow(_ key: Firestore.WatchKey, store: Firestore,
                receive: @escaping @Sendable (Result<PushedChanges, Error>) -> Void) -> @Sendable () -> Void
}

/// Follows a collection, a collection group or one document through a backend that pushes
/// its changes: it keeps the documents the server sent and gives listeners the same
/// snapshots and changes as the other watchers, and none before the server's first
/// consistent state.
final class PushedChangesWatcher: Watcher, @unchecked Sendable {
    private let pusher: ChangePushingBackend
    private let pending = Locked<[Result<PushedChanges, Error>]>([])
    private var cancel: (@Sendable () -> Void)?
    /// Collections and groups: the documents, keyed as the other watchers key them.
    private var documents: [ExactID: QueryDocumentSnapshot] = [:]
    /// A document listener's document.
    private var current: DocumentSnapshot?
    /// Set once the server's first consistent state arrived: no snapshot goes out before.
    private var isConsistent = false

    init(firestore: Firestore, key: Firestore.WatchKey, pusher: ChangePushingBackend) {
        self.pusher = pusher
        super.init(firestore: firestore, key: key)
    }

    /// Follows the key instead of polling: the server says when to look.
    override func start(interval: TimeInterval) {
        guard let firestore else { return }
        cancel = pusher.follow(key, store: firestore) { [weak self] result in
            guard let self else { return }
            self.pending.withLock { $0.append(result) }
            self.poll()
        }
    }

    override func stop() {
        cancel?()
        cancel = nil
        super.stop()
    }

    override func hasDelivered(to subscription: Subscription) -> Bool {
        (subscription as? QuerySubscription)?.hasDelivered ?? (subscription as? DocumentSubscription)?.hasDelivered ?? true
    }

    override func send(to subscription: Subscription, changed: Set<ExactID>?) {
        guard isConsistent else { return }
        if case .document = key {
            if let current { (subscription as? DocumentSubscription)?.update(current) }
        } else {
            (subscription as? QuerySubscription)?.update(documents: documents, changed: changed)
        }
    }

    override var currentDocuments: [QueryDocumentSnapshot] { Array(documents.values) }

    /// Applies what the server pushed since the last look; an error it reported is thrown
    /// (the listeners are told once) after the changes before it are kept.
    override func scan() throws -> Set<ExactID> {
        guard let firestore else { return [] }
        let taken = pending.withLock { pending in
            defer { pending = [] }
            return pending
        }
        var changed: Set<ExactID> = []
        var failure: Error?
        for result in taken {
            switch result {
            case .failure(let error): failure = error
            case .success(let changes):
                failure = nil
                changed.formUnion(apply(changes, firestore))
                isConsistent = true
            }
        }
        if let failure { throw failure }
        return changed
    }

    private func apply(_ changes: PushedChanges, _ firestore: Firestore) -> Set<ExactID> {
        if case .document(let path) = key {
            let stored = changes.documents.last(where: { $0.path == path })?.stored ?? (changes.isEverything ? .missing : nil)
            guard let stored, current?.stored != stored || current == nil else { return [] }
            current = DocumentSnapshot(reference: DocumentReference(firestore: firestore, path: path), stored: stored)
            return [ExactID(path.last)]
        }
        var changed: Set<ExactID> = []
        var next = changes.isEverything ? [:] : documents
        for (path, stored) in changes.documents {
            let id = key.tableKey(of: path)
            if stored == .missing {
                next[id] = nil
            } else if let old = documents[id], old.stored == stored {
                next[id] = old  // unchanged: the same snapshot, so listeners see no change
            } else {
                next[id] = QueryDocumentSnapshot(reference: DocumentReference(firestore: firestore, path: path), stored: stored)
            }
            if next[id] !== documents[id] { changed.insert(id) }
        }
        if changes.isEverything { changed.formUnion(documents.keys.filter { next[$0] == nil }) }
        documents = next
        return changed
    }
}

extension Firestore.WatchKey {
    /// How a watcher of this key tells its documents apart: by id in a collection, by whole
    /// path in a group (as `CollectionGroupWatcher`).
    func tableKey(of path: ResourcePath) -> ExactID {
        if case .collection = broadened { return ExactID(path.last) }
        return ExactID(path.description)
    }
}

extension ChangePushingBackend {
    package func makeWatcher(for key: Firestore.WatchKey, store: Firestore) -> Watcher {
        PushedChangesWatcher(firestore: store, key: key, pusher: self)
    }
}

import Foundation

/// What a server that pushes changes (Firestore's `Listen`) said about one watched key at a
/// point where its documents are consistent: everything the key holds (the first time, and
/// after the server reset the target), or only the documents that changed since the last
/// such point. A removed document is `.missing`. `readTime` is the server's time of that
/// point: the push may come after this store's own later commit was shown, and is then older
/// than what the listeners see of the documents that commit wrote.
package struct PushedChanges: Sendable {
    package var isEverything: Bool
    package var documents: [(path: ResourcePath, stored: StoredDocument)]
    package var readTime: Timestamp?

    package init(isEverything: Bool, documents: [(path: ResourcePath, stored: StoredDocument)], readTime: Timestamp? = nil) {
        self.isEverything = isEverything
        self.documents = documents
        self.readTime = readTime
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

/// Follows a collection, a collection group, a query or one document through a backend that
/// pushes its changes: the watcher looks when the server has said something, and shows
/// nothing before the server's first consistent state.
final class PushedChangeSource: ChangeSource, @unchecked Sendable {
    private let pusher: ChangePushingBackend
    private let key: Firestore.WatchKey
    private weak var store: Firestore?
    private let pending = Locked<[Result<PushedChanges, Error>]>([])
    /// The documents this store's own commits wrote, with the commit's time, until the server
    /// pushes a change at that time or later: a push may come after the commit's answer, and
    /// is then older than what the listeners were shown (Firebase's SDK keeps an acknowledged
    /// write until the server's snapshots reach its commit time, as this does).
    private let committedAt = Locked<[ResourcePath: Timestamp]>([:])
    private var cancel: (@Sendable () -> Void)?
    /// Set once the server's first consistent state arrived.
    private(set) var isConsistent = false

    init(pusher: ChangePushingBackend, key: Firestore.WatchKey, store: Firestore) {
        self.pusher = pusher
        self.key = key
        self.store = store
    }

    /// The server says when to look: no timer.
    var looksOnTimer: Bool { false }

    func start(wake: @escaping @Sendable () -> Void) {
        guard let store else { return }
        cancel = pusher.follow(key, store: store) { [weak self] result in
            guard let self else { return }
            self.pending.withLock { $0.append(result) }
            wake()
        }
    }

    func wrote(_ written: [WrittenDocument]) {
        guard let commitTime = written.compactMap(\.updateTime).max() else { return }
        committedAt.withLock { committed in
            for document in written { committed[document.path] = max(commitTime, committed[document.path] ?? commitTime) }
        }
    }

    /// The documents this store committed after the time of `changes`: what the server pushes
    /// of them is older than what the listeners were shown. Those the push caught up with are
    /// forgotten.
    private func committedAfter(_ changes: PushedChanges) -> Set<ResourcePath> {
        guard let readTime = changes.readTime else { return [] }
        return committedAt.withLock { committed in
            guard !committed.isEmpty else { return [] }
            committed = committed.filter { $0.value > readTime }
            return Set(committed.keys)
        }
    }

    func stop() {
        cancel?()
        cancel = nil
    }

    /// Applies what the server pushed since the last look; an error it reported is thrown
    /// (the listeners are told once) after the changes before it are kept.
    func look(into documents: WatchedDocuments, for watcher: Watcher) throws {
        guard let firestore = watcher.firestore else { return }
        let taken = pending.withLock { pending in
            defer { pending = [] }
            return pending
        }
        var failure: Error?
        for result in taken {
            switch result {
            case .failure(let error): failure = error
            case .success(let changes):
                failure = nil
                apply(changes, to: documents, firestore)
                isConsistent = true
            }
        }
        if let failure { throw failure }
    }

    /// Takes the pushed documents, but those this store committed after the push's time.
    private func apply(_ changes: PushedChanges, to documents: WatchedDocuments, _ firestore: Firestore) {
        let ahead = committedAfter(changes)
        if case .document(let path) = key {
            guard !ahead.contains(path),
                  let stored = changes.documents.last(where: { $0.path == path })?.stored ?? (changes.isEverything ? .missing : nil) else { return }
            return documents.take(document: stored, at: DocumentReference(firestore: firestore, path: path))
        }
        var sent: Set<ExactID> = Set(ahead.map(key.tableKey(of:)))
        for (path, stored) in changes.documents where !ahead.contains(path) {
            let id = key.tableKey(of: path)
            sent.insert(id)
            documents.take(id, stored) { QueryDocumentSnapshot(reference: DocumentReference(firestore: firestore, path: path), stored: stored) }
        }
        if changes.isEverything { documents.removeAll(except: sent) }
    }
}

extension ChangePushingBackend {
    package func changeSource(for key: Firestore.WatchKey, store: Firestore) -> ChangeSource {
        PushedChangeSource(pusher: self, key: key, store: store)
    }
}

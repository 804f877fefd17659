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

/// Follows a collection, a collection group, a query or one document through a backend that
/// pushes its changes: the watcher looks when the server has said something, and shows
/// nothing before the server's first consistent state.
final class PushedChangeSource: ChangeSource, @unchecked Sendable {
    private let pusher: ChangePushingBackend
    private let key: Firestore.WatchKey
    private weak var store: Firestore?
    private let pending = Locked<[Result<PushedChanges, Error>]>([])
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

    private func apply(_ changes: PushedChanges, to documents: WatchedDocuments, _ firestore: Firestore) {
        if case .document(let path) = key {
            guard let stored = changes.documents.last(where: { $0.path == path })?.stored ?? (changes.isEverything ? .missing : nil) else { return }
            return documents.take(document: stored, at: DocumentReference(firestore: firestore, path: path))
        }
        var sent: Set<ExactID> = []
        for (path, stored) in changes.documents {
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

import Foundation

/// What a store needs of the place its documents live: the one seam between the Firestore API
/// (references, batches, transactions, queries, listeners) and storage. `FolderBackend` keeps
/// documents as JSON files; DocumentStorePostgres keeps them on a database server;
/// DocumentStoreRemote's backend is a client of a Firestore server. Listeners are the engine's
/// (`Watcher`): a backend only says what changed (`changeSource`).
///
/// The seam is what every storage has; what only some have is a capability protocol of its
/// own (`StorageCapabilities.swift`), which callers ask for (`backend as? QueryingStorage`)
/// rather than probing answers meant for another kind of storage.
package protocol StorageBackend: AnyObject, Sendable {
    /// Names the storage in messages: the folder's path, or the server's URL without its password.
    var description: String { get }
    /// True when writes will fail because the storage cannot be written.
    var isReadOnly: Bool { get }
    /// Several documents as they are now, in the order of `paths` (a server reads them in one query).
    func documents(at paths: [ResourcePath], store: Firestore) throws -> [StoredDocument]
    /// The documents' create and update times, in the order of `paths`; nil for a missing one.
    func documentTimes(_ paths: [ResourcePath]) throws -> [DocumentTimes?]
    /// Applies `writes` all together, after checking that each document in `expected` is still
    /// what was read (else `DocumentStoreError.changedSinceRead`, which a transaction retries).
    /// With no writes, only checks. Returns the documents written, in the order first written,
    /// with the update time the commit gave each.
    func commit(_ writes: [DocumentWrite], expecting expected: [ResourcePath: StoredDocument], store: Firestore) throws -> [WrittenDocument]
    /// The query's results, in its order, cursors and limits applied.
    func results(of query: Query) throws -> [QueryDocumentSnapshot]
    /// The ids of the documents of `collection`, with those of missing documents that have
    /// collections under them (`listDocuments`).
    func documentIDs(in collection: ResourcePath) throws -> Set<ExactID>
    /// The ids of the collections directly below `parent` (the root: no segments), sorted.
    func collectionIDs(under parent: ResourcePath) throws -> [String]
    /// Where the watcher of `key` learns which documents changed (see `ChangeSource`).
    func changeSource(for key: Firestore.WatchKey, store: Firestore) -> ChangeSource
    /// Lets go of connections; later calls fail.
    func close()
}

/// A document a commit wrote: what it stored (`.missing`: deleted), which the store's own
/// listeners are shown first as a pending write, and the update time the commit gave it (nil:
/// deleted), which is this write's own even if another commit follows at once.
package struct WrittenDocument: Sendable {
    package let path: ResourcePath
    package let document: StoredDocument
    package let updateTime: Timestamp?
    /// False when the commit left the document as it was stored (`CommitPlan.Planned.leavesAsItIs`):
    /// `updateTime` is then the one it had, and no listener needs to look at it.
    package let changed: Bool

    package init(path: ResourcePath, document: StoredDocument, updateTime: Timestamp?, changed: Bool = true) {
        self.path = path
        self.document = document
        self.updateTime = updateTime
        self.changed = changed
    }
}

extension StorageBackend {
    /// One document as it is now.
    package func document(at path: ResourcePath, store: Firestore) throws -> StoredDocument {
        try documents(at: [path], store: store)[0]
    }

    /// Runs `body` where it sees no commit half applied: inside a folder's reading lock (its
    /// commits are files renamed one by one); a server's commits are its own transactions.
    package func consistently<T>(_ body: () throws -> T) throws -> T {
        guard let files = self as? FileStorage else { return try body() }
        return try files.reading(body)
    }
}

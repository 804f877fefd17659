import Foundation

/// What a store needs of the place its documents live: the one seam between the Firestore API
/// (references, batches, transactions, queries, listeners) and storage. `FolderBackend` keeps
/// documents as JSON files; a `DocumentServer` (PostgreSQL) keeps them on a database server;
/// DocumentStoreRemote's backend is a client of a Firestore server. Listeners are the engine's
/// (`Watcher`): a backend only says what changed (`changeSource`).
package protocol StorageBackend: AnyObject, Sendable {
    /// Names the storage in messages: the folder's path, or the server's URL without its password.
    var description: String { get }
    /// True when writes will fail because the storage cannot be written.
    var isReadOnly: Bool { get }
    /// Which ids the storage holds: Firestore's, unless a folder's files allow fewer.
    var idRules: IDRules { get }
    /// One document as it is now.
    func document(at path: ResourcePath, store: Firestore) throws -> StoredDocument
    /// Several documents as they are now, in the order of `paths` (a server reads them in one query).
    func documents(at paths: [ResourcePath], store: Firestore) throws -> [StoredDocument]
    /// The documents' create and update times, in the order of `paths`; nil for a missing one.
    func documentTimes(_ paths: [ResourcePath]) throws -> [DocumentTimes?]
    /// Applies `writes` all together, after checking that each document in `expected` is still
    /// what was read (else `DocumentStoreError.changedSinceRead`, which a transaction retries).
    /// With no writes, only checks. Returns the documents written, in the order first written,
    /// with the update time the commit gave each.
    func commit(_ writes: [DocumentWrite], expecting expected: [ResourcePath: StoredDocument], store: Firestore) throws -> [WrittenDocument]
    /// Does ahead the part of committing `writes` that depends on nothing stored (a folder
    /// encodes each file and the journal); nil when there is none. Never fails: writes it
    /// cannot prepare are committed as they are, and fail then if they must.
    func prepare(_ writes: [DocumentWrite], store: Firestore) -> (any Sendable)?
    /// Commits writes `prepare` made ready, as `commit` does with no documents to check.
    func commit(_ prepared: PreparedCommit, store: Firestore) throws -> [WrittenDocument]
    /// Why the storage cannot run queries of `definition` (words in a document's text, which
    /// Firestore's protocol has no filter for), nil when it can: known before anything is sent.
    func refusal(of definition: QueryDefinition) -> FirestoreErrorCode?
    /// The query's results, in its order, cursors and limits applied.
    func results(of query: Query) throws -> [QueryDocumentSnapshot]
    /// The collection's documents a page at a time, in id order (`CollectionPages`).
    func pages(of collection: CollectionReference, size: Int) throws -> any CollectionPages
    /// How many documents the query finds, when the storage can count them without reading
    /// them; nil: read the results and count those.
    func count(of query: Query) throws -> Int?
    /// The aggregations of the query's matches, when the storage can compute them exactly as
    /// `AggregateEvaluator` without reading the documents; nil: read them.
    func aggregate(_ operations: [AggregateField.Operation], of query: Query) throws -> [AggregateField.Operation: FirestoreValue]?
    /// Starts making, in the background, what serves the query's order (`Query.prepareOrder`);
    /// nothing where no order needs making.
    func prepareOrder(of query: Query)
    /// Whether a read of the query is waiting for the storage to make what serves its order
    /// (a database server's index, the first time: a minute at ten million documents).
    func isWaitingForOrder(of query: Query) -> Bool
    /// The ids of the documents of `collection`, with those of missing documents that have
    /// collections under them (`listDocuments`).
    func documentIDs(in collection: ResourcePath) throws -> Set<ExactID>
    /// The ids of the collections directly below `parent` (the root: no segments), sorted.
    func collectionIDs(under parent: ResourcePath) throws -> [String]
    /// True when the storage follows this listened query on its own (only the query's
    /// documents are read: a Firestore server's listen target, a window of a database
    /// server's collection), rather than its whole collection.
    func watches(_ query: QueryDefinition) -> Bool
    /// Where the watcher of `key` learns which documents changed (see `ChangeSource`).
    func changeSource(for key: Firestore.WatchKey, store: Firestore) -> ChangeSource
    /// The file of the document, or the folder of the collection, at `path`, when the
    /// storage keeps documents as files; nil on a server.
    func fileURL(for path: ResourcePath) -> URL?
    /// The ids of the documents of `collection` that have collections below them, when the
    /// storage finds them in one look (a folder's subfolders); nil: ask each document.
    func idsWithCollections(in collection: ResourcePath) throws -> [String]?
    /// How many entries of `collection` are not documents (a folder's other files).
    func otherFileCount(in collection: ResourcePath) throws -> Int
    /// The temporary files killed writers had left that this store removed, by path: those
    /// removed when it opened, and with `sweepingNow` those a sweep of everything finds now.
    func strayTemporaryFilesRemoved(sweepingNow: Bool) -> [String]
    /// The versions of the documents in `scope` that commits replaced or deleted after `time`
    /// (see `PastVersion`); nil when the storage keeps none.
    func versions(in scope: VersionScope, replacedAfter time: Timestamp, store: Firestore) throws -> [PastVersion]?
    /// Starts keeping versions, where the storage keeps them only when asked (a folder).
    func keepVersions() throws
    /// Runs `body` where it sees no commit half applied.
    func consistently<T>(_ body: () throws -> T) throws -> T
    /// The locks other processes on the same storage see, taken after the store's own
    /// (`TransactionLocks`); nil where there are none (a folder).
    var storageLocks: StorageLocks? { get }
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
    package var idRules: IDRules { .firestore }
    package func documents(at paths: [ResourcePath], store: Firestore) throws -> [StoredDocument] {
        try paths.map { try document(at: $0, store: store) }
    }
    package var storageLocks: StorageLocks? { nil }
    package func refusal(of definition: QueryDefinition) -> FirestoreErrorCode? { nil }
    package func prepare(_ writes: [DocumentWrite], store: Firestore) -> (any Sendable)? { nil }
    package func commit(_ prepared: PreparedCommit, store: Firestore) throws -> [WrittenDocument] {
        try commit(prepared.writes, expecting: [:], store: store)
    }
    package func watches(_ query: QueryDefinition) -> Bool { false }
    package func fileURL(for path: ResourcePath) -> URL? { nil }
    package func idsWithCollections(in collection: ResourcePath) throws -> [String]? { nil }
    package func otherFileCount(in collection: ResourcePath) throws -> Int { 0 }
    package func strayTemporaryFilesRemoved(sweepingNow: Bool) -> [String] { [] }
    package func count(of query: Query) throws -> Int? { nil }
    package func pages(of collection: CollectionReference, size: Int) throws -> any CollectionPages { try QueryPages(of: collection, size: size) }
    package func prepareOrder(of query: Query) {}
    package func versions(in scope: VersionScope, replacedAfter time: Timestamp, store: Firestore) throws -> [PastVersion]? { nil }
    package func keepVersions() throws {}
    package func isWaitingForOrder(of query: Query) -> Bool { false }
    package func aggregate(_ operations: [AggregateField.Operation], of query: Query) throws -> [AggregateField.Operation: FirestoreValue]? { nil }
}

import Foundation

// What only some storage has, beside the `StorageBackend` every storage is. A caller asks for
// the capability (`backend as? FileStorage`) and does without it otherwise.

/// Storage that holds fewer ids than Firestore's (a folder: no name starting with `.`, none
/// too long for a file name).
package protocol IDRestrictingStorage: StorageBackend {
    var idRules: IDRules { get }
}

/// Storage that keeps documents as files in folders a person and other programs may touch
/// (`FolderBackend`).
package protocol FileStorage: IDRestrictingStorage {
    /// The file of the document, or the folder of the collection, at `path`.
    func fileURL(for path: ResourcePath) -> URL
    /// How many entries of `collection`'s folder are not documents (other files).
    func otherFileCount(in collection: ResourcePath) throws -> Int
    /// The temporary files killed writers had left that this store removed, by path: those
    /// removed when it opened, and with `sweepingNow` those a sweep of everything finds now.
    func strayTemporaryFilesRemoved(sweepingNow: Bool) -> [String]
    /// The collection's documents a page at a time, in id order, from its folder's listing.
    func pages(of collection: CollectionReference, size: Int) throws -> any CollectionPages
    /// Runs `body` where it sees no commit half applied (see `StorageBackend.consistently`).
    func reading<T>(_ body: () throws -> T) throws -> T
}

/// Storage that runs queries itself (a database server, a Firestore server) rather than
/// handing the query engine its collection.
package protocol QueryingStorage: StorageBackend {
    /// Why the storage cannot run queries of `definition` (words in a document's text, which
    /// Firestore's protocol has no filter for), nil when it can: known before anything is sent.
    func refusal(of definition: QueryDefinition) -> FirestoreErrorCode?
    /// How many documents the query finds, when the storage can count them without reading
    /// them; nil: read the results and count those.
    func count(of query: Query) throws -> Int?
    /// The aggregations of the query's matches, when the storage can compute them exactly as
    /// `AggregateEvaluator` without reading the documents; nil: read them.
    func aggregate(_ operations: [AggregateField.Operation], of query: Query) throws -> [AggregateField.Operation: FirestoreValue]?
    /// True when the storage follows this listened query on its own (only the query's
    /// documents are read: a Firestore server's listen target, a window of a database
    /// server's collection), rather than its whole collection.
    func watches(_ query: QueryDefinition) -> Bool
    /// Starts making, in the background, what serves the query's order (`Query.prepareOrder`);
    /// nothing where no order needs making.
    func prepareOrder(of query: Query)
    /// Whether a read of the query is waiting for the storage to make what serves its order
    /// (a database server's index, the first time: a minute at ten million documents).
    func isWaitingForOrder(of query: Query) -> Bool
}

extension QueryingStorage {
    package func refusal(of definition: QueryDefinition) -> FirestoreErrorCode? { nil }
    package func prepareOrder(of query: Query) {}
    package func isWaitingForOrder(of query: Query) -> Bool { false }
}

/// Storage that keeps the versions commits replaced, for reads at a past time (`read_time`).
package protocol VersionedStorage: StorageBackend {
    /// The versions of the documents in `scope` that commits replaced or deleted after `time`
    /// (see `PastVersion`); nil while it keeps none (a folder not asked to yet, a server
    /// without a table of them).
    func versions(in scope: VersionScope, replacedAfter time: Timestamp, store: Firestore) throws -> [PastVersion]?
    /// Starts keeping versions, where the storage keeps them only when asked (a folder).
    func keepVersions() throws
}

/// Storage that finds in one look which documents of a collection have collections below them
/// (a folder's subfolders, a server's index of paths) instead of asking each document.
package protocol SubcollectionIndex: StorageBackend {
    /// Those documents' ids, existing documents or not.
    func idsWithCollections(in collection: ResourcePath) throws -> [String]
}

/// Storage other processes share, whose locks they see (PostgreSQL's advisory locks), taken
/// after the store's own (`TransactionLocks`).
package protocol LockingStorage: StorageBackend {
    var storageLocks: StorageLocks { get }
}

/// Storage that can do ahead the part of a commit that depends on nothing stored (a folder
/// encodes each file and the journal), so a bulk writer's writing thread only writes.
package protocol PreparingStorage: StorageBackend {
    associatedtype Prepared: Sendable
    /// The writes made ready; nil when there is nothing to do ahead. Never fails: writes it
    /// cannot prepare are committed as they are, and fail then if they must.
    func prepare(_ writes: [DocumentWrite], store: Firestore) -> Prepared?
    /// Commits what `prepare` made ready, as `commit` does with no documents to check.
    func commit(_ prepared: Prepared, store: Firestore) throws -> [WrittenDocument]
}

extension PreparingStorage {
    /// The writes made ready, bound to this storage's commit of them.
    package func preparedCommit(_ writes: [DocumentWrite], store: Firestore) -> PreparedCommit? {
        guard let prepared = prepare(writes, store: store) else { return nil }
        return PreparedCommit(writes: writes) { [self] store in try commit(prepared, store: store) }
    }
}

import Foundation

/// The backend of a database that could not be opened (a name Firestore refuses, a server that
/// cannot be reached): every call fails with the reason, as Firebase's calls fail against a
/// server that refuses the database, so a non-throwing `Firestore.firestore(database:)` never
/// stops the program and never writes anywhere else.
final class UnopenableBackend: StorageBackend {
    let description: String
    private let reason: Error

    init(description: String, reason: Error) {
        self.description = description
        self.reason = reason
    }

    var isReadOnly: Bool { true }

    func documents(at paths: [ResourcePath], store: Firestore) throws -> [StoredDocument] { throw reason }
    func documentTimes(_ paths: [ResourcePath]) throws -> [DocumentTimes?] { throw reason }
    func commit(_ writes: [DocumentWrite], expecting expected: [ResourcePath: StoredDocument], store: Firestore) throws -> [WrittenDocument] { throw reason }
    func results(of query: Query) throws -> [QueryDocumentSnapshot] { throw reason }
    func documentIDs(in collection: ResourcePath) throws -> Set<ExactID> { throw reason }
    func collectionIDs(under parent: ResourcePath) throws -> [String] { throw reason }
    /// Every look fails, which tells the listeners why.
    func changeSource(for key: Firestore.WatchKey, store: Firestore) -> ChangeSource { FailingChanges(reason: reason) }
    func close() {}
}

/// A source that only fails: the storage cannot be read.
final class FailingChanges: ChangeSource {
    let reason: Error
    init(reason: Error) { self.reason = reason }
    func look(into documents: WatchedDocuments, for watcher: Watcher) throws { throw reason }
}

/// A source of no changes: the storage's listeners are never told of any.
final class NoChanges: ChangeSource {
    func look(into documents: WatchedDocuments, for watcher: Watcher) {}
}

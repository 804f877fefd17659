import Foundation

/// A store on a database server: the Firestore semantics the server does not know (field
/// transforms, preconditions, query order and filters, snapshots) applied here, over the
/// documents a `DocumentServer` reads and writes as text.
///
/// Queries that `ServerPage` can describe are ordered and cut to their limit by the server,
/// and counts with only exact equality filters are counted there (`count(of:)`). Other
/// queries read the candidate documents (a collection, or a collection group, narrowed by the
/// query's equality filters: `ServerPrefilter`) from the server and evaluate them with the same
/// `QueryEvaluator` as the folder backend, so both agree.
final class ServerBackend: StorageBackend {
    let server: DocumentServer

    init(server: DocumentServer) {
        self.server = server
    }

    var description: String { server.description }
    var isReadOnly: Bool { false }

    func document(at path: ResourcePath, store: Firestore) throws -> StoredDocument {
        let found = try server.read([path.description])
        return found.first.map { DocumentText.document($0.json, store: store) } ?? .missing
    }

    func commit(_ writes: [DocumentWrite], expecting expected: [ResourcePath: StoredDocument], store: Firestore) throws -> [ResourcePath] {
        var paths = Set(expected.keys)
        for write in writes { paths.insert(write.path) }
        var written: [ResourcePath] = []
        try server.transact(locking: paths.map(\.description).sorted()) { found in
            var current: [ResourcePath: StoredDocument] = [:]
            for document in found { current[Self.path(document.path)] = DocumentText.document(document.json, store: store) }
            for (path, seen) in expected where (current[path] ?? .missing) != seen {
                throw DocumentStoreError.changedSinceRead(path: path.description)
            }
            let staged = try CommitPlan.apply(writes, store: store) { current[$0] ?? .missing }
            written = staged.map(\.path)
            return try staged.map { path, document in
                guard let fields = document.fields else { return ServerDocument(path: path.description, json: nil) }
                let text = DocumentText.text(fields)
                guard text.utf8.count <= DocumentFiles.maxDocumentBytes else {
                    throw DocumentStoreError.documentTooLarge(path: path.description, bytes: text.utf8.count)
                }
                return ServerDocument(path: path.description, json: text)
            }
        }
        return written
    }

    func results(of query: Query) throws -> [QueryDocumentSnapshot] {
        if let page = ServerPage(query.definition) {
            let rows = try server.readPage(page).map { snapshot($0, store: query.firestore) }
            if page.isExact(rows) { return query.evaluator.results(from: rows) }
        }
        let documents: [ServerDocument]
        let containing = ServerPrefilter.containment(query.definition).map(DocumentText.text)
        switch query.definition.source {
        case .collection(let path): documents = try server.readCollection(path.description, containing: containing)
        case .group(let id): documents = try server.readGroup(id, containing: containing)
        }
        return query.evaluator.results(from: documents.map { snapshot($0, store: query.firestore) })
    }

    /// Counted by the server when it applies the whole filter exactly, and no order, cursor
    /// or limit of another kind is asked for (an order by a field leaves out the documents
    /// without it).
    func count(of query: Query) throws -> Int? {
        let definition = query.definition
        guard definition.explicitOrders.allSatisfy(\.field.isDocumentID), definition.start == nil,
              definition.end == nil, ServerPrefilter.isExact(definition) else { return nil }
        let containing = ServerPrefilter.containment(definition).map(DocumentText.text)
        let count: Int
        switch definition.source {
        case .collection(let path): count = try server.count(in: path.description, group: false, containing: containing)
        case .group(let id): count = try server.count(in: id, group: true, containing: containing)
        }
        return definition.limit.map { min($0, count) } ?? count
    }

    func documentIDs(in collection: ResourcePath) throws -> Set<ExactID> {
        Set(try server.documentIDs(in: collection.description).map { ExactID($0) })
    }

    func collectionIDs(under parent: ResourcePath) throws -> [String] {
        try server.collectionIDs(under: parent.description)
    }

    func makeWatcher(for key: Firestore.WatchKey, store: Firestore) -> Watcher {
        ChangeFeedWatcher(firestore: store, key: key, backend: self)
    }

    func consistently<T>(_ body: () throws -> T) throws -> T { try body() }

    func close() { server.close() }

    // MARK: Texts to values

    /// A path as the server gives it: ours, so already valid.
    static func path(_ text: String) -> ResourcePath {
        ResourcePath(segments: text.split(separator: "/", omittingEmptySubsequences: false).map(String.init))
    }

    func snapshot(_ document: ServerDocument, store: Firestore) -> QueryDocumentSnapshot {
        QueryDocumentSnapshot(reference: DocumentReference(firestore: store, path: Self.path(document.path)),
                              stored: DocumentText.document(document.json, store: store))
    }
}

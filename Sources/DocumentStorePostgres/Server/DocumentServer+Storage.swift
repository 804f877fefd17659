import DocumentStore
import Foundation

/// A database server as a store's backend: the Firestore semantics the server does not know
/// (field transforms, preconditions, query order and filters, snapshots) applied here, over the
/// documents it reads and writes as text, so a server module only speaks its database.
///
/// Queries that `ServerPage` can describe are ordered and cut to their limit by the server,
/// and counts, sums and averages of queries whose filter it applies exactly are computed
/// there. Other queries read the candidate documents (a collection, or a collection group,
/// narrowed by the query's filters: `ServerPrefilter`) from the server and evaluate them with
/// the same `QueryEvaluator` as the folder backend, so both agree.
extension DocumentServer {
    package var isReadOnly: Bool { false }
    package func prepareOrder(_ page: ServerPage) {}
    package func replacedDocuments(_ scope: VersionScope, after time: Timestamp) throws -> [(document: ServerDocument, replaced: Timestamp)]? { nil }
    package func pruneVersions() {}
    /// A server keeps versions from the start (`replacedDocuments`).
    package func keepVersions() {}

    package func versions(in scope: VersionScope, replacedAfter time: Timestamp, store: Firestore) throws -> [PastVersion]? {
        try replacedDocuments(scope, after: time)?.compactMap { document, replaced in
            guard let times = document.times else { return nil }
            return PastVersion(path: ResourcePath(stored: document.path), document: DocumentText.document(document.json, store: store),
                               times: times, replaced: replaced)
        }
    }
    package func isWaitingForOrder(_ page: ServerPage) -> Bool { false }

    package func documents(at paths: [ResourcePath], store: Firestore) throws -> [StoredDocument] {
        var found: [String: String?] = [:]
        for document in try read(paths.map(\.description)) { found[document.path] = document.json }
        return paths.map { path in found[path.description].map { DocumentText.document($0, store: store) } ?? .missing }
    }

    package func documentTimes(_ paths: [ResourcePath]) throws -> [DocumentTimes?] {
        let found = try times(paths.map(\.description))
        return paths.map { found[$0.description] }
    }

    /// The documents the commit leaves as they are stored (`CommitPlan.Planned.leavesAsItIs`,
    /// compared with the rows it read and locked anyway) are not written: they keep their
    /// times, and neither a past version nor a notification is made of them.
    package func commit(_ writes: [DocumentWrite], expecting expected: [ResourcePath: StoredDocument], store: Firestore) throws -> [WrittenDocument] {
        var paths = Set(expected.keys)
        for write in writes { paths.insert(write.path) }
        var planned: [CommitPlan.Planned] = []
        var unchanged: [ResourcePath: DocumentTimes?] = [:]
        let times = try transact(locking: paths.map(\.description).sorted()) { found, time in
            var current: [ResourcePath: StoredDocument] = [:]
            var stored: [ResourcePath: DocumentTimes] = [:]
            for document in found {
                current[ResourcePath(stored: document.path)] = DocumentText.document(document.json, store: store)
                stored[ResourcePath(stored: document.path)] = document.times
            }
            planned = try CommitPlan.apply(writes, expecting: expected, at: time, store: store, current: { current[$0] ?? .missing },
                                           updated: { stored[$0]?.updated })
            unchanged = [:]
            return try planned.compactMap { planned in
                let path = planned.path
                if planned.leavesAsItIs(current[path] ?? .missing) {
                    unchanged.updateValue(stored[path], forKey: path)
                    return nil
                }
                guard let fields = planned.document.fields else { return ServerDocument(path: path.description, json: nil) }
                try WriteLimits.checkSize(of: fields, at: path)
                let text = DocumentText.text(fields)
                return ServerDocument(path: path.description, json: text, times: planned.keptTimes)
            }
        }
        pruneVersions()
        return planned.map { planned in
            if let kept = unchanged[planned.path] {
                return WrittenDocument(path: planned.path, document: planned.document, updateTime: kept?.updated, changed: false)
            }
            return WrittenDocument(path: planned.path, document: planned.document, updateTime: times[planned.path.description]?.updated)
        }
    }

    package func results(of query: Query) throws -> [QueryDocumentSnapshot] {
        if query.definition.limit != nil, let exact = ServerPage(query.definition) {
            let page = exact.withLastSkipped()
            let lastSkippedFirst = exact.offset > 0
            let rows = try snapshots(readPage(page), store: query.firestore)
            if page.isExact(rows, lastSkippedFirst: lastSkippedFirst) {
                // The server skipped the offset's rows: the evaluator only orders and limits.
                var kept = query.definition
                kept.offset = 0
                return QueryEvaluator(kept).results(from: Array(rows.dropFirst(lastSkippedFirst ? 1 : 0)))
            }
        }
        let definition = query.definition
        let selection = ServerSelection(definition.source, conditions: ServerPrefilter.conditions(definition).conditions)
        return query.evaluator.results(from: try snapshots(read(selection), store: query.firestore))
    }

    package func prepareOrder(of query: Query) {
        if let page = ServerPage(query.definition) { prepareOrder(page) }
    }

    package func isWaitingForOrder(of query: Query) -> Bool {
        ServerPage(query.definition).map(isWaitingForOrder) ?? false
    }

    /// The documents the server can count or add up for `definition`: all of its matches, when
    /// it applies the whole filter exactly and no cursor or limit cuts them (an order by a
    /// field only leaves out the documents without it, which the selection does too).
    private func exactSelection(_ definition: QueryDefinition) -> ServerSelection? {
        guard definition.start == nil, definition.end == nil else { return nil }
        let (conditions, isExact) = ServerPrefilter.conditions(definition)
        return isExact ? ServerSelection(definition.source, conditions: conditions) : nil
    }

    /// With cursors (a list's position: the documents before the one shown first), counted
    /// as a page: a loose value is ordered inexactly only among values of its own kind, never
    /// across an exact cursor (`ServerOrderRank` keeps each type's place), so the rows within
    /// the cursors are exactly the query's, and a limit only caps their number. With a limit,
    /// always as a page: the server stops there instead of counting every match first (a list
    /// sizing a collection of ten million asks for 10,001).
    package func count(of query: Query) throws -> Int? {
        if query.definition.limit != nil, let page = ServerPage(query.definition) { return try count(page) }
        if let selection = exactSelection(query.definition) {
            let count = try count(selection)
            let after = max(0, count - query.definition.offset)
            return query.definition.limit.map { min($0, after) } ?? after
        }
        guard let page = ServerPage(query.definition) else { return nil }
        return try count(page)
    }

    package func aggregate(_ operations: [AggregateField.Operation], of query: Query) throws -> [AggregateField.Operation: FirestoreValue]? {
        guard query.definition.limit == nil, query.definition.offset == 0, var selection = exactSelection(query.definition) else { return nil }
        var fields: [FieldPath] = []
        for operation in operations {
            if let field = operation.field, !fields.contains(field) { fields.append(field) }
        }
        let stored = fields.compactMap(ServerPrefilter.storedField)
        guard stored.count == fields.count else { return nil }
        selection.conditions += stored.map { .present($0) }
        let sums = try sums(selection, fields: stored)
        return ServerSums.results(operations, fields: fields, sums: sums)
    }

    package func documentIDs(in collection: ResourcePath) throws -> Set<ExactID> {
        Set(try documentIDs(in: collection.description).map { ExactID($0) })
    }

    package func collectionIDs(under parent: ResourcePath) throws -> [String] {
        try collectionIDs(under: parent.description)
    }

    /// A query with a limit is a window (a page of a list): it is run again when its collection
    /// changes, so its listeners read the window, not the whole collection. Without a limit the
    /// whole collection is followed, its changed documents read one by one.
    package func watches(_ query: QueryDefinition) -> Bool { query.limit != nil }

    package func changeSource(for key: Firestore.WatchKey, store: Firestore) -> ChangeSource {
        ServerChangeFeed(server: self, key: key)
    }

    // MARK: Texts to values

    package func snapshots(_ documents: [ServerDocument], store: Firestore) -> [QueryDocumentSnapshot] {
        var scratch = DocumentParser.Scratch()
        return documents.map { document in
            QueryDocumentSnapshot(reference: DocumentReference(firestore: store, path: ResourcePath(stored: document.path)),
                                  stored: DocumentText.document(document.json, store: store, scratch: &scratch))
        }
    }
}

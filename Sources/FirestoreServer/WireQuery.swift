import DocumentStore
import FirestoreProtocol
import FirestoreWire
import Foundation

/// A `StructuredQuery` as the store's `Query`, and what the store's queries do not do
/// themselves (a projection, a collection group under a document, and then its offset and
/// limit), done here on their results. Filters, orders, cursors, the offset and the limit
/// otherwise go to the store, which checks the query as Firestore's backend does, in its words
/// (`Query.checkedAsTheBackendOnly`): a client's SDK has made its own checks already.
struct WireQuery {
    /// The store's query; nil for a query over every collection (`descendants`).
    let storeQuery: Query?
    /// The same without the offset and the limit, for a listener (the store's take no offset).
    private let unwindowedQuery: Query?
    /// A query over every collection under the parent (an empty collection_id with
    /// all_descendants, as `recursive_delete` sends), which the store's queries do not do.
    let descendants: DescendantsQuery?
    /// Results to skip before the first one returned.
    let offset: Int
    let limit: Int?
    /// Only these fields in the documents returned (nil: all).
    let projection: [FieldPath]?
    /// A collection group under a document: only results whose path starts with this.
    let under: String?
    /// What a transaction that runs the query locks against new writes: its collection, its
    /// collection group, or every collection (`TransactionLocks.Key.group("")`).
    let lockKey: TransactionLocks.Key

    init(_ wire: Google_Firestore_V1_StructuredQuery, parent: String, in database: ServedDatabase) throws(WireError) {
        try WireError.refuseUnknownFields(of: wire, in: "structured_query", known: [9: "find_nearest (vector search)"])
        let parentPath = try database.path(of: parent, field: "parent")
        guard parentPath.count % 2 == 0 else {
            throw .invalidArgument("parent: \"\(parent)\" is a collection; a query's parent is the database's documents or a document")
        }
        guard wire.from.count == 1, let from = wire.from.first else {
            throw .invalidArgument("from: a query reads exactly one collection selector, this one has \(wire.from.count)")
        }
        let values = database.values
        guard !from.collectionID.isEmpty else {
            guard from.allDescendants else {
                throw .invalidArgument("from.collection_id: empty, which is allowed only with all_descendants (every collection under the parent)")
            }
            descendants = try DescendantsQuery(wire, parent: parentPath, in: database)
            lockKey = .group("")
            storeQuery = nil
            unwindowedQuery = nil
            under = nil
            projection = try StructuredQueryCodec.projection(wire)
            (offset, limit) = try StructuredQueryCodec.offsetAndLimit(wire)
            return
        }
        descendants = nil
        let store = database.store
        var query: Query
        if from.allDescendants {
            query = store.collectionGroup(from.collectionID).checkedAsTheBackendOnly
            under = parentPath.isEmpty ? nil : parentPath.joined(separator: "/") + "/"
            lockKey = .group(from.collectionID)
        } else {
            query = store.collection((parentPath + [from.collectionID]).joined(separator: "/")).checkedAsTheBackendOnly
            under = nil
            lockKey = .collection((parentPath + [from.collectionID]).joined(separator: "/"))
        }
        query = try StructuredQueryCodec.applying(wire, to: query, values: values)
        unwindowedQuery = query
        (offset, limit) = try StructuredQueryCodec.offsetAndLimit(wire)
        // The store skips and limits only when nothing is taken out after it.
        if under == nil {
            if offset > 0 { query = query.offset(offset) }
            if let limit, limit > 0 { query = query.limit(to: limit) }
        }
        projection = try StructuredQueryCodec.projection(wire)
        storeQuery = query
    }

    /// The store's query, for what takes one (aggregations, listeners); `use` says what, for
    /// the message when there is none.
    func query(for use: String) throws(WireError) -> Query {
        guard let storeQuery else {
            throw .unimplemented("from: \(use) a query over every collection (an empty collection_id) is not supported by Shelf yet")
        }
        return storeQuery
    }

    /// What a listener listens to, and the window of each of its snapshots that the client is
    /// sent (Google's emulator serves a listener with an offset; the store's listeners take
    /// none): the skipped documents stay in the store's results, its limit widened by as many.
    func listened() throws(WireError) -> (query: Query, window: ListenWindow?) {
        guard offset > 0, under == nil, let unwindowedQuery else { return (try query(for: "listening to"), nil) }
        let window = ListenWindow(skipping: offset, keeping: limit)
        guard let limit, limit > 0 else { return (unwindowedQuery, window) }
        return (unwindowedQuery.limit(to: offset + limit), window)
    }

    /// The query's documents as Firestore returns them: offset, limit and the parent applied.
    func results() async throws -> [DocumentSnapshot] {
        if limit == 0 {
            // Nothing to read, but a query Firestore refuses is refused all the same.
            try storeQuery?.checkRunnable()
            return []
        }
        var documents: [DocumentSnapshot]
        if let descendants {
            documents = try await descendants.documents()
        } else {
            documents = try await query(for: "running").getDocuments().documents
        }
        // The store skipped and limited, unless something is taken out after it.
        guard descendants != nil || under != nil else { return documents }
        if let under { documents = documents.filter { $0.reference.path.hasPrefix(under) } }
        documents = Array(documents.dropFirst(offset))
        if let limit { documents = Array(documents.prefix(limit)) }
        return documents
    }
}

/// The part of a listened query's results that its client sees: those after the first
/// `skipping`, at most `keeping` of them.
struct ListenWindow: Sendable {
    let skipping: Int
    let keeping: Int?

    func apply(_ documents: [QueryDocumentSnapshot]) -> ArraySlice<QueryDocumentSnapshot> {
        documents.dropFirst(skipping).prefix(keeping ?? documents.count)
    }
}

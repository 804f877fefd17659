import Foundation

/// The documents of a collection, filtered, ordered and limited.
public class Query: @unchecked Sendable {
    public let firestore: Firestore
    let collectionPath: ResourcePath
    let invalid: Error?
    let filters: [(field: FieldPath, value: FirestoreValue)]
    let orders: [(field: FieldPath, descending: Bool)]
    let limit: Int?

    init(firestore: Firestore, path: ResourcePath, invalid: Error?,
         filters: [(field: FieldPath, value: FirestoreValue)] = [], orders: [(field: FieldPath, descending: Bool)] = [], limit: Int? = nil) {
        self.firestore = firestore
        self.collectionPath = path
        self.invalid = invalid
        self.filters = filters
        self.orders = orders
        self.limit = limit
    }

    private func refined(invalid: Error? = nil, filters: [(field: FieldPath, value: FirestoreValue)]? = nil,
                         orders: [(field: FieldPath, descending: Bool)]? = nil, limit: Int?? = nil) -> Query {
        Query(firestore: firestore, path: collectionPath, invalid: self.invalid ?? invalid, filters: filters ?? self.filters,
              orders: orders ?? self.orders, limit: limit ?? self.limit)
    }

    /// Documents whose `field` (a dotted path or a `FieldPath`) equals `value`.
    public func whereField(_ field: Any, isEqualTo value: Any) -> Query {
        do {
            let path = try FieldPath.from(field, document: collectionPath.description)
            let wanted = try FirestoreValue(any: value, field: path.description, document: collectionPath.description)
            return refined(filters: filters + [(path, wanted)])
        } catch {
            return refined(invalid: error)
        }
    }

    /// Orders by `field`; as in Firestore, documents without the field are left out.
    public func order(by field: Any, descending: Bool = false) -> Query {
        do {
            return refined(orders: orders + [(try FieldPath.from(field, document: collectionPath.description), descending)])
        } catch {
            return refined(invalid: error)
        }
    }

    public func limit(to count: Int) -> Query {
        guard count > 0 else {
            return refined(invalid: DocumentStoreError.invalidValue(path: collectionPath.description, field: "limit", reason: "a limit must be positive, got \(count)"))
        }
        return refined(limit: .some(count))
    }

    // MARK: Reading

    func readSnapshot() throws -> QuerySnapshot {
        if let invalid { throw publicError(invalid) }
        let documents: [ExactID: QueryDocumentSnapshot]
        do { documents = try CollectionScan.readAll(firestore: firestore, path: collectionPath) } catch { throw publicError(error) }
        let results = apply(to: documents.values)
        return QuerySnapshot(query: self, documents: results, changes: Self.allAdded(results))
    }

    public func getDocuments(source: FirestoreSource = .default, completion: @escaping (QuerySnapshot?, Error?) -> Void) {
        readInBackground(answeringOn: firestore.callbackQueue, { try self.readSnapshot() }) { result in
            completion(try? result.get(), result.failure)
        }
    }

    nonisolated(nonsending) public func getDocuments(source: FirestoreSource = .default) async throws -> QuerySnapshot {
        try await onIOQueue { try self.readSnapshot() }
    }

    // MARK: Listening

    /// Calls `listener` at once with every matching document as `.added`, then with each change.
    public func addSnapshotListener(_ listener: @escaping (QuerySnapshot?, Error?) -> Void) -> ListenerRegistration {
        addSnapshotListener(progress: nil, listener)
    }

    /// Ours: as `addSnapshotListener`, and while a large collection is first read, `progress`
    /// is called now and then with how many of its documents have been read so far.
    public func addSnapshotListener(progress: ((_ read: Int, _ total: Int) -> Void)?,
                                    _ listener: @escaping (QuerySnapshot?, Error?) -> Void) -> ListenerRegistration {
        let subscription = QuerySubscription(query: self, progress: progress, listener: listener)
        if let invalid {
            subscription.deliver(error: publicError(invalid))
            return subscription
        }
        firestore.subscribe(subscription, to: .collection(collectionPath)) {
            CollectionWatcher(firestore: firestore, path: collectionPath)
        }
        return subscription
    }

    // MARK: Evaluating

    /// The matching documents in the query's order (ties and the default order: document id,
    /// by its UTF-8 bytes, as Firestore orders ids).
    func apply(to documents: some Sequence<QueryDocumentSnapshot>) -> [QueryDocumentSnapshot] {
        var matching = documents.filter(matches)
        matching.sort(by: areInIncreasingOrder)
        if let limit, matching.count > limit { matching.removeLast(matching.count - limit) }
        return matching
    }

    func matches(_ document: QueryDocumentSnapshot) -> Bool {
        guard !filters.isEmpty || !orders.isEmpty else { return true }
        guard let fields = document.stored.fields else { return false }
        for filter in filters {
            guard let value = value(of: filter.field, in: document, fields), ValueOrder.compare(value, filter.value) == 0 else { return false }
        }
        for order in orders where value(of: order.field, in: document, fields) == nil { return false }
        return true
    }

    func areInIncreasingOrder(_ a: QueryDocumentSnapshot, _ b: QueryDocumentSnapshot) -> Bool {
        for order in orders {
            let left = a.stored.fields.flatMap { value(of: order.field, in: a, $0) }
            let right = b.stored.fields.flatMap { value(of: order.field, in: b, $0) }
            let comparison = ValueOrder.compare(left, right)
            if comparison != 0 { return order.descending ? comparison > 0 : comparison < 0 }
        }
        return a.key < b.key
    }

    /// A field's value, or the document's reference for `FieldPath.documentID()`.
    private func value(of field: FieldPath, in document: QueryDocumentSnapshot, _ fields: [String: FirestoreValue]) -> FirestoreValue? {
        field.isDocumentID ? .reference(document.reference) : fields.value(at: field.segments)
    }

    static func allAdded(_ documents: [QueryDocumentSnapshot]) -> [DocumentChange] {
        documents.enumerated().map { index, document in
            DocumentChange(type: .added, document: document, oldIndex: DocumentChange.notFound, newIndex: UInt(index))
        }
    }
}

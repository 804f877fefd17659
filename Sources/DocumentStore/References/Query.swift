import Foundation

/// The documents of a collection, filtered, ordered and limited.
public class Query: @unchecked Sendable {
    public let firestore: Firestore
    let collectionPath: ResourcePath
    let invalid: Error?
    let filters: [(field: String, value: JSONValue)]
    let orders: [(field: String, descending: Bool)]
    let limit: Int?

    init(firestore: Firestore, path: ResourcePath, invalid: Error?,
         filters: [(field: String, value: JSONValue)] = [], orders: [(field: String, descending: Bool)] = [], limit: Int? = nil) {
        self.firestore = firestore
        self.collectionPath = path
        self.invalid = invalid
        self.filters = filters
        self.orders = orders
        self.limit = limit
    }

    private func refined(invalid: Error? = nil, filters: [(field: String, value: JSONValue)]? = nil,
                         orders: [(field: String, descending: Bool)]? = nil, limit: Int?? = nil) -> Query {
        Query(firestore: firestore, path: collectionPath, invalid: self.invalid ?? invalid, filters: filters ?? self.filters,
              orders: orders ?? self.orders, limit: limit ?? self.limit)
    }

    /// Documents whose `field` (a dotted path) equals `value`.
    public func whereField(_ field: String, isEqualTo value: Any) -> Query {
        do {
            let json = try FieldConversion(documentPath: collectionPath.description, writeTime: Timestamp()).plain(value, field: field)
            return refined(filters: filters + [(field, json)])
        } catch {
            return refined(invalid: error)
        }
    }

    /// Orders by `field`; as in Firestore, documents without the field are left out.
    public func order(by field: String, descending: Bool = false) -> Query {
        refined(orders: orders + [(field, descending)])
    }

    public func limit(to count: Int) -> Query {
        guard count > 0 else {
            return refined(invalid: DocumentStoreError.invalidValue(path: collectionPath.description, field: "limit", reason: "a limit must be positive, got \(count)"))
        }
        return refined(limit: .some(count))
    }

    // MARK: Reading

    func readSnapshot() throws -> QuerySnapshot {
        if let invalid { throw invalid }
        let documents = try CollectionScan.readAll(firestore: firestore, path: collectionPath)
        let results = apply(to: documents.values)
        return QuerySnapshot(query: self, documents: results, changes: Self.allAdded(results))
    }

    public func getDocuments(completion: @escaping (QuerySnapshot?, Error?) -> Void) {
        readInBackground(answeringOn: firestore.settings.dispatchQueue, { try self.readSnapshot() }) { result in
            completion(try? result.get(), result.failure)
        }
    }

    public func getDocuments() async throws -> QuerySnapshot {
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
            subscription.deliver(error: invalid)
            return subscription
        }
        firestore.subscribe(subscription, to: .collection(collectionPath)) {
            CollectionWatcher(firestore: firestore, path: collectionPath)
        }
        return subscription
    }

    // MARK: Evaluating

    /// The matching documents in the query's order (ties and the default order: document id).
    func apply(to documents: some Sequence<QueryDocumentSnapshot>) -> [QueryDocumentSnapshot] {
        var matching = documents.filter(matches)
        matching.sort(by: areInIncreasingOrder)
        if let limit, matching.count > limit { matching.removeLast(matching.count - limit) }
        return matching
    }

    func matches(_ document: QueryDocumentSnapshot) -> Bool {
        guard !filters.isEmpty || !orders.isEmpty else { return true }
        guard let fields = document.stored.fields else { return false }
        for filter in filters where !JSONOrder.equal(fields.value(at: filter.field), filter.value) { return false }
        for order in orders where fields.value(at: order.field) == nil { return false }
        return true
    }

    func areInIncreasingOrder(_ a: QueryDocumentSnapshot, _ b: QueryDocumentSnapshot) -> Bool {
        for order in orders {
            let left = a.stored.fields?.value(at: order.field)
            let right = b.stored.fields?.value(at: order.field)
            let comparison = JSONOrder.compare(left, right)
            if comparison != 0 { return order.descending ? comparison > 0 : comparison < 0 }
        }
        return JSONOrder.compareStrings(a.documentID, b.documentID) < 0
    }

    static func allAdded(_ documents: [QueryDocumentSnapshot]) -> [DocumentChange] {
        documents.enumerated().map { index, document in
            DocumentChange(type: .added, document: document, oldIndex: DocumentChange.notFound, newIndex: UInt(index))
        }
    }
}

extension Dictionary where Key == String, Value == JSONValue {
    /// The value at a dotted field path ("cover.small").
    func value(at fieldPath: String) -> JSONValue? {
        var fields = self
        let keys = fieldPath.split(separator: ".", omittingEmptySubsequences: false)
        for key in keys.dropLast() {
            guard case .object(let nested)? = fields[String(key)] else { return nil }
            fields = nested
        }
        return fields[String(keys.last ?? "")]
    }
}

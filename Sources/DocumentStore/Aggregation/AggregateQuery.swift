import Foundation

/// Aggregations over a query's results, as Firebase's `AggregateQuery`: made by `query.count`
/// or `query.aggregate([...])`, computed by `getAggregation(source:)`.
public final class AggregateQuery: @unchecked Sendable {
    /// The query whose results are aggregated.
    public let query: Query
    /// As the caller gave them, duplicates included.
    let aggregations: [AggregateField]

    /// Firestore's limit on aggregations in one query (after duplicates are merged).
    static let maximumAggregations = 5

    init(query: Query, aggregations: [AggregateField]) {
        self.query = query
        self.aggregations = aggregations
    }

    /// Reads the query's matching documents and computes the aggregations; errors are
    /// `FirestoreErrorCode`s, `invalidArgument` for an aggregation Firestore refuses.
    public func getAggregation(source: AggregateSource, completion: @escaping (AggregateQuerySnapshot?, Error?) -> Void) {
        readInBackground(answeringOn: query.firestore.callbackQueue, { try self.readSnapshot() }) { result in
            completion(try? result.get(), result.failure)
        }
    }

    @discardableResult
    nonisolated(nonsending) public func getAggregation(source: AggregateSource) async throws -> AggregateQuerySnapshot {
        try await onIOQueue(cancellable: true) { try self.readSnapshot() }
    }

    // MARK: Reading

    /// The aggregation read here and now (the async calls run it off the caller's thread).
    package func readSnapshot() throws -> AggregateQuerySnapshot {
        let operations: [AggregateField.Operation]
        do { operations = try validated() } catch { throw publicError(error) }
        // The query's own refusals first, judged on its own orders (a cursor longer than them
        // is refused, though the aggregation orders by its fields too), as the emulator does;
        // the orders' rules after the aggregation's.
        let definition = self.query.definition
        // A descending key scan whose orders are otherwise taken is refused before the summed
        // fields' orders; one with refused orders after them (measured).
        let scan = definition.orderRefusal() == nil ? definition.descendingNameScanRefusal() : nil
        if let refused = definition.refusalBeforeOrders() ?? scan { throw refused }
        let query = try aggregated(over: operations)
        // The backend computes from the definition alone: the query's own refusals come first.
        try query.checkRunnable()
        do {
            if operations == [.count], let counted = try query.firestore.queryingStorage?.count(of: query) {
                return AggregateQuerySnapshot(query: self, results: [.count: .integer(Int64(counted))])
            }
            if operations != [.count], let results = try query.firestore.queryingStorage?.aggregate(operations, of: query) {
                return AggregateQuerySnapshot(query: self, results: results)
            }
        } catch {
            throw publicError(error)
        }
        // A document that cannot be read is counted nowhere: what it holds is not known.
        let documents = try query.readSnapshot().documents.filter { $0.stored.fields != nil }
        let fields = Set(operations.compactMap(\.field))
        let values = documents.map { document in
            var values: [FieldPath: FirestoreValue] = [:]
            for field in fields { values[field] = Self.value(of: field, in: document) }
            return values
        }
        return AggregateQuerySnapshot(query: self, results: AggregateEvaluator.evaluate(operations, over: values))
    }

    /// The query whose results are aggregated, as Firebase's SDK sends it
    /// (`core::Query::ToAggregateTarget`): its explicit orders only, so `limit(toLast:)` needs
    /// none here (a read of the query does). Without one, nothing is reversed: the limit takes
    /// the first documents in Firestore's implicit order, as the server then reads it, and the
    /// cursors trade places as they do for every `limit(toLast:)`.
    ///
    /// Then as Firestore runs it (measured on Google's emulator): each field summed or averaged
    /// is ordered by, after the explicit and inequality orders and before the document id, in
    /// field order and the last explicit order's direction; so a limit or an offset takes the
    /// documents first by those fields, and only documents holding them count.
    func aggregated(over operations: [AggregateField.Operation]) throws -> Query {
        guard query.invalid == nil else { return query }
        var definition = query.definition
        if definition.limitKind == .last, definition.limit != nil, definition.explicitOrders.isEmpty {
            definition.limitKind = .first
            (definition.start, definition.end) = (definition.end, definition.start)
        }
        let orders = definition.orders.filter { !$0.field.isDocumentID }
        var fields = Set(operations.compactMap(\.field))
        fields.subtract(orders.map(\.field))
        if !fields.isEmpty {
            let sorted = fields.sorted(by: FieldPath.precedes)
            // The name is ordered explicitly, or filtered by any operator anywhere (an OR's
            // branch too): the emulator's index would hold the fields after it (measured).
            if definition.explicitOrders.contains(where: \.field.isDocumentID)
                || definition.filters.flatMap(\.fieldFilters).contains(where: \.field.isDocumentID) {
                throw publicError(DocumentStoreError.invalidCall("This query requires an index that has fields [\(sorted.map(\.description).joined(separator: ", "))] after __name__ and Firestore does not currently support such an index. Please try the query again with additional ordering on those fields."))
            }
            let descending = definition.explicitOrders.last?.descending ?? false
            definition.explicitOrders = orders + sorted.map { OrderBy(field: $0, descending: descending) }
        }
        return Query(firestore: query.firestore, definition: definition, invalid: nil)
    }

    /// The aggregations without duplicates, in the order first given, after Firestore's checks:
    /// valid field paths, at least one aggregation, at most five.
    func validated() throws(DocumentStoreError) -> [AggregateField.Operation] {
        if let invalid = aggregations.first(where: { $0.invalid != nil }) {
            throw .invalidCall("\(invalid.kindName): \(invalid.invalid!)")
        }
        var operations: [AggregateField.Operation] = []
        for aggregation in aggregations where !operations.contains(aggregation.operation) {
            operations.append(aggregation.operation)
        }
        if operations.contains(where: { $0.field?.isDocumentID == true }) {
            // In Google's emulator's words, which name the document id as its storage does.
            throw .invalidCall("Aggregations are not supported for the property: __key__")
        }
        guard !operations.isEmpty else {
            throw .invalidCall("Aggregations can not be empty: give aggregate(_:) at least one AggregateField")
        }
        guard operations.count <= Self.maximumAggregations else {
            throw .invalidCall("an aggregation query has \(operations.count) different aggregations; the maximum number of aggregations is \(Self.maximumAggregations)")
        }
        return operations
    }

    /// A field's value, or the document's reference for `FieldPath.documentID()`.
    private static func value(of field: FieldPath, in document: QueryDocumentSnapshot) -> FirestoreValue? {
        field.isDocumentID ? .reference(document.reference) : document.stored.fields?.value(at: field.segments)
    }
}

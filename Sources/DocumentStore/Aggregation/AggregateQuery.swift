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
        let query = aggregated
        // The backend computes from the definition alone: the query's own refusals come first.
        try query.checkRunnable()
        do {
            if operations == [.count], let counted = try query.firestore.backend.count(of: query) {
                return AggregateQuerySnapshot(query: self, results: [.count: .integer(Int64(counted))])
            }
            if operations != [.count], let results = try query.firestore.backend.aggregate(operations, of: query) {
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
    var aggregated: Query {
        var definition = query.definition
        guard query.invalid == nil, definition.limitKind == .last, definition.limit != nil, definition.explicitOrders.isEmpty else { return query }
        definition.limitKind = .first
        (definition.start, definition.end) = (definition.end, definition.start)
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

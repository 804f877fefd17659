/// `==` as Firebase's `isEqual:`: aggregate queries are equal when their queries are and they
/// ask for the same aggregations (in any order, duplicates merged); snapshots when their
/// aggregate queries are and every result is the same value.
extension AggregateQuery: Hashable {
    private var operationSet: Set<AggregateField.Operation> { Set(aggregations.map(\.operation)) }

    public static func == (a: AggregateQuery, b: AggregateQuery) -> Bool {
        a.query == b.query && a.operationSet == b.operationSet
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(query)
        hasher.combine(operationSet)
    }
}

extension AggregateQuerySnapshot: Hashable {
    public static func == (a: AggregateQuerySnapshot, b: AggregateQuerySnapshot) -> Bool {
        a.query == b.query && a.results == b.results
    }

    /// Hashes what `==` compares, the results too, so that snapshots of other counts or
    /// sums do not all share one hash.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(query)
        hasher.combine(results)
    }
}

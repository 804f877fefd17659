/// Aggregations on every query, as Firebase's `Query.count` and `Query.aggregate(_:)`.
extension Query {
    /// The number of documents the query matches, computed without handing them back.
    public var count: AggregateQuery { AggregateQuery(query: self, aggregations: [.count()]) }

    /// `count()`, `sum(_:)` and `average(_:)` of the query's matching documents, up to five at
    /// once. Checked when run: `getAggregation` reports an empty list, more than five, or a field
    /// path Firestore refuses as `invalidArgument`.
    @discardableResult
    public func aggregate(_ aggregateFields: [AggregateField]) -> AggregateQuery {
        AggregateQuery(query: self, aggregations: aggregateFields)
    }
}

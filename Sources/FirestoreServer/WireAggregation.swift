import DocumentStore
import FirestoreProtocol
import Foundation

/// A `StructuredAggregationQuery`'s aggregations (count with its `up_to`, sum, avg, each under
/// its alias) computed by the store's own `AggregateQuery`, which counts and sums without
/// reading every document where the backend can.
struct WireAggregation {
    let aggregations: [Google_Firestore_V1_StructuredAggregationQuery.Aggregation]

    init(_ aggregations: [Google_Firestore_V1_StructuredAggregationQuery.Aggregation]) {
        self.aggregations = aggregations
    }

    func results(of query: WireQuery, values: WireValues) async throws -> [String: Google_Firestore_V1_Value] {
        guard !aggregations.isEmpty else { throw WireError.invalidArgument("aggregations: at least one aggregation is needed") }
        guard aggregations.count <= 5 else {
            throw WireError.invalidArgument("aggregations: a query takes at most 5 aggregations, this one has \(aggregations.count)")
        }
        guard query.offset == 0, query.under == nil else {
            throw WireError.unimplemented("an aggregation over a query with an offset or a collection group under a document is not supported by Shelf yet")
        }
        var results: [String: Google_Firestore_V1_Value] = [:]
        for (index, aggregation) in aggregations.enumerated() {
            let alias = aggregation.alias.isEmpty ? "field_\(index + 1)" : aggregation.alias
            guard results[alias] == nil else { throw WireError.invalidArgument("aggregations[\(index)].alias: \"\(alias)\" is used twice") }
            var target = try query.query(for: "aggregating")
            let field: AggregateField
            switch aggregation.operator {
            case nil:
                throw WireError.invalidArgument("aggregations[\(index)]: an aggregation must be count, sum or avg")
            case .count(let count):
                if count.hasUpTo {
                    guard count.upTo.value > 0 else { throw WireError.invalidArgument("aggregations[\(index)].count.up_to: must be positive, got \(count.upTo.value)") }
                    target = target.limit(to: Int(min(count.upTo.value, Int64(query.limit ?? Int.max))))
                }
                field = .count()
            case .sum(let sum):
                field = .sum(try FieldPathText.parse(sum.field.fieldPath, field: "aggregations[\(index)].sum.field"))
            case .avg(let avg):
                field = .average(try FieldPathText.parse(avg.field.fieldPath, field: "aggregations[\(index)].avg.field"))
            }
            let snapshot = try await target.aggregate([field]).getAggregation(source: .server)
            results[alias] = values.wire(snapshot.value(of: field) ?? .null)
        }
        return results
    }
}

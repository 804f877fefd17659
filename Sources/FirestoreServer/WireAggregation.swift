import DocumentStore
import FirestoreProtocol
import FirestoreWire
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
        guard !aggregations.isEmpty else { throw WireError.invalidArgument("Aggregations can not be empty.") }
        // Google's emulator fails with UNKNOWN here; Firestore's documented limit is five.
        guard aggregations.count <= 5 else {
            throw WireError.invalidArgument("aggregations: a query takes at most 5 aggregations, this one has \(aggregations.count)")
        }
        guard query.under == nil else {
            throw WireError.unimplemented("an aggregation over a collection group under a document is not supported by Shelf yet")
        }
        var fields: [(alias: String, field: AggregateField, upTo: Int64?)] = []
        for (index, aggregation) in aggregations.enumerated() {
            let alias = aggregation.alias.isEmpty ? "field_\(index + 1)" : aggregation.alias
            // The checks and their words are Google's emulator's (measured).
            if WriteLimits.isReserved(alias) { throw WireError.invalidArgument("The property.name \"\(alias)\" is reserved.") }
            guard !fields.contains(where: { $0.alias == alias }) else {
                throw WireError.invalidArgument("Aggregation aliases contain duplicate alias: \(alias).")
            }
            switch aggregation.operator {
            case nil:
                throw WireError.invalidArgument("Operator field in Aggregation is not set.")
            case .count(let count):
                if count.hasUpTo, count.upTo.value < 0 {
                    throw WireError.invalidArgument("The `up_to` value in a COUNT aggregation must be greater than or equal to zero.")
                }
                fields.append((alias, .count(), count.hasUpTo ? count.upTo.value : nil))
            case .sum(let sum):
                fields.append((alias, .sum(try FieldPath.parse(sum.field.fieldPath, field: "aggregations[\(index)].sum.field")), nil))
            case .avg(let avg):
                fields.append((alias, .average(try FieldPath.parse(avg.field.fieldPath, field: "aggregations[\(index)].avg.field")), nil))
            }
        }
        let target = try query.query(for: "aggregating")
        var results: [String: Google_Firestore_V1_Value] = [:]
        if query.limit == 0 {
            // Over no document, but a query Firestore refuses is refused all the same.
            _ = try await target.aggregate(fields.map(\.field)).getAggregation(source: .server)
            for (alias, field, _) in fields { results[alias] = values.wire(field.valueOverNoDocuments) }
            return results
        }
        // Together, as Firestore computes them: a document missing one of the fields is left
        // out of every result. A count with `up_to` counts on its own, cut at its bound.
        let together = fields.filter { $0.upTo == nil }
        var counted: Int64?
        if !together.isEmpty {
            // A count with `up_to` beside them counts the same documents, cut at its bound.
            let all = AggregateField.count()
            let snapshot = try await target.aggregate(together.map(\.field) + [all]).getAggregation(source: .server)
            for (alias, field, _) in together { results[alias] = values.wire(snapshot.value(of: field) ?? .null) }
            if case .integer(let count)? = snapshot.value(of: all) { counted = count }
        }
        for (alias, field, upTo) in fields {
            guard let upTo else { continue }
            if let counted {
                results[alias] = values.wire(.integer(min(upTo, counted)))
                continue
            }
            guard upTo > 0 else {
                results[alias] = values.wire(.integer(0))
                continue
            }
            let snapshot = try await target.limit(to: Int(min(upTo, Int64(query.limit ?? Int.max)))).aggregate([field]).getAggregation(source: .server)
            results[alias] = values.wire(snapshot.value(of: field) ?? .null)
        }
        return results
    }
}

/// Computes aggregations over documents' values, as pure functions: no files, no queries.
enum AggregateEvaluator {
    /// The result of each operation over `documents`, where each document is given as the values
    /// it holds at the aggregated fields (a field it lacks is absent).
    ///
    /// As in Firestore (standard edition), when sums or averages are asked for, only documents
    /// that have every aggregated field (of any type, null included) take part, in the count too;
    /// sums and averages then skip the values that are not numbers.
    static func evaluate(_ operations: [AggregateField.Operation],
                         over documents: [[FieldPath: FirestoreValue]]) -> [AggregateField.Operation: FirestoreValue] {
        let fields = Set(operations.compactMap(\.field))
        let taking = documents.filter { values in fields.allSatisfy { values[$0] != nil } }
        var sums: [FieldPath: NumericSum] = [:]
        for field in fields {
            var sum = NumericSum()
            for values in taking { sum.add(values[field]!) }
            sums[field] = sum
        }
        var results: [AggregateField.Operation: FirestoreValue] = [:]
        for operation in operations {
            switch operation {
            case .count: results[operation] = .integer(Int64(taking.count))
            case .sum(let field): results[operation] = sums[field]!.total
            case .average(let field): results[operation] = sums[field]!.average
            }
        }
        return results
    }
}

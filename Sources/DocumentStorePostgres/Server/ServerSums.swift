import DocumentStore
/// The numbers of some fields, added up by a database server over a selection's documents:
/// enough for `results` to give what `AggregateEvaluator` gives over the same documents, or to
/// tell that it cannot (doubles whose plain sum rounds, which `NumericSum` adds with
/// compensation).
package struct ServerSums: Sendable, Equatable {
    /// How many documents have every field.
    package var documents: Int
    /// One for each field, in the order asked.
    package var fields: [Field]

    package init(documents: Int, fields: [Field]) {
        self.documents = documents
        self.fields = fields
    }

    /// One field's numbers, by how `DocumentJSON` reads them.
    package struct Field: Sendable, Equatable {
        /// Integers (numbers without a fraction that fit 64 bits): how many, and their exact
        /// sum as `wraps * 2^64 + low`, `low` in Int64's range (as `NumericSum` keeps it).
        package var integers: Int
        package var low: Int64
        package var wraps: Int
        /// Doubles: how many, and their sum as doubles added one by one in the order of the
        /// documents' paths, Firestore's (`IDOrder`) (-0.0 for none).
        package var doubles: Int
        package var pathOrderSum: Double
        /// True when that sum is the same in every order: the doubles are whole and their
        /// magnitudes add up to less than 2^53, so no addition rounds.
        package var orderFree: Bool
        /// Values the server could not read as doubles as the client does: the sum is unknown.
        package var unreadable: Int

        package init(integers: Int, low: Int64, wraps: Int, doubles: Int, pathOrderSum: Double, orderFree: Bool, unreadable: Int) {
            (self.integers, self.low, self.wraps) = (integers, low, wraps)
            (self.doubles, self.pathOrderSum, self.orderFree, self.unreadable) = (doubles, pathOrderSum, orderFree, unreadable)
        }

        /// The `NumericSum` that adding the numbers one by one would give, when known: the
        /// server adds doubles plainly, `NumericSum` with compensation (as Firestore does), and
        /// the two agree only where no addition rounds.
        func numericSum() -> NumericSum? {
            guard unreadable == 0, doubles == 0 || orderFree else { return nil }
            return NumericSum(integers: integers, low: low, wraps: wraps, doubles: doubles, doubleTotal: doubles == 0 ? 0.0 : pathOrderSum)
        }
    }

    /// `AggregateEvaluator`'s results from these sums (`fields[i]` being `fields` of the
    /// query's), or nil when they cannot be told exactly.
    static func results(_ operations: [AggregateField.Operation], fields: [FieldPath], sums: ServerSums) -> [AggregateField.Operation: FirestoreValue]? {
        var results: [AggregateField.Operation: FirestoreValue] = [:]
        for operation in operations {
            guard let field = operation.field else {
                results[operation] = .integer(Int64(sums.documents))
                continue
            }
            guard let index = fields.firstIndex(of: field), index < sums.fields.count,
                  let sum = sums.fields[index].numericSum() else { return nil }
            results[operation] = operation == .sum(field) ? sum.total : sum.average
        }
        return results
    }
}

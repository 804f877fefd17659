/// The numbers of some fields, added up by a database server over a selection's documents:
/// enough for `results` to give what `AggregateEvaluator` gives over the same documents, or to
/// tell that it cannot (a double sum whose rounding depends on the order of the additions).
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
        /// The other plain numbers (doubles): how many, their exact sum and the sum of their
        /// magnitudes (decimals), and whether every one is whole.
        package var doubles: Int
        package var doubleSum: String
        package var doubleMagnitude: String
        package var doublesWhole: Bool
        /// Numbers stored tagged: NaN, ±Infinity, -0.0.
        package var tagged: Int

        package init(integers: Int, low: Int64, wraps: Int, doubles: Int, doubleSum: String,
                     doubleMagnitude: String, doublesWhole: Bool, tagged: Int) {
            (self.integers, self.low, self.wraps) = (integers, low, wraps)
            (self.doubles, self.doubleSum, self.doubleMagnitude, self.doublesWhole) = (doubles, doubleSum, doubleMagnitude, doublesWhole)
            self.tagged = tagged
        }

        /// The sum of the doubles as `NumericSum` adds them one by one: exact in any order
        /// when they are whole and their magnitudes add up to less than 2^53 (every partial sum
        /// is then a double exactly); nil otherwise.
        var exactDoubleSum: Double? {
            guard tagged == 0 else { return nil }
            guard doubles > 0 else { return -0.0 }
            guard doublesWhole, let magnitude = Double(doubleMagnitude), magnitude < ServerOrderRank.largeNumber,
                  let sum = Double(doubleSum) else { return nil }
            return sum
        }
    }

    /// `AggregateEvaluator`'s results from these sums (`fields[i]` being `fields` of the
    /// query's), or nil when they cannot be told exactly.
    static func results(_ operations: [AggregateField.Operation], fields: [FieldPath],
                        sums: ServerSums) -> [AggregateField.Operation: FirestoreValue]? {
        var results: [AggregateField.Operation: FirestoreValue] = [:]
        for operation in operations {
            guard let field = operation.field else {
                results[operation] = .integer(Int64(sums.documents))
                continue
            }
            guard let index = fields.firstIndex(of: field), index < sums.fields.count,
                  let sum = sums.fields[index].numericSum else { return nil }
            results[operation] = operation == .sum(field) ? sum.total : sum.average
        }
        return results
    }
}

extension ServerSums.Field {
    /// The `NumericSum` that adding the numbers one by one would give.
    var numericSum: NumericSum? {
        guard let doubles = exactDoubleSum else { return nil }
        return NumericSum(integers: integers, low: low, wraps: wraps, doubles: self.doubles, doubleTotal: doubles)
    }
}

import Foundation

/// The results of an `AggregateQuery`, as Firebase's `AggregateQuerySnapshot`.
public final class AggregateQuerySnapshot: @unchecked Sendable {
    /// The aggregate query that produced these results.
    public let query: AggregateQuery
    let results: [AggregateField.Operation: FirestoreValue]

    init(query: AggregateQuery, results: [AggregateField.Operation: FirestoreValue]) {
        self.query = query
        self.results = results
    }

    /// The number of documents counted by `AggregateField.count()`. Asking for it when the query
    /// did not request `count()` is a programming error (Firebase raises an exception): here it
    /// is said on standard error and the count reads 0, rather than stopping the program.
    public var count: NSNumber {
        self.get(.count()) as? NSNumber ?? 0
    }

    /// The result of `aggregateField` as Firebase gives it: an `NSNumber` holding an `Int64` or
    /// a `Double`, or `NSNull` for the average of no numbers. A field the query did not request
    /// is a programming error (Firebase raises an exception): here it is said on standard error,
    /// with Firebase's message, and the result is `NSNull`, rather than stopping the program.
    public func get(_ aggregateField: AggregateField) -> Any {
        do {
            return try result(for: aggregateField).anyValue
        } catch {
            FileHandle.standardError.write(Data("DocumentStore: \(error.description)\n".utf8))
            return NSNull()
        }
    }

    /// The result of a requested aggregation as the store holds it (nil: not requested), for
    /// `shelf serve`'s responses.
    package func value(of aggregateField: AggregateField) -> FirestoreValue? {
        try? result(for: aggregateField)
    }

    /// The result, or the `invalidArgument` error Firebase raises for one not requested.
    func result(for aggregateField: AggregateField) throws(DocumentStoreError) -> FirestoreValue {
        guard aggregateField.invalid == nil, let value = results[aggregateField.operation] else {
            throw .invalidCall("'\(aggregateField)' was not requested in the aggregation query.")
        }
        return value
    }
}

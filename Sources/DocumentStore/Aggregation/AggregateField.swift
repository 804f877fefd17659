import Foundation

/// One aggregation of an `AggregateQuery`, as Firebase's `AggregateField`: `count()`, or the
/// `sum(_:)` or `average(_:)` of a field given as a dotted string or a `FieldPath`.
///
/// A dotted string Firestore refuses (`"a..b"`, `"a/b"`) cannot throw here, where Firebase raises
/// an exception; `getAggregation` reports it as `invalidArgument` instead.
public final class AggregateField: Hashable, CustomStringConvertible, @unchecked Sendable {
    /// What is computed, and over which field.
    package enum Operation: Hashable {
        case count
        case sum(FieldPath)
        case average(FieldPath)

        package var field: FieldPath? {
            switch self {
            case .count: return nil
            case .sum(let field), .average(let field): return field
            }
        }
    }

    let operation: Operation

    /// What it is over no documents (0, 0, null), for a server to answer a query limited to
    /// none without reading.
    package var valueOverNoDocuments: FirestoreValue {
        AggregateEvaluator.evaluate([operation], over: [])[operation] ?? .null
    }

    /// Why the field, given as text, is not a path Firestore takes; nil when it is.
    let invalid: String?

    private init(_ operation: Operation, invalid: String? = nil) {
        self.operation = operation
        self.invalid = invalid
    }

    /// The number of documents the query matches; always an integer.
    public class func count() -> AggregateField { AggregateField(.count) }

    /// The sum of the field's numbers: an integer while every number is an integer and the total
    /// fits in 64 bits, a double otherwise; 0 over no numbers; NaN if one of them is NaN.
    public class func sum(_ field: String) -> AggregateField { parsed(field, as: Operation.sum) }

    public class func sum(_ fieldPath: FieldPath) -> AggregateField { checked(fieldPath, as: Operation.sum) }

    /// The average of the field's numbers, always a double; null (`NSNull`) over no numbers.
    public class func average(_ field: String) -> AggregateField { parsed(field, as: Operation.average) }

    public class func average(_ fieldPath: FieldPath) -> AggregateField { checked(fieldPath, as: Operation.average) }

    /// Firebase's name for the aggregation, used in its messages: `count()`, `sum(pages)`,
    /// `avg(meta.pages)`.
    public var description: String {
        switch operation {
        case .count: return "count()"
        case .sum(let field): return "sum(\(field))"
        case .average(let field): return "avg(\(field))"
        }
    }

    public static func == (a: AggregateField, b: AggregateField) -> Bool {
        a.operation == b.operation && a.invalid == b.invalid
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(operation)
        hasher.combine(invalid)
    }

    /// The aggregation as written, for messages about a field that was refused.
    var kindName: String {
        switch operation {
        case .count: return "count()"
        case .sum: return "AggregateField.sum"
        case .average: return "AggregateField.average"
        }
    }

    // MARK: Field paths as Firestore checks them

    /// Firestore's longest field path, in UTF-8 bytes.
    static let maximumPathBytes = 1500

    private static func parsed(_ text: String, as operation: (FieldPath) -> Operation) -> AggregateField {
        do {
            return checked(try FieldPath.from(text, document: ""), as: operation)
        } catch {
            let reason: String
            if case .invalidValue(_, _, let why) = error { reason = why } else { reason = error.description }
            return AggregateField(operation(FieldPath([text])), invalid: "invalid field path \"\(text)\": \(reason)")
        }
    }

    private static func checked(_ path: FieldPath, as operation: (FieldPath) -> Operation) -> AggregateField {
        if path.segments.isEmpty || path.segments.contains(where: \.isEmpty) {
            return AggregateField(operation(path), invalid: "invalid field path \(path.segments): a field path cannot be empty or have empty parts")
        }
        // The path's own bytes, dots between: the backticks of its quoted form do not count.
        let bytes = path.segments.reduce(path.segments.count - 1) { $0 + $1.utf8.count }
        if bytes > maximumPathBytes {
            return AggregateField(operation(path), invalid: "the field path \(String(path.description.prefix(40)))... is \(bytes) bytes; Firestore takes at most \(maximumPathBytes)")
        }
        return AggregateField(operation(path))
    }
}

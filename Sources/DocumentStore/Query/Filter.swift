import Foundation

/// A condition for `whereFilter(_:)`, as Firebase's `Filter`: field conditions joined with
/// `andFilter` and `orFilter`, nested at will. A bad field or value is kept and reported by the
/// query that uses the filter.
public final class Filter: @unchecked Sendable {
    indirect enum Node {
        case field(FieldPath, FilterOperator, FirestoreValue)
        case and([Node])
        case or([Node])
    }

    let node: Node
    let invalid: Error?

    private init(node: Node, invalid: Error?) {
        self.node = node
        self.invalid = invalid
    }

    package static func make(_ field: Any, _ op: FilterOperator, _ value: Any) -> Filter {
        do {
            let path = try FieldPath.from(field, document: "a query")
            let converted = try FirestoreValue(any: value, field: path.description, document: "a query's '\(op.rawValue)' filter")
            return Filter(node: .field(path, op, converted.withTimestampsInMicroseconds), invalid: nil)
        } catch {
            return Filter(node: .and([]), invalid: publicError(error))
        }
    }

    @discardableResult
    public static func whereField(_ field: String, isEqualTo value: Any) -> Filter { make(field, .equal, value) }
    @discardableResult
    public static func whereField(_ path: FieldPath, isEqualTo value: Any) -> Filter { make(path, .equal, value) }
    @discardableResult
    public static func whereField(_ field: String, isNotEqualTo value: Any) -> Filter { make(field, .notEqual, value) }
    @discardableResult
    public static func whereField(_ path: FieldPath, isNotEqualTo value: Any) -> Filter { make(path, .notEqual, value) }
    @discardableResult
    public static func whereField(_ field: String, isLessThan value: Any) -> Filter { make(field, .lessThan, value) }
    @discardableResult
    public static func whereField(_ path: FieldPath, isLessThan value: Any) -> Filter { make(path, .lessThan, value) }
    @discardableResult
    public static func whereField(_ field: String, isLessThanOrEqualTo value: Any) -> Filter { make(field, .lessThanOrEqual, value) }
    @discardableResult
    public static func whereField(_ path: FieldPath, isLessThanOrEqualTo value: Any) -> Filter { make(path, .lessThanOrEqual, value) }
    @discardableResult
    public static func whereField(_ field: String, isGreaterThan value: Any) -> Filter { make(field, .greaterThan, value) }
    @discardableResult
    public static func whereField(_ path: FieldPath, isGreaterThan value: Any) -> Filter { make(path, .greaterThan, value) }
    /// `isGreaterOrEqualTo`, not `isGreaterThanOrEqualTo`: `FIRFilter.h` names it so (unlike `Query`'s).
    @discardableResult
    public static func whereField(_ field: String, isGreaterOrEqualTo value: Any) -> Filter { make(field, .greaterThanOrEqual, value) }
    @discardableResult
    public static func whereField(_ path: FieldPath, isGreaterOrEqualTo value: Any) -> Filter { make(path, .greaterThanOrEqual, value) }
    @discardableResult
    public static func whereField(_ field: String, arrayContains value: Any) -> Filter { make(field, .arrayContains, value) }
    @discardableResult
    public static func whereField(_ path: FieldPath, arrayContains value: Any) -> Filter { make(path, .arrayContains, value) }
    @discardableResult
    public static func whereField(_ field: String, arrayContainsAny values: [Any]) -> Filter { make(field, .arrayContainsAny, values) }
    @discardableResult
    public static func whereField(_ path: FieldPath, arrayContainsAny values: [Any]) -> Filter { make(path, .arrayContainsAny, values) }
    @discardableResult
    public static func whereField(_ field: String, in values: [Any]) -> Filter { make(field, .in, values) }
    @discardableResult
    public static func whereField(_ path: FieldPath, in values: [Any]) -> Filter { make(path, .in, values) }
    @discardableResult
    public static func whereField(_ field: String, notIn values: [Any]) -> Filter { make(field, .notIn, values) }
    @discardableResult
    public static func whereField(_ path: FieldPath, notIn values: [Any]) -> Filter { make(path, .notIn, values) }

    /// Documents matching every one of `filters`.
    @discardableResult
    public static func andFilter(_ filters: [Filter]) -> Filter {
        Filter(node: .and(filters.map(\.node)), invalid: filters.lazy.compactMap(\.invalid).first)
    }

    /// Documents matching at least one of `filters`.
    @discardableResult
    public static func orFilter(_ filters: [Filter]) -> Filter {
        Filter(node: .or(filters.map(\.node)), invalid: filters.lazy.compactMap(\.invalid).first)
    }

    /// The engine's filter for `definition`: document ids become references to documents
    /// under the query's path, and checked as Firestore checks them.
    func resolved(for definition: QueryDefinition, firestore: Firestore) throws -> QueryFilter {
        if let invalid { throw invalid }
        return try Self.resolve(node, definition, firestore)
    }

    private static func resolve(_ node: Node, _ definition: QueryDefinition, _ firestore: Firestore) throws(FirestoreErrorCode) -> QueryFilter {
        switch node {
        case .and(let nodes): return .and(try nodes.map { node throws(FirestoreErrorCode) in try resolve(node, definition, firestore) })
        case .or(let nodes): return .or(try nodes.map { node throws(FirestoreErrorCode) in try resolve(node, definition, firestore) })
        case .field(let path, let op, var value):
            if path.isDocumentID && definition.checksArguments {
                if op.isArrayMembership {
                    throw QueryDefinition.invalid("You can't perform '\(op.rawValue)' queries on document ID since document IDs are not arrays.")
                }
                if op.takesArray, case .array(let items) = value {
                    value = .array(try items.map { item throws(FirestoreErrorCode) in try definition.documentIDValue(item, firestore: firestore) })
                } else {
                    value = try definition.documentIDValue(value, firestore: firestore)
                }
            }
            return .field(FieldFilter(field: path, op: op, value: value))
        }
    }
}

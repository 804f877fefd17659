/// The operators of `whereField`, named as the Swift API names them, so messages say what the
/// caller wrote.
package enum FilterOperator: String, Hashable, Sendable, CaseIterable {
    case equal = "isEqualTo"
    case notEqual = "isNotEqualTo"
    case lessThan = "isLessThan"
    case lessThanOrEqual = "isLessThanOrEqualTo"
    case greaterThan = "isGreaterThan"
    case greaterThanOrEqual = "isGreaterThanOrEqualTo"
    case arrayContains
    case arrayContainsAny
    case `in`
    case notIn

    /// Inequalities order the results by their field implicitly, as Firestore does.
    var isInequality: Bool {
        switch self {
        case .notEqual, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .notIn: return true
        default: return false
        }
    }

    var isRange: Bool {
        switch self {
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual: return true
        default: return false
        }
    }

    /// Operators that take an array of values.
    var takesArray: Bool { self == .arrayContainsAny || self == .in || self == .notIn }

    var isArrayMembership: Bool { self == .arrayContains || self == .arrayContainsAny }

    /// The filters Firestore's backend allows one of per query: `NOT_EQUAL`, `NOT_IN`, and the
    /// unary `IS_NOT_NAN` and `IS_NOT_NULL`, which are `isNotEqualTo` NaN and null here.
    var excludes: Bool { self == .notEqual || self == .notIn }

    /// The protocol's name and number (`StructuredQuery.FieldFilter.Operator`): the one table
    /// the server, the client and bundles read and write operators with; the backend's
    /// messages use the name.
    package var protocolName: String { protocolEntry.name }
    package var protocolNumber: Int { protocolEntry.number }

    package init?(protocolName name: String) {
        guard let op = Self.allCases.first(where: { $0.protocolName == name }) else { return nil }
        self = op
    }

    package init?(protocolNumber number: Int) {
        guard let op = Self.allCases.first(where: { $0.protocolNumber == number }) else { return nil }
        self = op
    }

    private var protocolEntry: (name: String, number: Int) {
        switch self {
        case .lessThan: return ("LESS_THAN", 1)
        case .lessThanOrEqual: return ("LESS_THAN_OR_EQUAL", 2)
        case .greaterThan: return ("GREATER_THAN", 3)
        case .greaterThanOrEqual: return ("GREATER_THAN_OR_EQUAL", 4)
        case .equal: return ("EQUAL", 5)
        case .notEqual: return ("NOT_EQUAL", 6)
        case .arrayContains: return ("ARRAY_CONTAINS", 7)
        case .in: return ("IN", 8)
        case .arrayContainsAny: return ("ARRAY_CONTAINS_ANY", 9)
        case .notIn: return ("NOT_IN", 10)
        }
    }

    /// Operators a query may not combine with this one (Firestore's rules: one `notIn` at most,
    /// and never with `isNotEqualTo`, `in` or `arrayContainsAny`; one `isNotEqualTo` at most).
    var conflicting: [FilterOperator] {
        switch self {
        case .notEqual: return [.notEqual, .notIn]
        case .in, .arrayContainsAny: return [.notIn]
        case .notIn: return [.arrayContainsAny, .in, .notIn, .notEqual]
        default: return []
        }
    }
}

/// Firestore's unary filters (`StructuredQuery.UnaryFilter.Operator`, with the protocol's
/// numbers), which the store holds as field filters: equality with null or NaN. Firestore's
/// SDKs send those equalities so, and the server reads them so.
package enum UnaryFilterOperator: Int, CaseIterable, Sendable {
    case isNaN = 2, isNull = 3, isNotNaN = 4, isNotNull = 5

    package var protocolName: String {
        switch self {
        case .isNaN: return "IS_NAN"
        case .isNull: return "IS_NULL"
        case .isNotNaN: return "IS_NOT_NAN"
        case .isNotNull: return "IS_NOT_NULL"
        }
    }

    package init?(protocolName name: String) {
        guard let op = Self.allCases.first(where: { $0.protocolName == name }) else { return nil }
        self = op
    }

    /// The field filter the store holds it as.
    package var fieldFilter: (op: FilterOperator, value: FirestoreValue) {
        switch self {
        case .isNaN: return (.equal, .double(.nan))
        case .isNull: return (.equal, .null)
        case .isNotNaN: return (.notEqual, .double(.nan))
        case .isNotNull: return (.notEqual, .null)
        }
    }

    /// The unary filter a field filter is sent as, if it is one.
    package init?(_ op: FilterOperator, _ value: FirestoreValue) {
        switch (op, value) {
        case (.equal, .null): self = .isNull
        case (.notEqual, .null): self = .isNotNull
        case (.equal, .double(let d)) where d.isNaN: self = .isNaN
        case (.notEqual, .double(let d)) where d.isNaN: self = .isNotNaN
        default: return nil
        }
    }
}

/// The operators of `whereField`, named as the Swift API names them, so messages say what the
/// caller wrote.
package enum FilterOperator: String, Hashable, Sendable {
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

    /// The protocol's name (`StructuredQuery.FieldFilter.Operator`), which the backend's
    /// messages use.
    var protocolName: String {
        switch self {
        case .equal: return "EQUAL"
        case .notEqual: return "NOT_EQUAL"
        case .lessThan: return "LESS_THAN"
        case .lessThanOrEqual: return "LESS_THAN_OR_EQUAL"
        case .greaterThan: return "GREATER_THAN"
        case .greaterThanOrEqual: return "GREATER_THAN_OR_EQUAL"
        case .arrayContains: return "ARRAY_CONTAINS"
        case .arrayContainsAny: return "ARRAY_CONTAINS_ANY"
        case .in: return "IN"
        case .notIn: return "NOT_IN"
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

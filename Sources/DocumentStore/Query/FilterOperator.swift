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

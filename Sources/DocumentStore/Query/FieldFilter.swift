/// One `whereField` condition, evaluated as Firestore evaluates it: a field of another type
/// never satisfies a range; `isNotEqualTo` and `notIn` need the field present and not null;
/// null and NaN match only `isEqualTo` (and their own exclusion by `isNotEqualTo`/`notIn`),
/// never `in`, `arrayContains` or `arrayContainsAny`; a non-array never satisfies an array
/// operator.
package struct FieldFilter: Sendable {
    package let field: FieldPath
    package let op: FilterOperator
    /// For `in`, `notIn` and `arrayContainsAny`: an array of the values.
    package let value: FirestoreValue

    func matches(_ document: QueryDocumentSnapshot) -> Bool {
        guard let actual = DocumentValues.value(of: field, in: document) else { return false }
        switch op {
        case .equal:
            return ValueOrder.compare(actual, value) == 0
        case .notEqual:
            return !actual.isNull && ValueOrder.compare(actual, value) != 0
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            // Same type only; and NaN is below, above or equal to nothing here, as on Firestore's
            // server (its order still sorts NaN first).
            guard actual.typeOrder == value.typeOrder, !actual.isNaN else { return false }
            let order = ValueOrder.compare(actual, value)
            switch op {
            case .lessThan: return order < 0
            case .lessThanOrEqual: return order <= 0
            case .greaterThan: return order > 0
            default: return order >= 0
            }
        case .arrayContains:
            guard case .array(let items) = actual else { return false }
            return items.contains { Self.isMember($0, of: value) }
        case .arrayContainsAny:
            guard case .array(let items) = actual, case .array(let wanted) = value else { return false }
            return items.contains { item in wanted.contains { Self.isMember(item, of: $0) } }
        case .in:
            guard case .array(let wanted) = value else { return false }
            return wanted.contains { Self.isMember(actual, of: $0) }
        case .notIn:
            guard case .array(let unwanted) = value, !actual.isNull else { return false }
            if unwanted.contains(where: \.isNull) { return false }
            return !unwanted.contains { ValueOrder.compare(actual, $0) == 0 }
        }
    }

    /// Membership as Firestore's indexes see it: equal values, where null and NaN equal nothing.
    private static func isMember(_ item: FirestoreValue, of wanted: FirestoreValue) -> Bool {
        guard !wanted.isNull, !wanted.isNaN else { return false }
        return ValueOrder.compare(item, wanted) == 0
    }
}

extension FirestoreValue {
    package var isNull: Bool { if case .null = self { return true } else { return false } }
    package var isNaN: Bool { if case .double(let d) = self { return d.isNaN } else { return false } }
}

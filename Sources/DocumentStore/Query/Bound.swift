/// A cursor: a position given by one value per order (`start(at:)`, `start(afterDocument:)`...)
/// and whether a document exactly at it is included.
package struct Bound: Sendable {
    package let position: [FirestoreValue]
    package let inclusive: Bool

    /// How the position compares with `document` in the query's order: negative when the
    /// position comes first.
    func compare(to document: QueryDocumentSnapshot, orders: [OrderBy]) -> Int {
        for (value, order) in zip(position, orders) {
            let comparison = ValueOrder.compare(value, DocumentValues.value(of: order.field, in: document))
            if comparison != 0 { return order.descending ? -comparison : comparison }
        }
        return 0
    }

    /// True when `document` is at or after a start cursor.
    func isBefore(_ document: QueryDocumentSnapshot, orders: [OrderBy]) -> Bool {
        let order = compare(to: document, orders: orders)
        return inclusive ? order <= 0 : order < 0
    }

    /// True when `document` is at or before an end cursor.
    func isAfter(_ document: QueryDocumentSnapshot, orders: [OrderBy]) -> Bool {
        let order = compare(to: document, orders: orders)
        return inclusive ? order >= 0 : order > 0
    }
}

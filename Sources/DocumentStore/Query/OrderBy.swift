/// One `order(by:descending:)`, explicit or implied by Firestore.
package struct OrderBy: Sendable, Equatable {
    package let field: FieldPath
    package let descending: Bool
}

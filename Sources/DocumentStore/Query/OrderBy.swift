/// One `order(by:descending:)`, explicit or implied by Firestore.
struct OrderBy: Sendable, Equatable {
    let field: FieldPath
    let descending: Bool
}

import DocumentStore
/// Documents a database server reads, counts or aggregates: a collection's or a collection
/// group's, narrowed by conditions on their fields (all ANDed), made by `ServerPrefilter`.
package struct ServerSelection: Sendable, Equatable {
    /// A collection's path ("books", "books/dune/reviews"), or a collection id for a group.
    package var collection: String
    package var isGroup: Bool
    package var conditions: [ServerCondition]

    package init(collection: String, isGroup: Bool, conditions: [ServerCondition]) {
        self.collection = collection
        self.isGroup = isGroup
        self.conditions = conditions
    }

    init(_ source: QueryDefinition.Source, conditions: [ServerCondition]) {
        switch source {
        case .collection(let path): self.init(collection: path.description, isGroup: false, conditions: conditions)
        case .group(let id): self.init(collection: id, isGroup: true, conditions: conditions)
        }
    }
}

/// One condition on a document's fields that a server can test. Fields are given by their
/// segments, none starting with "$" (a map whose only key does is stored tagged).
package enum ServerCondition: Sendable, Equatable {
    /// The fields contain one of these (JSON text of fields in the on-disk encoding, as
    /// `jsonb @>`); none: no document.
    case containsAny([String])
    /// The fields contain none of these.
    case containsNone([String])
    /// The field is there, whatever its value.
    case present([String])
    /// The field is there and not null.
    case notNull([String])
    /// The field is a number, not NaN (`ServerOrderRank` 3 to 7).
    case number([String])
    /// The field is a number whose (rank, key) compares with (5, key) so: exact for numbers.
    case range([String], ServerRange)
    /// The field is a string on this side of `text` in UTF-8 byte order.
    case string([String], op: String, text: String)
    /// The document's path is one of these, or none of them.
    case pathIn([String])
    case pathNotIn([String])
    /// The document's path compares so with `path`, segment by segment in Firestore's order of
    /// ids (`IDOrder`: numeric ids first), as Firestore compares references.
    case path(op: String, path: String)
    /// Each word is within one of the document's strings (`TextWords`: folded words, ASCII
    /// letters in either case, UTF-8 bytes).
    case words([String])
    /// All the conditions of one of these branches hold (an `or`).
    case anyOf([[ServerCondition]])
}

/// One document's part of a commit: what to make of the document given what is stored.
struct DocumentWrite {
    let path: ResourcePath
    /// Gets what is stored (or what an earlier write of the same commit made of it) and the
    /// commit's time (for `serverTimestamp()`); returns the new fields, or nil to delete.
    let transform: (StoredDocument, Timestamp) throws -> [String: FirestoreValue]?
}

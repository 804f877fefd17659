/// One document's part of a commit: what to make of the document given what is stored.
package struct DocumentWrite {
    package let path: ResourcePath
    /// False when the transform ignores what is stored (a set without merge, a delete), so the
    /// commit need not read the file: a batch of 500 new documents reads none.
    package var readsCurrent = true
    /// The create and update times to give the document instead of the commit's (`shelf
    /// export` keeps them); nil for every other write.
    package var keptTimes: DocumentTimes? = nil
    /// A precondition: the stored document was last updated at this time (Firestore's
    /// `update_time`); the backend checks it with the document's times while it holds it.
    package var lastUpdated: Timestamp? = nil
    /// Gets what is stored (or what an earlier write of the same commit made of it) and the
    /// commit's time (for `serverTimestamp()`); returns the new fields, or nil to delete.
    package let transform: (StoredDocument, Timestamp) throws -> [String: FirestoreValue]?
}

extension FieldConversion.Merge {
    /// A set without merge: the new fields replace the document whatever it held.
    var replacesAll: Bool {
        if case .none = self { return true }
        return false
    }
}

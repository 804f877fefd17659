/// What a commit makes of its writes: each write is applied to what is stored (or what an
/// earlier write of the same commit made of it) and gives the new fields, checked against
/// Firestore's limits, or nil to delete. For a backend that applies transforms itself while
/// it holds the documents locked.
package enum CommitPlan {
    /// The documents to store, in the order first written, with the times the last write of
    /// each asks to keep (`shelf export`), once every document in `expected` (a transaction's
    /// reads) is checked to be still what was read, else `changedSinceRead`, which the
    /// transaction runs again for. `updated` gives a stored document's update time, for the
    /// writes whose precondition names one. `time`: the commit's, which `serverTimestamp()`
    /// stamps and the backend gives every document written (`CommitClock`).
    package static func apply(_ writes: [DocumentWrite], expecting expected: [ResourcePath: StoredDocument] = [:], at writeTime: Timestamp,
                              store: Firestore,
                              current: (ResourcePath) throws -> StoredDocument, updated: (ResourcePath) throws -> Timestamp?)
        throws -> [(path: ResourcePath, document: StoredDocument, keptTimes: DocumentTimes?)] {
        for (path, seen) in expected where try current(path) != seen {
            throw DocumentStoreError.changedSinceRead(path: path.description)
        }
        // In the order first written; `position` finds a path's entry with one lookup (a batch
        // of 500 is planned while the store's write lock is held).
        var staged: [(path: ResourcePath, document: StoredDocument, keptTimes: DocumentTimes?)] = []
        var position: [ResourcePath: Int] = [:]
        position.reserveCapacity(writes.count)
        for write in writes {
            if let required = write.lastUpdated {
                let actual = try updated(write.path)
                guard actual == required else {
                    throw FirestoreWrite.PreconditionFailure.updatedAt(path: write.path.description, actual: actual, required: required)
                }
            }
            let earlier = position[write.path]
            let before = try earlier.map { staged[$0].document } ?? (write.readsCurrent ? current(write.path) : .missing)
            var after = StoredDocument.missing
            if let fields = try write.apply(to: before, writeTime: writeTime, store: store) {
                let document = write.path.description
                var checked = Result { () throws(DocumentStoreError) in
                    try WriteLimits.checked(fields, replacing: before.fields, document: document, store: store)
                }
                if case .failure = checked, !write.readsCurrent, earlier == nil {
                    // A write that replaces the document did not read it; what it keeps of it
                    // (a value nested too deep by hand, left alone) is known only from the file.
                    let stored = try current(write.path).fields
                    checked = Result { () throws(DocumentStoreError) in
                        try WriteLimits.checked(fields, replacing: stored, document: document, store: store)
                    }
                }
                after = .fields(try checked.get())
            }
            if let earlier {
                staged[earlier].document = after
                staged[earlier].keptTimes = write.keptTimes
            } else {
                position[write.path] = staged.count
                staged.append((write.path, after, write.keptTimes))
            }
        }
        return staged
    }
}

/// What a commit makes of its writes: each write is applied to what is stored (or what an
/// earlier write of the same commit made of it) and gives the new fields, checked against
/// Firestore's limits, or nil to delete. For a backend that applies transforms itself while
/// it holds the documents locked.
package enum CommitPlan {
    /// The documents to store, in the order first written, with the times the last write of
    /// each asks to keep (`shelf export`), once every document in `expected` (a transaction's
    /// reads) is checked to be still what was read, else `changedSinceRead`, which the
    /// transaction runs again for. `updated` gives a stored document's update time, for the
    /// writes whose precondition names one.
    package static func apply(_ writes: [DocumentWrite], expecting expected: [ResourcePath: StoredDocument] = [:], store: Firestore,
                              current: (ResourcePath) throws -> StoredDocument, updated: (ResourcePath) throws -> Timestamp?)
        throws -> [(path: ResourcePath, document: StoredDocument, keptTimes: DocumentTimes?)] {
        for (path, seen) in expected where try current(path) != seen {
            throw DocumentStoreError.changedSinceRead(path: path.description)
        }
        let writeTime = Timestamp()
        var staged: [ResourcePath: StoredDocument] = [:]
        var order: [ResourcePath] = []
        var keptTimes: [ResourcePath: DocumentTimes] = [:]
        for write in writes {
            if let required = write.lastUpdated {
                let actual = try updated(write.path)
                guard actual == required else {
                    throw FirestoreWrite.PreconditionFailure.updatedAt(path: write.path.description, actual: actual, required: required)
                }
            }
            let isStaged = staged[write.path] != nil
            let before = try staged[write.path] ?? (write.readsCurrent ? current(write.path) : .missing)
            var after = StoredDocument.missing
            if let fields = try write.apply(to: before, writeTime: writeTime, store: store) {
                let document = write.path.description
                var checked = Result { () throws(DocumentStoreError) in
                    try WriteLimits.checked(fields, replacing: before.fields, document: document, store: store)
                }
                if case .failure = checked, !write.readsCurrent, !isStaged {
                    // A write that replaces the document did not read it; what it keeps of it
                    // (a value nested too deep by hand, left alone) is known only from the file.
                    let stored = try current(write.path).fields
                    checked = Result { () throws(DocumentStoreError) in
                        try WriteLimits.checked(fields, replacing: stored, document: document, store: store)
                    }
                }
                after = .fields(try checked.get())
            }
            if staged[write.path] == nil { order.append(write.path) }
            staged[write.path] = after
            keptTimes[write.path] = write.keptTimes
        }
        return order.map { ($0, staged[$0]!, keptTimes[$0]) }
    }
}

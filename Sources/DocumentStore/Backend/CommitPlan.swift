/// What a commit makes of its writes: each write is applied to what is stored (or what an
/// earlier write of the same commit made of it) and gives the new fields, checked against
/// Firestore's limits, or nil to delete. For a backend that applies transforms itself while
/// it holds the documents locked.
package enum CommitPlan {
    /// One document as the commit leaves it.
    package struct Planned: Sendable {
        package let path: ResourcePath
        /// Its fields after the commit's writes, or `.missing`: deleted.
        package var document: StoredDocument
        /// The times the last write of it asks to keep (`shelf export`).
        package var keptTimes: DocumentTimes?
        /// True when a write of the commit deleted it and a later one made it again: a change
        /// even when its fields end as they were (Google's emulator gives it the commit's time).
        package var isMadeAgain = false

        /// Whether the document stored as `stored` stays as it is: a write that changes nothing
        /// keeps the document's update time, as Firestore's does (`WriteResult.update_time`: "If
        /// the write did not actually change the document, this will be the previous
        /// update_time"). Fields compare by Firestore's equality, as the emulator compares them
        /// (measured: 1 is not 1.0, -0.0 is not 0.0, NaN is NaN, a map's order does not count).
        package func leavesAsItIs(_ stored: StoredDocument) -> Bool {
            keptTimes == nil && !isMadeAgain && document == stored
        }
    }

    /// The documents to store, in the order first written, once every document in `expected`
    /// (a transaction's reads) is checked to be still what was read, else `changedSinceRead`,
    /// which the transaction runs again for. `updated` gives a stored document's update time,
    /// for the writes whose precondition names one. `time`: the commit's, which
    /// `serverTimestamp()` stamps and the backend gives every document the commit changes
    /// (`CommitClock`).
    package static func apply(_ writes: [DocumentWrite], expecting expected: [ResourcePath: StoredDocument] = [:], at writeTime: Timestamp,
                              store: Firestore,
                              current: (ResourcePath) throws -> StoredDocument, updated: (ResourcePath) throws -> Timestamp?)
        throws -> [Planned] {
        for (path, seen) in expected where try current(path) != seen {
            throw DocumentStoreError.changedSinceRead(path: path.description)
        }
        // In the order first written; `position` finds a path's entry with one lookup (a batch
        // of 500 is planned while the store's write lock is held).
        var staged: [Planned] = []
        var position: [ResourcePath: Int] = [:]
        position.reserveCapacity(writes.count)
        var deleted = Set<Int>()
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
            let index: Int
            if let earlier {
                index = earlier
                staged[index].document = after
                staged[index].keptTimes = write.keptTimes
            } else {
                index = staged.count
                position[write.path] = index
                staged.append(Planned(path: write.path, document: after, keptTimes: write.keptTimes))
            }
            if after == .missing { deleted.insert(index) }
            staged[index].isMadeAgain = after != .missing && deleted.contains(index)
        }
        return staged
    }
}

import Foundation

/// A commit's steps in order: the write lock, a dead writer's batch rolled forward, the plan,
/// the versions it replaces, then the files (`FileWriter` for one, `FolderJournal` for several).
extension DocumentFiles {
    /// How a folder's documents change. Under the store's write lock (so read-modify-write is safe
    /// across threads and processes), after rolling forward a batch a dead writer committed:
    /// every document in `expected` must still be what was read (else `changedSinceRead`), then the
    /// writes are applied to what is stored (`CommitPlan`). One document is written by one
    /// atomic rename; several through the journal (see `CommitJournal`), all or none. A file
    /// that holds what its document's write makes already stays as it is
    /// (`CommitJournal.Entry.leavesAnEqualFile`). Returns the documents written, with the
    /// update time each was given, or kept.
    @discardableResult
    func commit(_ writes: [DocumentWrite], expecting expected: [ResourcePath: StoredDocument] = [:],
                store: Firestore) throws -> [WrittenDocument] {
        let lock = try WriteLock(root: root)
        defer { lock.release() }
        try journal.recoverUnderLock()
        let time = CommitClock.next()
        let plan = try CommitPlan.apply(writes, expecting: expected, at: time, store: store,
                                        current: { try self.document(at: $0, store: store) },
                                        updated: { try self.times.times(at: $0)?.updated })
        documentsEncodedUnderLock.withLock { $0 += plan.count }
        let files = PreparedFiles(try Self.entries(of: plan), documents: plan.map(\.document))
        versions.keep(of: files.entries, replacedAt: time)
        return try writeFiles(files, at: time)
    }

    /// A commit's files, made before the write lock is taken (`prepare`) or under it.
    struct PreparedFiles: Sendable {
        let entries: [CommitJournal.Entry]
        /// What each entry stores, for the store's listeners (`WrittenDocument`).
        let documents: [StoredDocument]
        /// For more than one document: the journal, and its file's bytes.
        let journal: (CommitJournal, encoded: [UInt8])?

        init(_ entries: [CommitJournal.Entry], documents: [StoredDocument]) {
            self.entries = entries
            self.documents = documents
            var random = SystemRandomNumberGenerator()
            let journal = entries.count > 1 ? CommitJournal(batchID: random.next(), entries: entries) : nil
            self.journal = journal.map { ($0, $0.encoded) }
        }
    }

    /// The files of `writes` made without the write lock, when nothing they hold depends on what
    /// is stored: none reads the document it replaces, checks its update time or stamps the
    /// commit's time (which `commit` takes under the lock). Nil otherwise, or when a write breaks a limit: `commit` then plans them
    /// under the lock, with what is stored, and says why.
    static func prepare(_ writes: [DocumentWrite], store: Firestore) -> PreparedFiles? {
        guard writes.allSatisfy({ !$0.readsCurrent && $0.lastUpdated == nil && $0.serverTimestampFields.isEmpty }),
              let plan = try? CommitPlan.apply(writes, at: Timestamp(), store: store, current: { _ in .missing }, updated: { _ in nil }),
              let entries = try? entries(of: plan) else { return nil }
        return PreparedFiles(entries, documents: plan.map(\.document))
    }

    /// Commits files `prepare` made, as `commit` does.
    func commit(_ prepared: PreparedFiles) throws -> [WrittenDocument] {
        let lock = try WriteLock(root: root)
        defer { lock.release() }
        try journal.recoverUnderLock()
        let time = CommitClock.next()
        versions.keep(of: prepared.entries, replacedAt: time)
        return try writeFiles(prepared, at: time)
    }

    /// Each planned document's file (nil: deleted), checked against Firestore's size limit.
    private static func entries(of plan: [CommitPlan.Planned]) throws -> [CommitJournal.Entry] {
        try plan.map { planned in
            guard case .fields(let fields) = planned.document else { return .init(path: planned.path, bytes: nil) }
            try WriteLimits.checkSize(of: fields, at: planned.path)
            let bytes = JSONWriter.documentBytes(DocumentJSON.json(fields))
            return .init(path: planned.path, bytes: bytes, keptTimes: planned.keptTimes, isMadeAgain: planned.isMadeAgain)
        }
    }

    /// Writes the files, under the write lock: one by itself, several through their journal;
    /// each stamped with the commit's `time` unless it keeps its own.
    private func writeFiles(_ files: PreparedFiles, at time: Timestamp) throws -> [WrittenDocument] {
        let entries = files.entries
        let written = if let (batch, encoded) = files.journal { try journal.commit(batch, encoded: encoded, at: time) }
            else if let only = entries.first { [try writer.persist(only, commitTime: time)] }
            else { [WrittenFile]() }
        return zip(zip(entries, files.documents), written).map { pair, file in
            WrittenDocument(path: pair.0.path, document: pair.1, updateTime: file.times?.updated, changed: file.changed)
        }
    }
}

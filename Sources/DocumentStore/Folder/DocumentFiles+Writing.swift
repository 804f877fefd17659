import Foundation

/// Writing documents: a commit under the store's write lock, each file written atomically and
/// durably, several through the journal (see `CommitJournal`).
extension DocumentFiles {
    /// `fsync`, counted.
    @discardableResult
    func sync(_ fd: Int32) -> Int32 {
        syncs.withLock { $0.calls += 1 }
        return fsync(fd)
    }

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
        let lock = try WriteLock(files: self)
        defer { lock.release() }
        try recoverUnderLock()
        let time = CommitClock.next()
        let plan = try CommitPlan.apply(writes, expecting: expected, at: time, store: store,
                                        current: { try self.document(at: $0, store: store) },
                                        updated: { try self.times(at: $0)?.updated })
        documentsEncodedUnderLock.withLock { $0 += plan.count }
        let files = PreparedFiles(try Self.entries(of: plan), documents: plan.map(\.document))
        keepVersions(of: files.entries, replacedAt: time)
        return try writeFiles(files, at: time)
    }

    /// What a commit made of one document's file: its times after (nil: deleted), and whether
    /// the file was written or left as it was (`CommitJournal.Entry.leavesAnEqualFile`).
    struct WrittenFile {
        var times: DocumentTimes?
        var changed = true
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
        let lock = try WriteLock(files: self)
        defer { lock.release() }
        try recoverUnderLock()
        let time = CommitClock.next()
        keepVersions(of: prepared.entries, replacedAt: time)
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
        let written = if let (journal, encoded) = files.journal { try commitJournaled(journal, encoded: encoded, at: time) }
            else if let only = entries.first { [try persist(only, commitTime: time)] }
            else { [WrittenFile]() }
        return zip(zip(entries, files.documents), written).map { pair, file in
            WrittenDocument(path: pair.0.path, document: pair.1, updateTime: file.times?.updated, changed: file.changed)
        }
    }

    /// Writes or deletes one document file, atomically and durably, unless it holds the
    /// entry's bytes already; what became of it.
    private func persist(_ entry: CommitJournal.Entry, commitTime: Timestamp) throws -> WrittenFile {
        let path = entry.path, bytes = entry.bytes
        let folder = display(path.parent.segments)
        guard let dirFD = try openFolder(path.parent.segments, create: bytes != nil) else { return WrittenFile(times: nil) }
        defer { close(dirFD) }
        let fileName = path.last + Self.fileExtension
        var times: DocumentTimes?
        if let bytes {
            if entry.leavesAnEqualFile, let kept = Self.times(of: fileName, ifHolding: bytes, in: dirFD) {
                return WrittenFile(times: kept, changed: false)
            }
            var random = SystemRandomNumberGenerator()
            let tempName = ".shelf-\(String(random.next(), radix: 36)).tmp"
            times = try writeFile(tempName, in: dirFD, bytes, exclusive: true, sync: true, display: folder,
                                  times: entry.keptTimes.map { .kept($0) } ?? .replacing(fileName, at: commitTime))
            guard renameat(dirFD, tempName, dirFD, fileName) == 0 else {
                let code = errno
                unlinkat(dirFD, tempName, 0)
                throw DocumentStoreError.io(folder + "/" + fileName, "write", errno: code)
            }
        } else {
            guard unlinkat(dirFD, fileName, 0) == 0 || errno == ENOENT else {
                throw DocumentStoreError.io(folder + "/" + fileName, "delete", errno: errno)
            }
        }
        sync(dirFD)
        return WrittenFile(times: times)
    }

    /// Writes `bytes` to a new file `name` in an open folder (replacing one of that name unless
    /// `exclusive`), fsynced when `sync`. A failure removes the file. A file that is to become
    /// a document gets its `times` first (see `stampTimes`), which it returns. `folder` names
    /// the folder in an error, made only then (a batch writes 500 files under the write lock).
    @discardableResult
    func writeFile(_ name: String, in dirFD: Int32, _ bytes: [UInt8], exclusive: Bool, sync: Bool,
                   display folder: @autoclosure () -> String, times: FileTimes? = nil) throws(DocumentStoreError) -> DocumentTimes? {
        let fd = openat(dirFD, name, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | (exclusive ? O_EXCL : O_TRUNC), 0o644)
        guard fd >= 0 else { throw .io(folder(), "write a file in", errno: errno) }
        var written = 0
        var failure: Int32 = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                failure = errno
                break
            }
            written += n
        }
        var stamped: DocumentTimes?
        if failure == 0, let times { failure = stampTimes(fd, times, in: dirFD, stamped: &stamped) }
        if failure == 0 && sync && self.sync(fd) != 0 { failure = errno }
        if close(fd) != 0 && failure == 0 && errno != EINTR { failure = errno }
        if failure != 0 {
            unlinkat(dirFD, name, 0)
            throw .io(folder() + "/" + name, "write", errno: failure)
        }
        return stamped
    }
}

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
    /// atomic rename; several through the journal (see `CommitJournal`), all or none.
    /// Returns the documents written, with the update time each was given.
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
        keepVersions(of: plan.map(\.path), replacedAt: time)
        return try writeFiles(PreparedFiles(try Self.entries(of: plan), documents: plan.map(\.document)), at: time)
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
        keepVersions(of: prepared.entries.map(\.path), replacedAt: time)
        return try writeFiles(prepared, at: time)
    }

    /// Each planned document's file (nil: deleted), checked against Firestore's size limit.
    private static func entries(of plan: [(path: ResourcePath, document: StoredDocument, keptTimes: DocumentTimes?)]) throws -> [CommitJournal.Entry] {
        try plan.map { path, document, keptTimes in
            guard case .fields(let fields) = document else { return .init(path: path, bytes: nil) }
            try WriteLimits.checkSize(of: fields, at: path)
            let bytes = JSONWriter.documentBytes(DocumentJSON.json(fields))
            return .init(path: path, bytes: bytes, keptTimes: keptTimes)
        }
    }

    /// Writes the files, under the write lock: one by itself, several through their journal;
    /// each stamped with the commit's `time` unless it keeps its own.
    private func writeFiles(_ files: PreparedFiles, at time: Timestamp) throws -> [WrittenDocument] {
        let entries = files.entries
        let times = if let (journal, encoded) = files.journal { try commitJournaled(journal, encoded: encoded, at: time) }
            else if let only = entries.first { [try persist(only.bytes, at: only.path, keptTimes: only.keptTimes, commitTime: time)] }
            else { [DocumentTimes?]() }
        return zip(zip(entries, files.documents), times).map { WrittenDocument(path: $0.0.path, document: $0.1, updateTime: $1?.updated) }
    }

    /// Writes or deletes one document file, atomically and durably; the times it was given.
    private func persist(_ bytes: [UInt8]?, at path: ResourcePath, keptTimes: DocumentTimes?, commitTime: Timestamp) throws -> DocumentTimes? {
        let folder = display(path.parent.segments)
        guard let dirFD = try openFolder(path.parent.segments, create: bytes != nil) else { return nil }
        defer { close(dirFD) }
        let fileName = path.last + Self.fileExtension
        var times: DocumentTimes?
        if let bytes {
            var random = SystemRandomNumberGenerator()
            let tempName = ".shelf-\(String(random.next(), radix: 36)).tmp"
            times = try writeFile(tempName, in: dirFD, bytes, exclusive: true, sync: true, display: folder,
                                  times: keptTimes.map { .kept($0) } ?? .replacing(fileName, at: commitTime))
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
        return times
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

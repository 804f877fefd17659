import Foundation

/// The write-ahead journal of a folder: the commit of several documents through it, its
/// replay when its writer died, and the readers' side of the lock that keeps them from seeing
/// half a batch. The protocol is written out on `CommitJournal`, the journal's file.
struct FolderJournal: Sendable {
    private static let shelfFolder = FolderRoot.shelfFolder
    private static let journalPath = shelfFolder + "/" + CommitJournal.fileName
    private static let temporaryJournalPath = shelfFolder + "/" + CommitJournal.temporaryFileName

    let root: FolderRoot
    let writer: FileWriter
    /// Said once: a committed journal this process cannot roll forward (a read-only folder).
    let reportedStuckJournal = Locked(false)

    init(root: FolderRoot, writer: FileWriter) {
        self.root = root
        self.writer = writer
    }

    // MARK: Readers

    /// The shared lock, after rolling forward a batch whose writer died (nil only when the
    /// process has no file descriptor left: then the files are read as they are).
    func lockForReading() -> ReadLock? {
        for _ in 0..<3 {
            guard let lock = ReadLock(root: root) else { return nil }
            // Holding the shared lock, no writer is at work: a journal is a dead writer's.
            guard hasCommittedJournal else { return lock }
            lock.release()
            guard !root.isReadOnly else {
                reportStuckJournal("the folder cannot be written, so it is read as it is")
                return ReadLock(root: root)
            }
            do {
                try recover()
            } catch {
                reportStuckJournal("\(error)")
                return ReadLock(root: root)
            }
        }
        return ReadLock(root: root)
    }

    private func reportStuckJournal(_ reason: String) {
        let first = reportedStuckJournal.withLock { reported in
            defer { reported = true }
            return !reported
        }
        guard first else { return }
        FileHandle.standardError.write(Data(("DocumentStore: \(root.display([Self.shelfFolder]))/\(CommitJournal.fileName) holds a batch"
            + " whose writer stopped before it was applied, and it cannot be completed now (\(reason)); readers may see part of that batch"
            + " until the store is opened where it can be written.\n").utf8))
    }

    var hasCommittedJournal: Bool {
        var st = stat()
        return fstatat(root.fd, Self.journalPath, &st, AT_SYMLINK_NOFOLLOW) == 0
    }

    /// A committed journal, or one a writer was still writing.
    var hasJournalFiles: Bool {
        var st = stat()
        return hasCommittedJournal || fstatat(root.fd, Self.temporaryJournalPath, &st, AT_SYMLINK_NOFOLLOW) == 0
    }

    // MARK: Committing several documents

    /// Steps 3 to 9 of the protocol, under the write lock.
    /// Returns what became of each entry's document (`WrittenFile`).
    /// `encoded`: the journal's file; `time`: the commit's (`CommitClock`).
    func commit(_ journal: CommitJournal, encoded: [UInt8], at time: Timestamp) throws(DocumentStoreError) -> [WrittenFile] {
        let barrier = DurabilityBarrier.chosen
        let entries = journal.entries
        let shelf = try root.openRequiredFolder([Self.shelfFolder])
        defer { close(shelf) }
        var folders = FolderCache()
        defer { folders.closeAll() }
        // 3. Every folder first, so a path that cannot be written fails before anything is.
        for entry in entries { _ = try folders.open(entry.path.parent.segments, create: entry.bytes != nil, in: root) }

        // 4. The journal, complete but not yet durable.
        let shelfDisplay = root.display([Self.shelfFolder])
        try writer.writeFile(CommitJournal.temporaryFileName, in: shelf, encoded, exclusive: false, sync: false, display: shelfDisplay)

        // 5. The documents' temporary files; 6. the commit point.
        var temporaries: [(Int32, String)] = []
        var stamped = [WrittenFile](repeating: WrittenFile(times: nil), count: entries.count)
        do throws(DocumentStoreError) {
            for (index, entry) in entries.enumerated() {
                guard let bytes = entry.bytes, let dirFD = try folders.open(entry.path.parent.segments, create: true, in: root) else { continue }
                let name = journal.temporaryNames[index]
                stamped[index].times = try writer.writeFile(name, in: dirFD, bytes, exclusive: true, sync: barrier.syncsEachFile,
                                                            display: root.display(entry.path.parent.segments),
                                                            times: entry.keptTimes.map { .kept($0) } ?? .new(at: time))
                temporaries.append((dirFD, name))
            }
            try root.syncFile(CommitJournal.temporaryFileName, in: shelf, display: shelfDisplay)
            guard renameat(shelf, CommitJournal.temporaryFileName, shelf, CommitJournal.fileName) == 0 else {
                throw .io(shelfDisplay + "/" + CommitJournal.fileName, "commit the batch's journal", errno: errno)
            }
        } catch {
            for (dirFD, name) in temporaries { unlinkat(dirFD, name, 0) }
            unlinkat(shelf, CommitJournal.temporaryFileName, 0)
            throw error
        }
        root.sync(shelf)  // the commit point: from here the batch happens, now or at recovery

        // 7. Apply; 8. one barrier; 9. forget the journal.
        var written: [WrittenFile]? = stamped
        try apply(journal, at: time, folders: &folders, written: &written, barrier: barrier, failpoint: BatchFailpoint.beforeApplyingEntry)
        try finish(journal: shelf, barrier: barrier, folders: folders)
        return written ?? stamped
    }

    /// Renames each document's temporary file over it and unlinks the deleted ones. Idempotent.
    /// `written`: the times the commit stamped each temporary file with (new documents' unless
    /// kept, so one found to exist is stamped again here, or left as it is, see
    /// `placeNewDocument`); nil for recovery, which writes the temporary files again, stamped
    /// from the documents they replace at `time` (the recovery's own: the journal keeps no
    /// commit time).
    private func apply(_ journal: CommitJournal, at time: Timestamp, folders: inout FolderCache, written: inout [WrittenFile]?,
                       barrier: DurabilityBarrier, failpoint: ((Int) -> Void)? = nil) throws(DocumentStoreError) {
        for (index, entry) in journal.entries.enumerated() {
            failpoint?(index)
            let segments = entry.path.parent.segments
            let fileName = entry.path.last + DocumentFiles.fileExtension
            func shown() -> String { root.display(entry.path.segments.dropLast() + [fileName]) }
            if let bytes = entry.bytes {
                guard let dirFD = try folders.open(segments, create: true, in: root) else { continue }
                let name = journal.temporaryNames[index]
                let failure: Int32
                if written != nil, entry.keptTimes == nil {
                    failure = placeNewDocument(name, as: fileName, of: entry, at: time, in: dirFD, syncing: barrier.syncsEachFile, placed: &written![index])
                } else {
                    if written == nil {
                        try writer.writeFile(name, in: dirFD, bytes, exclusive: false, sync: barrier.syncsEachFile, display: root.display(segments),
                                      times: entry.keptTimes.map { .kept($0) } ?? .replacing(fileName, at: time))
                    }
                    failure = renameat(dirFD, name, dirFD, fileName) == 0 ? 0 : errno
                }
                guard failure == 0 else {
                    throw .io(shown(), "write (the batch is committed and will be completed by the next open, read or write of the store)", errno: failure)
                }
            } else {
                guard let dirFD = try folders.open(segments, create: false, in: root) else { continue }
                guard unlinkat(dirFD, fileName, 0) == 0 || errno == ENOENT else {
                    throw .io(shown(), "delete (the batch is committed and will be completed by the next open, read or write of the store)", errno: errno)
                }
            }
        }
        failpoint?(journal.entries.count)
    }

    /// The batch's one barrier, then the journal's removal, made durable too: a journal that
    /// came back after a power loss would write its old contents over later commits.
    private func finish(journal shelf: Int32, barrier: DurabilityBarrier, folders: FolderCache) throws(DocumentStoreError) {
        let code = barrier.finish(rootFD: root.fd, folders: folders.openFolders)
        root.syncs.withLock {
            $0.barriers += 1
            $0.calls += barrier == .fsyncEach ? folders.openFolders.count : 1
        }
        guard code == 0 else {
            throw .io(root.path, "make the batch durable (\(barrier.rawValue); it will be completed by the next open, read or write of the store)", errno: code)
        }
        guard unlinkat(shelf, CommitJournal.fileName, 0) == 0 || errno == ENOENT else {
            throw .io(root.display([Self.shelfFolder, CommitJournal.fileName]), "remove the applied journal", errno: errno)
        }
        root.sync(shelf)
    }

    // MARK: Recovery

    /// Takes the write lock and completes or forgets what a dead writer left (see `CommitJournal`).
    func recover() throws(DocumentStoreError) {
        let lock = try WriteLock(root: root)
        defer { lock.release() }
        try recoverUnderLock()
    }

    /// Recovery, for a caller holding the write lock: two `fstatat`s when there is nothing to do.
    func recoverUnderLock() throws(DocumentStoreError) {
        guard hasJournalFiles else { return }
        let shelf = try root.openRequiredFolder([Self.shelfFolder])
        defer { close(shelf) }
        let barrier = DurabilityBarrier.chosen
        // Not committed: the batch never happened; remove what its writer had begun.
        if let bytes = FolderRoot.readFile(CommitJournal.temporaryFileName, in: shelf) {
            if let unfinished = CommitJournal(decoding: bytes) {
                var folders = FolderCache()
                defer { folders.closeAll() }
                for (index, entry) in unfinished.entries.enumerated() where entry.bytes != nil {
                    if let dirFD = try? folders.open(entry.path.parent.segments, create: false, in: root) {
                        unlinkat(dirFD, unfinished.temporaryNames[index], 0)
                    }
                }
            }
            unlinkat(shelf, CommitJournal.temporaryFileName, 0)
        }
        guard let bytes = FolderRoot.readFile(CommitJournal.fileName, in: shelf) else {
            root.sync(shelf)
            return
        }
        guard let journal = CommitJournal(decoding: bytes) else {
            let damaged = CommitJournal.fileName + ".damaged-\(Int(Date().timeIntervalSince1970))"
            renameat(shelf, CommitJournal.fileName, shelf, damaged)
            root.sync(shelf)
            FileHandle.standardError.write(Data(("DocumentStore: \(root.display([Self.shelfFolder, CommitJournal.fileName])) is damaged"
                + " (its checksum does not hold), so the batch in it was not applied; it was kept as \(damaged).\n").utf8))
            return
        }
        var folders = FolderCache()
        defer { folders.closeAll() }
        var rewritten: [WrittenFile]? = nil
        try apply(journal, at: CommitClock.next(), folders: &folders, written: &rewritten, barrier: barrier)
        try finish(journal: shelf, barrier: barrier, folders: folders)
    }

    /// Renames the temporary file `name`, stamped as a new document's (`DocumentFileTimes.Stamp.new`),
    /// to the document file `document`, unless that is there already: then, if it holds `entry`'s
    /// bytes and may stay (`leavesAnEqualFile`), the temporary file is removed and `placed`
    /// says the document is unchanged, with its times; else the temporary file is stamped from
    /// it first (`Stamp.replacing`, at the commit's `time`) and `placed` set to its new
    /// times. One rename for a new document, where looking first would cost a lookup in a
    /// folder that may hold millions of names. Returns 0 or the errno of the failure.
    private func placeNewDocument(_ name: String, as document: String, of entry: CommitJournal.Entry, at time: Timestamp, in dirFD: Int32,
                                  syncing: Bool, placed: inout WrittenFile) -> Int32 {
        if let renameNoReplace = LinuxCalls.renameNoReplace {
            if renameNoReplace(dirFD, name, dirFD, document, LinuxCalls.noReplace) == 0 { return 0 }
            // EINVAL: a file system that cannot rename so; ENOSYS: a kernel without renameat2.
            // Either way the document is looked up as before.
            guard errno == EEXIST || errno == EINVAL || errno == ENOSYS else { return errno }
        }
        if entry.leavesAnEqualFile, let bytes = entry.bytes, let times = DocumentFileTimes.times(of: document, ifHolding: bytes, in: dirFD) {
            unlinkat(dirFD, name, 0)
            placed = WrittenFile(times: times, changed: false)
            return 0
        }
        var stamped = placed.times
        defer { placed.times = stamped }
        let fd = openat(dirFD, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return errno }
        var failure = writer.times.stamp(fd, .replacing(document, at: time), in: dirFD, stamped: &stamped)
        if failure == 0 && syncing && root.sync(fd) != 0 { failure = errno }
        close(fd)
        guard failure == 0 else { return failure }
        return renameat(dirFD, name, dirFD, document) == 0 ? 0 : errno
    }
}

/// The crash tests' failpoint in a batch's commit, so `shelf-bench write-loop --stop-in-apply`
/// can stop itself half way through applying a batch and be killed exactly there, however the
/// machine schedules it. Nil in every real program.
package enum BatchFailpoint {
    /// Called with each entry's index before a committed batch applies it, and with the
    /// entries' count once all are applied (before the barrier). Set once, before any commit.
    package nonisolated(unsafe) static var beforeApplyingEntry: ((Int) -> Void)?
}

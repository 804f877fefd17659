import Foundation

/// The commit of several documents through the journal, its recovery, and the readers' side of
/// the lock. The protocol is written out on `CommitJournal`.
extension DocumentFiles {
    static let shelfFolder = WriteLock.folderName
    private static let journalPath = shelfFolder + "/" + CommitJournal.fileName
    private static let temporaryJournalPath = shelfFolder + "/" + CommitJournal.temporaryFileName

    // MARK: Readers

    /// Runs `body` holding the shared lock, so it sees no batch half applied (see `CommitJournal`).
    func reading<T>(_ body: () throws -> T) rethrows -> T {
        let lock = lockForReading()
        defer { lock?.release() }
        return try body()
    }

    /// The shared lock, after rolling forward a batch whose writer died (nil only when the
    /// process has no file descriptor left: then the files are read as they are).
    func lockForReading() -> ReadLock? {
        for _ in 0..<3 {
            guard let lock = ReadLock(files: self) else { return nil }
            // Holding the shared lock, no writer is at work: a journal is a dead writer's.
            guard hasCommittedJournal else { return lock }
            lock.release()
            guard !isReadOnly else {
                reportStuckJournal("the folder cannot be written, so it is read as it is")
                return ReadLock(files: self)
            }
            do {
                try recover()
            } catch {
                reportStuckJournal("\(error)")
                return ReadLock(files: self)
            }
        }
        return ReadLock(files: self)
    }

    private func reportStuckJournal(_ reason: String) {
        let first = reportedStuckJournal.withLock { reported in
            defer { reported = true }
            return !reported
        }
        guard first else { return }
        FileHandle.standardError.write(Data(("DocumentStore: \(display([Self.shelfFolder]))/\(CommitJournal.fileName) holds a batch"
            + " whose writer stopped before it was applied, and it cannot be completed now (\(reason)); readers may see part of that batch"
            + " until the store is opened where it can be written.\n").utf8))
    }

    var hasCommittedJournal: Bool {
        var st = stat()
        return fstatat(rootFD, Self.journalPath, &st, AT_SYMLINK_NOFOLLOW) == 0
    }

    /// A committed journal, or one a writer was still writing.
    var hasJournalFiles: Bool {
        var st = stat()
        return hasCommittedJournal || fstatat(rootFD, Self.temporaryJournalPath, &st, AT_SYMLINK_NOFOLLOW) == 0
    }

    // MARK: Committing several documents

    /// Steps 3 to 9 of the protocol, under the write lock.
    /// Returns what became of each entry's document (`WrittenFile`).
    /// `encoded`: the journal's file; `time`: the commit's (`CommitClock`).
    func commitJournaled(_ journal: CommitJournal, encoded: [UInt8], at time: Timestamp) throws(DocumentStoreError) -> [WrittenFile] {
        let barrier = DurabilityBarrier.chosen
        let entries = journal.entries
        let shelf = try openShelfFolder()
        defer { close(shelf) }
        var folders = FolderCache()
        defer { folders.closeAll() }
        // 3. Every folder first, so a path that cannot be written fails before anything is.
        for entry in entries { _ = try folders.open(entry.path.parent.segments, create: entry.bytes != nil, in: self) }

        // 4. The journal, complete but not yet durable.
        let shelfDisplay = display([Self.shelfFolder])
        try writeFile(CommitJournal.temporaryFileName, in: shelf, encoded, exclusive: false, sync: false, display: shelfDisplay)

        // 5. The documents' temporary files; 6. the commit point.
        var temporaries: [(Int32, String)] = []
        var stamped = [WrittenFile](repeating: WrittenFile(times: nil), count: entries.count)
        do throws(DocumentStoreError) {
            for (index, entry) in entries.enumerated() {
                guard let bytes = entry.bytes, let dirFD = try folders.open(entry.path.parent.segments, create: true, in: self) else { continue }
                let name = journal.temporaryNames[index]
                stamped[index].times = try writeFile(name, in: dirFD, bytes, exclusive: true, sync: barrier.syncsEachFile,
                                                     display: display(entry.path.parent.segments),
                                                     times: entry.keptTimes.map { .kept($0) } ?? .new(at: time))
                temporaries.append((dirFD, name))
            }
            try syncFile(CommitJournal.temporaryFileName, in: shelf, display: shelfDisplay)
            guard renameat(shelf, CommitJournal.temporaryFileName, shelf, CommitJournal.fileName) == 0 else {
                throw .io(shelfDisplay + "/" + CommitJournal.fileName, "commit the batch's journal", errno: errno)
            }
        } catch {
            for (dirFD, name) in temporaries { unlinkat(dirFD, name, 0) }
            unlinkat(shelf, CommitJournal.temporaryFileName, 0)
            throw error
        }
        sync(shelf)  // the commit point: from here the batch happens, now or at recovery

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
            let fileName = entry.path.last + Self.fileExtension
            func shown() -> String { display(entry.path.segments.dropLast() + [fileName]) }
            if let bytes = entry.bytes {
                guard let dirFD = try folders.open(segments, create: true, in: self) else { continue }
                let name = journal.temporaryNames[index]
                let failure: Int32
                if written != nil, entry.keptTimes == nil {
                    failure = placeNewDocument(name, as: fileName, of: entry, at: time, in: dirFD, syncing: barrier.syncsEachFile, placed: &written![index])
                } else {
                    if written == nil {
                        try writeFile(name, in: dirFD, bytes, exclusive: false, sync: barrier.syncsEachFile, display: display(segments),
                                      times: entry.keptTimes.map { .kept($0) } ?? .replacing(fileName, at: time))
                    }
                    failure = renameat(dirFD, name, dirFD, fileName) == 0 ? 0 : errno
                }
                guard failure == 0 else {
                    throw .io(shown(), "write (the batch is committed and will be completed by the next open, read or write of the store)", errno: failure)
                }
            } else {
                guard let dirFD = try folders.open(segments, create: false, in: self) else { continue }
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
        let code = barrier.finish(rootFD: rootFD, folders: folders.openFolders)
        syncs.withLock {
            $0.barriers += 1
            $0.calls += barrier == .fsyncEach ? folders.openFolders.count : 1
        }
        guard code == 0 else {
            throw .io(rootPath, "make the batch durable (\(barrier.rawValue); it will be completed by the next open, read or write of the store)", errno: code)
        }
        guard unlinkat(shelf, CommitJournal.fileName, 0) == 0 || errno == ENOENT else {
            throw .io(display([Self.shelfFolder, CommitJournal.fileName]), "remove the applied journal", errno: errno)
        }
        sync(shelf)
    }

    private func syncFile(_ name: String, in dirFD: Int32, display folder: String) throws(DocumentStoreError) {
        let fd = openat(dirFD, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw .io(folder + "/" + name, "open", errno: errno) }
        defer { close(fd) }
        syncs.withLock { $0.calls += 1 }
        guard fdatasync(fd) == 0 else { throw .io(folder + "/" + name, "make durable", errno: errno) }
    }

    private func openShelfFolder() throws(DocumentStoreError) -> Int32 {
        guard let fd = try openFolder([Self.shelfFolder], create: true) else {
            throw .io(path: display([Self.shelfFolder]), operation: "create the folder", reason: "it could not be created")
        }
        return fd
    }

    // MARK: Recovery

    /// Takes the write lock and completes or forgets what a dead writer left (see `CommitJournal`).
    func recover() throws(DocumentStoreError) {
        let lock = try WriteLock(files: self)
        defer { lock.release() }
        try recoverUnderLock()
    }

    /// Recovery, for a caller holding the write lock: two `fstatat`s when there is nothing to do.
    func recoverUnderLock() throws(DocumentStoreError) {
        guard hasJournalFiles else { return }
        let shelf = try openShelfFolder()
        defer { close(shelf) }
        let barrier = DurabilityBarrier.chosen
        // Not committed: the batch never happened; remove what its writer had begun.
        if let bytes = readFile(CommitJournal.temporaryFileName, in: shelf) {
            if let unfinished = CommitJournal(decoding: bytes) {
                var folders = FolderCache()
                defer { folders.closeAll() }
                for (index, entry) in unfinished.entries.enumerated() where entry.bytes != nil {
                    if let dirFD = try? folders.open(entry.path.parent.segments, create: false, in: self) {
                        unlinkat(dirFD, unfinished.temporaryNames[index], 0)
                    }
                }
            }
            unlinkat(shelf, CommitJournal.temporaryFileName, 0)
        }
        guard let bytes = readFile(CommitJournal.fileName, in: shelf) else {
            sync(shelf)
            return
        }
        guard let journal = CommitJournal(decoding: bytes) else {
            let damaged = CommitJournal.fileName + ".damaged-\(Int(Date().timeIntervalSince1970))"
            renameat(shelf, CommitJournal.fileName, shelf, damaged)
            sync(shelf)
            FileHandle.standardError.write(Data(("DocumentStore: \(display([Self.shelfFolder, CommitJournal.fileName])) is damaged"
                + " (its checksum does not hold), so the batch in it was not applied; it was kept as \(damaged).\n").utf8))
            return
        }
        var folders = FolderCache()
        defer { folders.closeAll() }
        var rewritten: [WrittenFile]? = nil
        try apply(journal, at: CommitClock.next(), folders: &folders, written: &rewritten, barrier: barrier)
        try finish(journal: shelf, barrier: barrier, folders: folders)
    }

    /// A whole small file (of the hidden folder, a document's), or nil when it is not there.
    func readFile(_ name: String, in dirFD: Int32) -> [UInt8]? {
        let fd = openat(dirFD, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            bytes += chunk[0..<n]
        }
        return bytes
    }
}

/// The folders a batch writes into, each opened once; nil for one that does not exist.
struct FolderCache {
    private var folders: [[String]: Int32?] = [:]
    /// The folder asked for last: a batch's documents are mostly in one, found without hashing.
    private var last: (segments: [String], fd: Int32)?

    var openFolders: [Int32] { folders.values.compactMap { $0 } }

    mutating func open(_ segments: [String], create: Bool, in files: DocumentFiles) throws(DocumentStoreError) -> Int32? {
        if let last, last.segments == segments { return last.fd }
        if let known = folders[segments], known != nil || !create {
            if let known { last = (segments, known) }
            return known
        }
        let fd = try files.openFolder(segments, create: create)
        folders[segments] = fd
        if let fd { last = (segments, fd) }
        return fd
    }

    mutating func closeAll() {
        for fd in openFolders { close(fd) }
        folders = [:]
        last = nil
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

import Foundation

/// Documents as files under one root folder: `<collection>/<id>.json`, subcollections in
/// `<collection>/<id>/<subcollection>/`. Reads documents here, and wires the folder's parts
/// together: the open root (`FolderRoot`), the documents' times (`DocumentFileTimes`), the file
/// writes (`FileWriter`), the journal (`FolderJournal`), past versions (`VersionFiles`) and
/// the sweep of stray temporary files (`StrayFileSweep`).
final class DocumentFiles: Sendable {
    static let fileExtension = ".json"

    let root: FolderRoot
    let times: DocumentFileTimes
    let writer: FileWriter
    let journal: FolderJournal
    let versions: VersionFiles
    let strayFiles: StrayFileSweep

    init(root url: URL) throws(DocumentStoreError) {
        let root = try FolderRoot(url)
        let times = DocumentFileTimes(root: root)
        let writer = FileWriter(root: root, times: times)
        let journal = FolderJournal(root: root, writer: writer)
        (self.root, self.times, self.writer, self.journal) = (root, times, writer, journal)
        versions = VersionFiles(root: root, writer: writer)
        // Opening the store completes a batch a writer committed before it died, and forgets
        // one it had not committed. A folder this process cannot write is read as it is.
        if journal.hasJournalFiles && !root.isReadOnly { try journal.recover() }
        // Killed single-document writers' leftovers, swept in the background.
        strayFiles = StrayFileSweep(root: root)
    }

    /// Runs `body` holding the shared lock, so it sees no batch half applied (see `CommitJournal`).
    func reading<T>(_ body: () throws -> T) rethrows -> T {
        let lock = journal.lockForReading()
        defer { lock?.release() }
        return try body()
    }

    // MARK: Folders

    /// The folders directly below `segments` whose names are valid ids: the collections there.
    func subfolderIDs(_ segments: [String]) throws(DocumentStoreError) -> [String] {
        guard let fd = try root.openFolder(segments, create: false) else { return [] }
        defer { close(fd) }
        // By bytes, as Firestore orders ids; a name that is not UTF-8 names no collection.
        return FolderListing.listEntries(fd).compactMap { entry in
            guard entry.undecodableName == nil, entry.isDirectory ?? FolderListing.isDirectory(fd, entry.name) else { return nil }
            return (try? ResourcePath.validate(id: entry.name, in: "", rules: .folder)) == nil ? nil : entry.name
        }.sorted { UTF8Bytes.compare($0, $1) < 0 }
    }

    /// How many files of a collection's folder are not documents: neither `<id>.json` nor
    /// hidden (temporary files start with "."), and not folders (a document's collections).
    func otherFileCount(_ segments: [String]) throws(DocumentStoreError) -> Int {
        guard let fd = try root.openFolder(segments, create: false) else { return 0 }
        defer { close(fd) }
        return FolderListing.listEntries(fd).filter { entry in
            !entry.name.hasPrefix(".") && FolderListing.documentID(fileName: entry.name) == nil
                && !(entry.isDirectory ?? FolderListing.isDirectory(fd, entry.name))
        }.count
    }

    // MARK: Reading

    /// How many document files this store has opened, so tests and benchmarks can check that
    /// a quiet poll reads none.
    let filesRead = Locked(0)

    /// Reads one document file; never throws, because a bad file is that document's problem.
    func readDocument(in dirFD: Int32, fileName: String, store: Firestore) -> (StoredDocument, FileStamp?) {
        filesRead.withLock { $0 += 1 }
        var scratch = Scratch()
        return fileName.withCString { readDocument(in: dirFD, fileName: $0, store: store, scratch: &scratch) }
    }

    /// What a caller reading many files keeps from one file to the next: the buffer their bytes
    /// are read into, and the parser's, with the shapes of the maps read so far.
    struct Scratch {
        var buffer: [UInt8] = []
        var parsing = DocumentParser.Scratch()
        /// False once the kernel refused O_NOATIME (see `openForReading`).
        var sparesAccessTime = true
        /// How many bytes of `buffer` the last file read filled, when it was read whole.
        var bytesRead: Int?
    }

    #if os(Linux)
    private static let noAccessTime: Int32 = 0o1000000  // O_NOATIME, which Glibc's module leaves out
    #else
    private static let noAccessTime: Int32 = 0
    #endif

    /// Opens a document file to read it, with O_NOATIME where the kernel allows it (the file is
    /// ours): otherwise the first read after a write, and then one a day, writes the file's
    /// access time back, some 7% of the time a first read of 100,000 files takes.
    private func openForReading(_ dirFD: Int32, _ fileName: UnsafePointer<CChar>, _ scratch: inout Scratch) -> Int32 {
        let flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
        if scratch.sparesAccessTime && Self.noAccessTime != 0 {
            let fd = openat(dirFD, fileName, flags | Self.noAccessTime)
            if fd >= 0 || errno != EPERM { return fd }
            scratch.sparesAccessTime = false  // not our file: ask no more in this run of files
        }
        return openat(dirFD, fileName, flags)
    }

    /// The same, with the caller's `scratch`.
    private func readDocument(in dirFD: Int32, fileName: UnsafePointer<CChar>, store: Firestore,
                              scratch: inout Scratch) -> (StoredDocument, FileStamp?) {
        scratch.bytesRead = nil
        let fd = openForReading(dirFD, fileName, &scratch)
        guard fd >= 0 else {
            switch errno {
            case ENOENT: return (.missing, nil)
            case ELOOP: return (.unreadable("the file is a symbolic link; the store does not follow links"), nil)
            case let code: return (.unreadable(String(cString: strerror(code))), nil)
            }
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return (.unreadable(String(cString: strerror(errno))), nil) }
        let stamp = FileStamp(st)
        guard (st.st_mode & S_IFMT) == S_IFREG else { return (.unreadable("it is not a regular file"), stamp) }
        guard st.st_size <= WriteLimits.maxFileBytes else {
            return (.unreadable("the file is \(st.st_size) bytes; a document's file is at most \(WriteLimits.maxFileBytes) bytes"), stamp)
        }
        // Room for one byte more than the size, so a file that grew since the fstat is seen to
        // be over the limit; reading stops at the size, without a read that finds the end.
        if scratch.buffer.count < Int(st.st_size) + 1 { scratch.buffer = [UInt8](repeating: 0, count: max(Int(st.st_size) + 1, 4096)) }
        let limit = Int(st.st_size) + 1
        var count = 0
        while count < limit && (count != st.st_size || st.st_size == WriteLimits.maxFileBytes) {
            let n = scratch.buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, limit - count) }
            if n < 0 {
                if errno == EINTR { continue }
                return (.unreadable(String(cString: strerror(errno))), stamp)
            }
            if n == 0 { break }
            count += n
        }
        guard count <= WriteLimits.maxFileBytes else {
            return (.unreadable("the file is over \(WriteLimits.maxFileBytes) bytes; a document's file is at most that"), stamp)
        }
        scratch.bytesRead = count
        let document = StoredDocument.parse(scratch.buffer[0..<count], store: store, scratch: &scratch.parsing)
        // Only a file over 1 MiB can hold a document over 1 MiB by Firestore's count but for
        // numbers written short; those are read as they are.
        if count > WriteLimits.maxDocumentBytes, case .fields(let fields) = document, let problem = WriteLimits.sizeProblem(of: fields) {
            return (.unreadable(problem), stamp)
        }
        return (document, stamp)
    }

    /// Files per task of `readDocuments`: enough that a task's overhead vanishes, few enough
    /// that the cores share the work evenly.
    private static let filesPerTask = 512

    /// Reads the files of `count` documents of one open folder (`id(index)`, in id order, never
    /// an undecodable name) on every core (`ReaderThreads`), as `readDocument` does, the files
    /// asked for ahead when they are not in memory (`ColdFilePrefetch`), or taken from the
    /// folder's snapshot file where their stamps say they are unchanged (`pass`):
    /// `body(index, stored, stamp)` is called once per index, on any of them, concurrently.
    func readDocuments(count: Int, in dirFD: Int32, store: Firestore, snapshot pass: SnapshotPass? = nil, id: @escaping @Sendable (Int) -> ExactID,
                       _ body: @escaping @Sendable (Int, StoredDocument, FileStamp?) -> Void) {
        let name: @Sendable (Int, inout [UInt8]) -> Void = { index, fileName in Self.fileName(of: id(index), into: &fileName) }
        let prefetch = pass?.source == nil ? ColdFilePrefetch.startIfCold(count: count, in: dirFD, name: name) : nil
        let tasks = (count + Self.filesPerTask - 1) / Self.filesPerTask
        let read = Locked(0)
        ReaderThreads.shared.perform(iterations: tasks, state: { ReadingState() }) { [self] task, state in
            let indices = task * Self.filesPerTask..<min(count, (task + 1) * Self.filesPerTask)
            pass?.prepare(&state.snapshot, from: id(indices.lowerBound), through: id(indices.upperBound - 1))
            var filesOpened = 0
            for index in indices {
                name(index, &state.fileName)
                let (stored, stamp) = state.fileName.withUnsafeBytes { name in
                    let fileName = name.baseAddress!.assumingMemoryBound(to: CChar.self)
                    guard let pass else {
                        filesOpened += 1
                        return readDocument(in: dirFD, fileName: fileName, store: store, scratch: &state.scratch)
                    }
                    let id = id(index)
                    if let entry = pass.entry(for: id, &state.snapshot), Self.isUnchanged(fileName, in: dirFD, since: entry.stamp) {
                        let bytes = pass.bytes(of: entry, state.snapshot)
                        pass.took(id, entry.stamp, bytes, fromSnapshot: true, &state.snapshot)
                        return (StoredDocument.parse(bytes, store: store, scratch: &state.scratch.parsing), entry.stamp)
                    }
                    filesOpened += 1
                    let (stored, stamp) = readDocument(in: dirFD, fileName: fileName, store: store, scratch: &state.scratch)
                    pass.took(id, stamp, state.scratch.bytesRead.map { state.scratch.buffer[0..<$0] }, fromSnapshot: false, &state.snapshot)
                    return (stored, stamp)
                }
                body(index, stored, stamp)
            }
            pass?.finish(&state.snapshot)
            read.withLock { $0 += filesOpened }
        }
        filesRead.withLock { $0 += read.withLock { $0 } }
        if let prefetch { filesPrefetched.withLock { $0 += prefetch.finish() } }
    }

    /// What a reader thread keeps from one task of `readDocuments` to the next.
    private struct ReadingState {
        var scratch = Scratch()
        var fileName: [UInt8] = []
        var snapshot = SnapshotPass.Scratch()
    }

    /// True when the file `fileName` is a regular file whose stamp is `stamp`.
    private static func isUnchanged(_ fileName: UnsafePointer<CChar>, in dirFD: Int32, since stamp: FileStamp) -> Bool {
        var st = stat()
        return fstatat(dirFD, fileName, &st, AT_SYMLINK_NOFOLLOW) == 0 && (st.st_mode & S_IFMT) == S_IFREG && FileStamp(st) == stamp
    }

    /// How many document files reads asked for ahead (`ColdFilePrefetch`).
    let filesPrefetched = Locked(0)

    /// `<id>.json` and a NUL, made in `buffer` (kept from one file to the next) rather than as a string.
    private static func fileName(of id: ExactID, into buffer: inout [UInt8]) {
        buffer.removeAll(keepingCapacity: true)
        buffer += id.text.utf8
        buffer += fileExtension.utf8
        buffer.append(0)
    }

    func document(at path: ResourcePath, store: Firestore) throws(DocumentStoreError) -> StoredDocument {
        guard let dirFD = try root.openFolder(path.parent.segments, create: false) else { return .missing }
        defer { close(dirFD) }
        return readDocument(in: dirFD, fileName: path.last + Self.fileExtension, store: store).0
    }

    /// How many documents a commit encoded while it held the write lock; tests check that a
    /// prepared batch (`prepare`) encodes none there.
    let documentsEncodedUnderLock = Locked(0)
}

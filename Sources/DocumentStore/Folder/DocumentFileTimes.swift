import Foundation

/// Documents' create and update times on a folder.
///
/// The update time is the file's modification time, to the nanosecond, so a document another
/// program wrote reads with that program's time. The store sets it (`futimens`) to the commit's
/// time (`CommitClock`), one for every document of a commit as Firestore's `commit_time`, or,
/// should the document's own time be as late (another program's clock), to a nanosecond after
/// it, so an `update_time` precondition always sees a change. A file the commit would write
/// with the bytes it holds is left alone, with its times (`times(of:ifHolding:in:)`).
///
/// The create time is kept in the extended attribute `user.firestore.create_time` (RFC 3339),
/// written when the store creates the document and carried over to each new file that replaces
/// it. A file without one (written by another program, or on a file system without extended
/// attributes) was created when its file was born (statx's birth time), or, where the file
/// system does not say, when it was last modified.
struct DocumentFileTimes: Sendable {
    static let createTimeAttribute = "user.firestore.create_time"

    let root: FolderRoot
    /// How many times a write looked for the document its file replaces (for its times); tests
    /// check that a batch of new documents looks for none.
    let documentsLookedUp = Locked(0)

    /// The times of the document at `path`; nil when it has no file.
    func times(at path: ResourcePath) throws(DocumentStoreError) -> DocumentTimes? {
        try times(at: [path])[0]
    }

    /// The times of the documents at `paths`, each folder opened once (`shelf export` asks for
    /// 500 documents of one collection at a time).
    func times(at paths: [ResourcePath]) throws(DocumentStoreError) -> [DocumentTimes?] {
        var folders = FolderCache()
        defer { folders.closeAll() }
        var times: [DocumentTimes?] = []
        times.reserveCapacity(paths.count)
        for path in paths {
            guard let dirFD = try folders.open(path.parent.segments, create: false, in: root) else { times.append(nil); continue }
            times.append(Self.times(of: path.last + DocumentFiles.fileExtension, in: dirFD))
        }
        return times
    }

    /// The times of the file `name` in an open folder (not following a symbolic link); nil when
    /// there is none.
    static func times(of name: String, in dirFD: Int32) -> DocumentTimes? {
        let fd = openat(dirFD, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        var st = stat()
        if fd >= 0 {
            defer { close(fd) }
            guard fstat(fd, &st) == 0 else { return nil }
            return times(ofOpen: fd, st)
        }
        // A file this process cannot open (no permission, a symbolic link) still has times.
        guard errno != ENOENT, fstatat(dirFD, name, &st, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        let updated = Timestamp(st.st_mtim)
        return DocumentTimes(created: LinuxCalls.birthTime(dirFD: dirFD, name: name, flags: AT_SYMLINK_NOFOLLOW) ?? updated, updated: updated)
    }

    /// The times of the open file `fd`, whose `fstat` is `st`.
    private static func times(ofOpen fd: Int32, _ st: stat) -> DocumentTimes {
        let updated = Timestamp(st.st_mtim)
        let created = createTimeAttribute(of: fd) ?? LinuxCalls.birthTime(dirFD: fd, name: "", flags: LinuxCalls.emptyPath) ?? updated
        return DocumentTimes(created: created, updated: updated)
    }

    /// The times of the document file `name` of an open folder when it holds exactly `bytes`,
    /// which a commit then leaves as it is (`CommitJournal.Entry.leavesAnEqualFile`); nil when
    /// it is missing or holds anything else. Bytes, not fields: the store writes a document's
    /// keys sorted, so the same fields are the same bytes, unless another program wrote the
    /// file in its own layout (then it is written again, and its update time moves). A file
    /// of another size is not read.
    static func times(of name: String, ifHolding bytes: [UInt8], in dirFD: Int32) -> DocumentTimes? {
        let fd = openat(dirFD, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_size == bytes.count else { return nil }
        // One byte more than expected, so a file that grew meanwhile is seen to differ.
        var held = [UInt8](repeating: 0, count: bytes.count + 1)
        var count = 0
        while count < held.count {
            let n = held.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            count += n
        }
        guard count == bytes.count, held.prefix(count).elementsEqual(bytes) else { return nil }
        return times(ofOpen: fd, st)
    }

    /// The times a new file gets before it takes a document's place (see `stamp`).
    enum Stamp {
        /// Those of the document file of this name it replaces: its create time and the
        /// commit's time as update time (later than its own); both the commit's time for a new
        /// document.
        case replacing(String, at: Timestamp)
        /// The commit's time, as a new document's, without looking for the document: a
        /// batch's rename finds out whether there is one (see `FolderJournal.placeNewDocument`).
        case new(at: Timestamp)
        /// Given times (`shelf export`).
        case kept(DocumentTimes)
    }

    /// Gives a new file `fd` of the folder `dirFD` the times `times` says. Sets
    /// `stamped` to them and returns 0, or returns the errno of a failure to set the time. A
    /// file system without extended attributes keeps no create time (see above), which is no
    /// failure.
    func stamp(_ fd: Int32, _ times: Stamp, in dirFD: Int32, stamped: inout DocumentTimes?) -> Int32 {
        var chosen: DocumentTimes
        switch times {
        case .kept(let kept):
            chosen = kept
        case .new(let time):
            chosen = DocumentTimes(created: time, updated: time)
        case .replacing(let document, let time):
            chosen = DocumentTimes(created: time, updated: time)
            documentsLookedUp.withLock { $0 += 1 }
            if let previous = Self.times(of: document, in: dirFD) {
                chosen.created = previous.created
                if chosen.updated <= previous.updated { chosen.updated = previous.updated.addingNanosecond }
            }
        }
        let omitted = timespec(tv_sec: 0, tv_nsec: (1 << 30) - 2)  // UTIME_OMIT: the access time stays
        guard futimens(fd, [omitted, chosen.updated.fileTime]) == 0 else { return errno }
        let text = chosen.created.rfc3339
        _ = text.withCString { LinuxCalls.setAttribute?(fd, Self.createTimeAttribute, $0, strlen($0), 0) }
        stamped = chosen
        return 0
    }

    /// The create time the attribute holds; nil when it has none, or none that reads as a time.
    private static func createTimeAttribute(of fd: Int32) -> Timestamp? {
        guard let getAttribute = LinuxCalls.getAttribute else { return nil }
        var buffer = [CChar](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { getAttribute(fd, createTimeAttribute, $0.baseAddress, $0.count - 1) }
        guard count > 0 else { return nil }
        return Timestamp(rfc3339: String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
}

extension Timestamp {
    /// A file's time.
    init(_ time: timespec) {
        self.init(seconds: Int64(time.tv_sec), nanoseconds: Int32(time.tv_nsec))
    }

    /// As a file's time.
    var fileTime: timespec { timespec(tv_sec: Int(seconds), tv_nsec: Int(nanoseconds)) }

    /// The next instant a file's time can hold.
    var addingNanosecond: Timestamp {
        nanoseconds == 999_999_999 ? Timestamp(seconds: seconds + 1, nanoseconds: 0) : Timestamp(seconds: seconds, nanoseconds: nanoseconds + 1)
    }
}

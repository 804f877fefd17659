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
extension DocumentFiles {
    static let createTimeAttribute = "user.firestore.create_time"

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
            guard let dirFD = try folders.open(path.parent.segments, create: false, in: self) else { times.append(nil); continue }
            times.append(Self.times(of: path.last + Self.fileExtension, in: dirFD))
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

    /// The times a new file gets before it takes a document's place (see `stampTimes`).
    enum FileTimes {
        /// Those of the document file of this name it replaces: its create time and the
        /// commit's time as update time (later than its own); both the commit's time for a new
        /// document.
        case replacing(String, at: Timestamp)
        /// The commit's time, as a new document's, without looking for the document: a
        /// batch's rename finds out whether there is one (see `placeNewDocument`).
        case new(at: Timestamp)
        /// Given times (`shelf export`).
        case kept(DocumentTimes)
    }

    /// Gives a new file `fd` of the folder `dirFD` the times `times` says. Sets
    /// `stamped` to them and returns 0, or returns the errno of a failure to set the time. A
    /// file system without extended attributes keeps no create time (see above), which is no
    /// failure.
    func stampTimes(_ fd: Int32, _ times: FileTimes, in dirFD: Int32, stamped: inout DocumentTimes?) -> Int32 {
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

    /// Renames the temporary file `name`, stamped as a new document's (`FileTimes.new`), to the
    /// document file `document`, unless that is there already: then, if it holds `entry`'s
    /// bytes and may stay (`leavesAnEqualFile`), the temporary file is removed and `placed`
    /// says the document is unchanged, with its times; else the temporary file is stamped from
    /// it first (`FileTimes.replacing`, at the commit's `time`) and `placed` set to its new
    /// times. One rename for a new document, where looking first would cost a lookup in a
    /// folder that may hold millions of names. Returns 0 or the errno of the failure.
    func placeNewDocument(_ name: String, as document: String, of entry: CommitJournal.Entry, at time: Timestamp, in dirFD: Int32,
                          syncing: Bool, placed: inout WrittenFile) -> Int32 {
        if let renameNoReplace = LinuxCalls.renameNoReplace {
            if renameNoReplace(dirFD, name, dirFD, document, LinuxCalls.noReplace) == 0 { return 0 }
            // EINVAL: a file system that cannot rename so; ENOSYS: a kernel without renameat2.
            // Either way the document is looked up as before.
            guard errno == EEXIST || errno == EINVAL || errno == ENOSYS else { return errno }
        }
        if entry.leavesAnEqualFile, let bytes = entry.bytes, let times = Self.times(of: document, ifHolding: bytes, in: dirFD) {
            unlinkat(dirFD, name, 0)
            placed = WrittenFile(times: times, changed: false)
            return 0
        }
        var stamped = placed.times
        defer { placed.times = stamped }
        let fd = openat(dirFD, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return errno }
        var failure = stampTimes(fd, .replacing(document, at: time), in: dirFD, stamped: &stamped)
        if failure == 0 && syncing && sync(fd) != 0 { failure = errno }
        close(fd)
        guard failure == 0 else { return failure }
        return renameat(dirFD, name, dirFD, document) == 0 ? 0 : errno
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

/// The C library's calls that Glibc's Swift module leaves out (`<sys/xattr.h>`, and `statx`,
/// `renameat2` and `preadv2`, declared only under `_GNU_SOURCE`), found when first used; nil
/// where the library lacks them.
enum LinuxCalls {
    typealias GetAttribute = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeMutableRawPointer?, Int) -> Int
    typealias SetAttribute = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeRawPointer?, Int, Int32) -> Int32
    typealias Statx = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UInt32, UnsafeMutableRawPointer) -> Int32
    typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
    typealias ReadV2 = @convention(c) (Int32, UnsafePointer<iovec>, Int32, Int, Int32) -> Int

    static let getAttribute: GetAttribute? = symbol("fgetxattr")
    static let setAttribute: SetAttribute? = symbol("fsetxattr")
    private static let statx: Statx? = symbol("statx")
    /// `renameat2`, with `noReplace` (RENAME_NOREPLACE): fails with EEXIST rather than replace.
    static let renameNoReplace: RenameAt2? = symbol("renameat2")
    static let noReplace: UInt32 = 1
    /// `preadv2`, with `noWait` (RWF_NOWAIT): fails with EAGAIN rather than wait for the disk.
    static let readNoWait: ReadV2? = symbol("preadv2")
    static let noWait: Int32 = 8

    /// AT_EMPTY_PATH: `birthTime` of the open file `dirFD` itself, with an empty name.
    static let emptyPath: Int32 = 0x1000
    private static let birthTimeMask: UInt32 = 0x800  // STATX_BTIME
    /// Where `struct statx` keeps `stx_btime` (an Int64 of seconds, a UInt32 of nanoseconds).
    private static let birthTimeOffset = 80

    private static func symbol<T>(_ name: String) -> T? {
        guard let pointer = dlsym(dlopen(nil, RTLD_NOW), name) else { return nil }
        return unsafeBitCast(pointer, to: T.self)
    }

    /// The file's birth time, when the kernel and the file system know it.
    static func birthTime(dirFD: Int32, name: String, flags: Int32) -> Timestamp? {
        guard let statx else { return nil }
        var buffer = [UInt8](repeating: 0, count: 256)  // struct statx's size
        return buffer.withUnsafeMutableBytes { raw -> Timestamp? in
            guard statx(dirFD, name, flags, birthTimeMask, raw.baseAddress!) == 0,
                  raw.load(as: UInt32.self) & birthTimeMask != 0 else { return nil }
            let seconds = raw.load(fromByteOffset: birthTimeOffset, as: Int64.self)
            let nanoseconds = raw.load(fromByteOffset: birthTimeOffset + 8, as: UInt32.self)
            guard nanoseconds < 1_000_000_000 else { return nil }
            return Timestamp(seconds: seconds, nanoseconds: Int32(nanoseconds))
        }
    }
}

import Foundation

/// The store's root folder, held open: every path below it is walked from here with
/// `O_NOFOLLOW`, so neither an id nor a symbolic link can lead a read or a write outside the
/// store. Shared by the folder store's parts (the journal, the times, the versions, the sweep),
/// which each hold it rather than the whole store.
final class FolderRoot: Sendable {
    /// The hidden folder of the store's own files: the lock, the journal, the versions.
    static let shelfFolder = ".shelf"

    let path: String
    let fd: Int32
    /// Holds folder opens back while a listener adds an inotify watch (see `FolderWatchGate`).
    let watchGate = FolderWatchGate()

    /// What this store asked the kernel to make durable: every `fsync`, `fdatasync`, `syncfs`
    /// and `sync`, and how many of them were a batch's barrier; tests check that a batch of 500
    /// documents costs one barrier and as many calls as a batch of two.
    struct SyncCount: Equatable {
        var calls = 0
        var barriers = 0
    }
    let syncs = Locked(SyncCount())

    /// Opens the folder at `url`, creating it (not its parents) when it is not there.
    init(_ url: URL) throws(DocumentStoreError) {
        path = url.path
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            } catch {
                throw Self.ioError(error, at: path, "create the data folder")
            }
        } else if !isDirectory.boolValue {
            throw .io(path: path, operation: "open the data folder", reason: "it is a file, not a folder")
        }
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .io(path, "open the data folder", errno: errno) }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Why Foundation could not make a folder: the system's reason and errno, where it says.
    private static func ioError(_ error: Error, at path: String, _ operation: String) -> DocumentStoreError {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return .io(path, operation, errno: Int32(underlying.code))
        }
        return .io(path: path, operation: operation, reason: ns.localizedDescription)
    }

    /// True when the store's folder cannot be written (a read-only mount or permissions).
    var isReadOnly: Bool { faccessat(fd, ".", W_OK, AT_EACCESS) != 0 }

    /// True when the store has written here: every write makes the hidden folder.
    var hasShelfFolder: Bool {
        var st = stat()
        return fstatat(fd, Self.shelfFolder, &st, 0) == 0
    }

    /// Opens the folder at `segments` below the root (a collection, or a document's folder of
    /// subcollections). Returns nil when it does not exist and `create` is false.
    func openFolder(_ segments: [String], create: Bool) throws(DocumentStoreError) -> Int32? {
        watchGate.waitToOpen()
        var fd = openat(self.fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .io(path, "open the data folder", errno: errno) }
        for (depth, segment) in segments.enumerated() {
            var next = openat(fd, segment, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if next < 0 && errno == ENOENT && create {
                if mkdirat(fd, segment, 0o755) != 0 && errno != EEXIST {
                    let code = errno
                    close(fd)
                    throw .io(display(segments.prefix(depth + 1)), "create the folder", errno: code)
                }
                sync(fd)  // the new folder's name is durable too
                next = openat(fd, segment, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            let code = errno
            close(fd)
            if next < 0 {
                if code == ENOENT { return nil }
                if code == ELOOP || code == ENOTDIR {
                    throw .io(path: display(segments.prefix(depth + 1)), operation: "open the folder",
                              reason: "it is a symbolic link or a file; the store only follows real folders inside itself")
                }
                throw .io(display(segments.prefix(depth + 1)), "open the folder", errno: code)
            }
            fd = next
        }
        return fd
    }

    /// Opens (creating it if needed) a folder that must be there, such as the hidden one.
    func openRequiredFolder(_ segments: [String]) throws(DocumentStoreError) -> Int32 {
        guard let fd = try openFolder(segments, create: true) else {
            throw .io(path: display(segments), operation: "create the folder", reason: "it could not be created")
        }
        return fd
    }

    /// The path of `segments` below the root, as errors and messages show it.
    func display(_ segments: some Collection<String>) -> String {
        segments.isEmpty ? path : path + "/" + segments.joined(separator: "/")
    }

    /// `fsync`, counted.
    @discardableResult
    func sync(_ fd: Int32) -> Int32 {
        syncs.withLock { $0.calls += 1 }
        return fsync(fd)
    }

    /// `fdatasync` of the file `name` of an open folder, counted.
    func syncFile(_ name: String, in dirFD: Int32, display folder: String) throws(DocumentStoreError) {
        let fd = openat(dirFD, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw .io(folder + "/" + name, "open", errno: errno) }
        defer { close(fd) }
        syncs.withLock { $0.calls += 1 }
        guard fdatasync(fd) == 0 else { throw .io(folder + "/" + name, "make durable", errno: errno) }
    }

    /// A whole small file (of the hidden folder, a document's), or nil when it is not there.
    static func readFile(_ name: String, in dirFD: Int32) -> [UInt8]? {
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

import Foundation

/// The store's write lock: an exclusive `flock` on `.shelf/lock` in the store's folder, held while
/// a commit reads, checks and writes. Each holder opens the file itself, because `flock` locks
/// belong to an open file, so threads of one process exclude each other as processes do.
struct WriteLock {
    static let folderName = ".shelf"
    private let fd: Int32

    init(files: DocumentFiles) throws(DocumentStoreError) {
        let folder = files.rootPath + "/" + Self.folderName
        guard let dirFD = try files.openFolder([Self.folderName], create: true) else {
            throw .io(path: folder, operation: "create the folder", reason: "it could not be created")
        }
        defer { close(dirFD) }
        let fd = openat(dirFD, "lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .io(folder + "/lock", "open the lock file", errno: errno) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let code = errno
                close(fd)
                throw .io(folder + "/lock", "lock", errno: code)
            }
        }
        self.fd = fd
    }

    func release() {
        flock(fd, LOCK_UN)
        close(fd)
    }
}

import Foundation

/// The store's write lock, held while a commit reads, checks and writes: an exclusive `flock`
/// on `.shelf/lock` (the lock writers have always taken), then an exclusive `flock` on the
/// store's folder itself, which readers share (`ReadLock`). Each holder opens both itself,
/// because `flock` locks belong to an open file, so threads of one process exclude each other
/// as processes do. Always in that order, so writers never wait for each other in a cycle.
struct WriteLock {
    private let fd: Int32
    private let folderFD: Int32

    init(root: FolderRoot) throws(DocumentStoreError) {
        let folder = root.display([FolderRoot.shelfFolder])
        let dirFD = try root.openRequiredFolder([FolderRoot.shelfFolder])
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
        guard let folderFD = ReadLock.lockFolder(root, LOCK_EX) else {
            let code = errno
            flock(fd, LOCK_UN)
            close(fd)
            throw .io(root.path, "lock the data folder", errno: code)
        }
        self.fd = fd
        self.folderFD = folderFD
    }

    func release() {
        flock(folderFD, LOCK_UN)
        close(folderFD)
        flock(fd, LOCK_UN)
        close(fd)
    }
}

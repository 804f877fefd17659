import Foundation

/// A reader's shared `flock` on the store's folder itself: while it is held no writer is
/// between a batch's commit point and the end of its apply (writers hold it exclusively
/// throughout, see `WriteLock`), so a reader never sees half a batch. Locking the folder needs
/// no file of its own, so reading creates nothing and works in a folder that cannot be written.
/// Each holder opens the folder itself, as `flock` locks belong to an open file.
struct ReadLock {
    private let fd: Int32

    /// Nil only when the folder cannot be opened again (no file descriptor left) or locked.
    init?(root: FolderRoot) {
        guard let fd = Self.lockFolder(root, LOCK_SH) else { return nil }
        self.fd = fd
    }

    func release() {
        flock(fd, LOCK_UN)
        close(fd)
    }

    /// Opens the store's folder and locks it (`LOCK_SH` or `LOCK_EX`); the descriptor holds it.
    static func lockFolder(_ root: FolderRoot, _ operation: Int32) -> Int32? {
        let fd = openat(root.fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        while flock(fd, operation) != 0 {
            guard errno == EINTR else {
                close(fd)
                return nil
            }
        }
        return fd
    }
}

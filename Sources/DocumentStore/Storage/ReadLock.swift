import Foundation

/// A reader's shared `flock` on `.shelf/lock`: while it is held no writer is between a batch's
/// commit point and the end of its apply (writers hold the exclusive lock throughout), so a
/// reader never sees half a batch. Each holder opens the file itself, as `flock` locks belong
/// to an open file.
struct ReadLock {
    private let fd: Int32

    /// Nil when the lock file cannot be opened or locked (a read-only folder without one).
    init?(files: DocumentFiles) {
        var fd = openat(files.rootFD, WriteLock.folderName + "/lock", O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        if fd < 0 && errno == ENOENT && !files.isReadOnly {
            // A writable store without a lock file yet: make it, so that this reader and a
            // writer starting now exclude each other.
            guard let folder = try? files.openFolder([WriteLock.folderName], create: true) else { return nil }
            fd = openat(folder, "lock", O_RDONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
            close(folder)
        }
        guard fd >= 0 else { return nil }
        while flock(fd, LOCK_SH) != 0 {
            guard errno == EINTR else {
                close(fd)
                return nil
            }
        }
        self.fd = fd
    }

    func release() {
        flock(fd, LOCK_UN)
        close(fd)
    }
}

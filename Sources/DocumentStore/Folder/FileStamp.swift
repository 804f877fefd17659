import Foundation

/// What a poll compares to decide whether a file changed without reading it.
struct FileStamp: Equatable, Sendable {
    var inode: UInt64
    var size: Int64
    var modified: timespec
    var changed: timespec

    init(_ st: stat) {
        inode = UInt64(st.st_ino)
        size = Int64(st.st_size)
        modified = st.st_mtim
        changed = st.st_ctim
    }

    static func == (a: FileStamp, b: FileStamp) -> Bool {
        a.inode == b.inode && a.size == b.size
            && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
            && a.changed.tv_sec == b.changed.tv_sec && a.changed.tv_nsec == b.changed.tv_nsec
    }

    /// Seconds since the epoch of the last change to the file or its metadata.
    var lastChange: Double {
        let m = Double(modified.tv_sec) + Double(modified.tv_nsec) / 1e9
        let c = Double(changed.tv_sec) + Double(changed.tv_nsec) / 1e9
        return max(m, c)
    }
}

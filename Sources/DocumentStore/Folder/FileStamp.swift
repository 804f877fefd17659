import Foundation

/// What a poll compares to decide whether a file changed without reading it: its inode, size
/// and the times of its last modification and status change. 32 bytes, since a listener keeps
/// one for every file of its folder.
struct FileStamp: Equatable, Sendable {
    var inode: UInt64
    /// -1 for a file listed but not read (`listed(inode:)`): no file's stat equals it.
    var size: Int64
    /// Nanoseconds since the epoch, wrapping past the year 2262: only compared for equality,
    /// and two times of one file 584 years apart are not a change a poll needs to tell.
    private var modified: Int64
    private var changed: Int64

    init(_ st: stat) {
        inode = UInt64(st.st_ino)
        size = Int64(st.st_size)
        modified = Self.nanoseconds(st.st_mtim)
        changed = Self.nanoseconds(st.st_ctim)
    }

    /// A file seen in a listing (which gives inodes) that was not read, or could not be.
    static func listed(inode: UInt64) -> FileStamp {
        var stamp = FileStamp(stat())
        stamp.inode = inode
        stamp.size = -1
        return stamp
    }

    var wasRead: Bool { size >= 0 }

    /// Its four numbers, for a file that keeps stamps (`CollectionSnapshotFile`).
    var numbers: [Int64] { [Int64(bitPattern: inode), size, modified, changed] }

    /// The stamp whose `numbers` these are.
    init(numbers: (Int64, Int64, Int64, Int64)) {
        (inode, size, modified, changed) = (UInt64(bitPattern: numbers.0), numbers.1, numbers.2, numbers.3)
    }

    private static func nanoseconds(_ time: timespec) -> Int64 {
        Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }

    /// Seconds since the epoch of the last change to the file or its metadata.
    var lastChange: Double { Double(max(modified, changed)) / 1e9 }
}

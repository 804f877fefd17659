import Foundation

/// Listing a folder: its entries as readdir gives them, and which names are documents. Shared
/// by every reader, writer and sweep of the folder store, so a name is judged one way.
enum FolderListing {
    static func isDirectory(_ dirFD: Int32, _ name: String) -> Bool {
        var st = stat()
        return fstatat(dirFD, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    struct Entry {
        var name: String
        var inode: UInt64
        /// nil when the file system does not say (DT_UNKNOWN).
        var isDirectory: Bool?
        /// The name's bytes when they are not valid UTF-8 (`name` then has U+FFFD in their place).
        var undecodableName: [UInt8]? = nil
    }

    /// Every name in an open folder except "." and "..", with the inode readdir gives for free;
    /// the first `limit` of them, in the folder's order, when given.
    static func listEntries(_ dirFD: Int32, limit: Int = .max) -> [Entry] {
        var entries: [Entry] = []
        guard limit > 0 else { return entries }
        forEachEntry(dirFD) { bytes, inode, isDirectory in
            let name = String(validating: bytes, as: UTF8.self)
            entries.append(Entry(name: name ?? String(decoding: bytes, as: UTF8.self), inode: inode, isDirectory: isDirectory,
                                 undecodableName: name == nil ? Array(bytes) : nil))
            return entries.count < limit
        }
        return entries
    }

    /// Calls `body` with each name in an open folder except "." and ".." (its bytes), its inode
    /// and whether it is a folder (nil when the file system does not say: DT_UNKNOWN), in the
    /// folder's order, while `body` returns true.
    static func forEachEntry(_ dirFD: Int32, _ body: (UnsafeBufferPointer<UInt8>, UInt64, Bool?) -> Bool) {
        let fd = dup(dirFD)
        guard fd >= 0, let dir = fdopendir(fd) else { return }
        defer { closedir(dir) }
        rewinddir(dir)
        while let entry = readdir(dir) {
            let type = entry.pointee.d_type
            let isDirectory: Bool? = type == UInt8(DT_UNKNOWN) ? nil : type == UInt8(DT_DIR)
            // The name read where it is: a dirent is only as long as its name (`d_reclen`), so
            // a copy of the whole 256-byte `d_name` could read past the end of readdir's buffer
            // (`shelf serve` crashed so, on a page boundary, under the Python client's tests).
            let start = UnsafeRawPointer(entry) + MemoryLayout<dirent>.offset(of: \dirent.d_name)!
            let name = UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: strlen(start.assumingMemoryBound(to: CChar.self)))
            if name.elementsEqual(".".utf8) || name.elementsEqual("..".utf8) { continue }
            if !body(name, UInt64(entry.pointee.d_ino), isDirectory) { return }
        }
    }

    /// The document id a file name stands for, or nil for anything that is not a document
    /// (temporary files start with ".", other files lack ".json").
    static func documentID(fileName name: String) -> String? {
        guard name.hasSuffix(DocumentFiles.fileExtension), !name.hasPrefix("."),
              name.utf8.count > DocumentFiles.fileExtension.utf8.count else { return nil }
        return String(name.dropLast(DocumentFiles.fileExtension.count))
    }
}

import Foundation

/// The folders a batch writes into, each opened once; nil for one that does not exist.
struct FolderCache {
    private var folders: [[String]: Int32?] = [:]
    /// The folder asked for last: a batch's documents are mostly in one, found without hashing.
    private var last: (segments: [String], fd: Int32)?

    var openFolders: [Int32] { folders.values.compactMap { $0 } }

    mutating func open(_ segments: [String], create: Bool, in root: FolderRoot) throws(DocumentStoreError) -> Int32? {
        if let last, last.segments == segments { return last.fd }
        if let known = folders[segments], known != nil || !create {
            if let known { last = (segments, known) }
            return known
        }
        let fd = try root.openFolder(segments, create: create)
        folders[segments] = fd
        if let fd { last = (segments, fd) }
        return fd
    }

    mutating func closeAll() {
        for fd in openFolders { close(fd) }
        folders = [:]
        last = nil
    }
}

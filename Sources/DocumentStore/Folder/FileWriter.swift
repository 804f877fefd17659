import Foundation

/// What a commit made of one document's file: its times after (nil: deleted), and whether
/// the file was written or left as it was (`CommitJournal.Entry.leavesAnEqualFile`).
struct WrittenFile {
    var times: DocumentTimes?
    var changed = true
}

/// Writes a folder's files whole, atomically and durably: a file written and stamped with its
/// document's times before it gets its name, so no reader sees half of one. One document's
/// commit is one such file renamed over the document (`persist`); a batch's goes through the
/// journal (`FolderJournal`), which writes its files here too.
struct FileWriter: Sendable {
    let root: FolderRoot
    let times: DocumentFileTimes

    /// Writes or deletes one document file, atomically and durably, unless it holds the
    /// entry's bytes already; what became of it.
    func persist(_ entry: CommitJournal.Entry, commitTime: Timestamp) throws -> WrittenFile {
        let path = entry.path, bytes = entry.bytes
        let folder = root.display(path.parent.segments)
        guard let dirFD = try root.openFolder(path.parent.segments, create: bytes != nil) else { return WrittenFile(times: nil) }
        defer { close(dirFD) }
        let fileName = path.last + DocumentFiles.fileExtension
        var times: DocumentTimes?
        if let bytes {
            if entry.leavesAnEqualFile, let kept = DocumentFileTimes.times(of: fileName, ifHolding: bytes, in: dirFD) {
                return WrittenFile(times: kept, changed: false)
            }
            var random = SystemRandomNumberGenerator()
            let tempName = ".shelf-\(String(random.next(), radix: 36)).tmp"
            times = try writeFile(tempName, in: dirFD, bytes, exclusive: true, sync: true, display: folder,
                                  times: entry.keptTimes.map { .kept($0) } ?? .replacing(fileName, at: commitTime))
            guard renameat(dirFD, tempName, dirFD, fileName) == 0 else {
                let code = errno
                unlinkat(dirFD, tempName, 0)
                throw DocumentStoreError.io(folder + "/" + fileName, "write", errno: code)
            }
        } else {
            guard unlinkat(dirFD, fileName, 0) == 0 || errno == ENOENT else {
                throw DocumentStoreError.io(folder + "/" + fileName, "delete", errno: errno)
            }
        }
        root.sync(dirFD)
        return WrittenFile(times: times)
    }

    /// Writes `bytes` to a new file `name` in an open folder (replacing one of that name unless
    /// `exclusive`), fsynced when `sync`. A failure removes the file. A file that is to become
    /// a document gets its `times` first (see `DocumentFileTimes.stamp`), which it returns.
    /// `folder` names the folder in an error, made only then (a batch writes 500 files under
    /// the write lock).
    @discardableResult
    func writeFile(_ name: String, in dirFD: Int32, _ bytes: [UInt8], exclusive: Bool, sync: Bool,
                   display folder: @autoclosure () -> String, times: DocumentFileTimes.Stamp? = nil) throws(DocumentStoreError) -> DocumentTimes? {
        let fd = openat(dirFD, name, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | (exclusive ? O_EXCL : O_TRUNC), 0o644)
        guard fd >= 0 else { throw .io(folder(), "write a file in", errno: errno) }
        var written = 0
        var failure: Int32 = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                failure = errno
                break
            }
            written += n
        }
        var stamped: DocumentTimes?
        if failure == 0, let times { failure = self.times.stamp(fd, times, in: dirFD, stamped: &stamped) }
        if failure == 0 && sync && root.sync(fd) != 0 { failure = errno }
        if close(fd) != 0 && failure == 0 && errno != EINTR { failure = errno }
        if failure != 0 {
            unlinkat(dirFD, name, 0)
            throw .io(folder() + "/" + name, "write", errno: failure)
        }
        return stamped
    }
}

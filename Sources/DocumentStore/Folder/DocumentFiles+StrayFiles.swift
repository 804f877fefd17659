import Foundation

/// Temporary files a killed writer left beside documents (`.shelf-<random>.tmp`: written,
/// not yet renamed over the document). Batches clean theirs up through the journal; a single
/// document's write has no journal, so its leftovers are swept here: when the store opens, and
/// when `shelf check` or `shelf list` asks (also in a folder Shelf never wrote to). Only files
/// older than a minute: a live commit holds its temporary files for milliseconds, and a
/// batch's roll-forward writes a missing one again from its journal, so no lock is needed
/// (and opening never waits for another process's writer).
extension DocumentFiles {
    static let strayAge: TimeInterval = 60
    private static let temporaryPrefix = Array(".shelf-".utf8)
    private static let temporarySuffix = Array(".tmp".utf8)

    /// Removes the stray temporary files in every collection folder at any depth; returns
    /// their paths relative to the root. Nothing on a folder this process cannot write.
    @discardableResult
    func removeStrayTemporaryFiles(olderThan age: TimeInterval = DocumentFiles.strayAge) -> [String] {
        guard !isReadOnly else { return [] }
        var removed: [String] = []
        let cutoff = Date().timeIntervalSince1970 - age
        func sweep(_ dirFD: Int32, _ prefix: String) {
            // Names looked at as bytes: a folder of a million documents makes no million
            // strings (which took a core 0.7 s and 43 MB while the app read the same folder).
            var temporary: [String] = [], folders: [String] = []
            Self.forEachEntry(dirFD) { bytes, _, isDirectory in
                if bytes.starts(with: Self.temporaryPrefix) && bytes.reversed().starts(with: Self.temporarySuffix.reversed()) {
                    if let name = String(validating: bytes, as: UTF8.self) { temporary.append(name) }
                } else if bytes.first != UInt8(ascii: "."), isDirectory ?? true {
                    if let name = String(validating: bytes, as: UTF8.self) { folders.append(name) }
                }
                return true
            }
            for name in temporary {
                var st = stat()
                guard fstatat(dirFD, name, &st, AT_SYMLINK_NOFOLLOW) == 0, (st.st_mode & S_IFMT) == S_IFREG,
                      TimeInterval(st.st_mtim.tv_sec) < cutoff, unlinkat(dirFD, name, 0) == 0 else { continue }
                removed.append(prefix + name)
            }
            for name in folders {
                let child = openat(dirFD, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                guard child >= 0 else { continue }
                sweep(child, prefix + name + "/")
                close(child)
            }
        }
        sweep(rootFD, "")
        strayFilesRemoved.withLock { $0 += removed }
        return removed
    }
}

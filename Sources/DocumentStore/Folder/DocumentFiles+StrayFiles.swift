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

    /// Removes the stray temporary files in every collection folder at any depth; returns
    /// their paths relative to the root. Nothing on a folder this process cannot write.
    @discardableResult
    func removeStrayTemporaryFiles(olderThan age: TimeInterval = DocumentFiles.strayAge) -> [String] {
        guard !isReadOnly else { return [] }
        var removed: [String] = []
        let cutoff = Date().timeIntervalSince1970 - age
        func sweep(_ dirFD: Int32, _ prefix: String) {
            for entry in Self.listEntries(dirFD) where entry.undecodableName == nil {
                if entry.name.hasPrefix(".shelf-") && entry.name.hasSuffix(".tmp") {
                    var st = stat()
                    guard fstatat(dirFD, entry.name, &st, AT_SYMLINK_NOFOLLOW) == 0, (st.st_mode & S_IFMT) == S_IFREG,
                          TimeInterval(st.st_mtim.tv_sec) < cutoff, unlinkat(dirFD, entry.name, 0) == 0 else { continue }
                    removed.append(prefix + entry.name)
                } else if !entry.name.hasPrefix("."), entry.isDirectory ?? true {
                    let child = openat(dirFD, entry.name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                    guard child >= 0 else { continue }
                    sweep(child, prefix + entry.name + "/")
                    close(child)
                }
            }
        }
        sweep(rootFD, "")
        strayFilesRemoved.withLock { $0 += removed }
        return removed
    }
}

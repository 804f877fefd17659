import Foundation

/// Temporary files a killed writer left beside documents (`.shelf-<random>.tmp`: written,
/// not yet renamed over the document). Batches clean theirs up through the journal; a single
/// document's write has no journal, so its leftovers are swept here: when the store opens, and
/// when `shelf check` or `shelf list` asks (also in a folder Shelf never wrote to). Only files
/// older than a minute: a live commit holds its temporary files for milliseconds, and a
/// batch's roll-forward writes a missing one again from its journal, so no lock is needed
/// (and opening never waits for another process's writer).
final class StrayFileSweep: Sendable {
    static let strayAge: TimeInterval = 60
    /// How long after opening the sweep begins: a listener's first files are read first
    /// (listing a million names took one of two cores while they were, and the first rows
    /// waited for it).
    static let delay: TimeInterval = 1
    private static let temporaryPrefix = Array(".shelf-".utf8)
    private static let temporarySuffix = Array(".tmp".utf8)

    let root: FolderRoot
    /// Every stray temporary file this store has removed.
    let removed = Locked<[String]>([])
    /// The sweep the opening started; `removedWhenOpened` waits for it.
    private let openingSweep = DispatchGroup()
    /// True while the opening's sweep is due and not yet begun.
    private let openingSweepDue = Locked(false)

    /// Starts the opening's sweep a moment later (or as soon as asked for): listing a million
    /// files would hold up the first rows. Only a folder Shelf has written to can hold stray
    /// files (every write makes `.shelf/`), so a fresh or read-only one costs one stat.
    init(root: FolderRoot) {
        self.root = root
        guard root.hasShelfFolder else { return }
        openingSweepDue.withLock { $0 = true }
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + Self.delay) { self.startOpeningSweep() }
    }

    /// The stray temporary files the opening's sweep removed, once it is done.
    func removedWhenOpened() -> [String] {
        startOpeningSweep()
        openingSweep.wait()
        return removed.withLock { $0 }
    }

    /// Begins the opening's sweep, unless it has begun or is not due.
    private func startOpeningSweep() {
        openingSweepDue.withLock { due in
            guard due else { return }
            due = false
            // Entered while locked, so whoever finds it begun can wait for it.
            DispatchQueue.global(qos: .utility).async(group: openingSweep) { self.sweep() }
        }
    }

    /// Removes the stray temporary files in every collection folder at any depth; returns
    /// their paths relative to the root. Nothing on a folder this process cannot write.
    @discardableResult
    func sweep(olderThan age: TimeInterval = StrayFileSweep.strayAge) -> [String] {
        guard !root.isReadOnly else { return [] }
        var removed: [String] = []
        let cutoff = Date().timeIntervalSince1970 - age
        func sweepFolder(_ dirFD: Int32, _ prefix: String) {
            // Names looked at as bytes: a folder of a million documents makes no million
            // strings (which took a core 0.7 s and 43 MB while the app read the same folder).
            var temporary: [String] = [], folders: [String] = []
            FolderListing.forEachEntry(dirFD) { bytes, _, isDirectory in
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
                sweepFolder(child, prefix + name + "/")
                close(child)
            }
        }
        sweepFolder(root.fd, "")
        self.removed.withLock { $0 += removed }
        return removed
    }
}

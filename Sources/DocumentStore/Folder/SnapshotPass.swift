import Foundation

/// A first read of a large collection folder with its snapshot file (`CollectionSnapshotFile`):
/// each document whose file's stamp is still the one the snapshot recorded is taken from it, the
/// rest read from their files; and when the snapshot was missing or no longer fits the folder,
/// a new one is written from the bytes this read holds anyway.
final class SnapshotPass: Sendable {
    let source: CollectionSnapshotFile?
    private let writer: CollectionSnapshotWriter?
    private let cacheFD: Int32
    private let name: String
    private let folderDevice: UInt64
    private let folderInode: UInt64
    /// When the read began: a file changed within `racyWindow` of it is not kept (a change
    /// right after it could leave the stamp as it is).
    private let began: TimeInterval
    /// Documents taken from the snapshot, and documents it could not give.
    let served = Locked(0)
    let missed = Locked(0)

    /// What one reader thread keeps from one task to the next.
    struct Scratch {
        fileprivate var bytes: [UInt8] = []
        fileprivate var entries: [CollectionSnapshotFile.Entry] = []
        fileprivate var cursor = 0
        fileprivate var block: [UInt8] = []
        fileprivate var blockCount = 0
        fileprivate var blockFirst: [UInt8] = []
        fileprivate var blockLast: [UInt8] = []
        fileprivate var served = 0
        fileprivate var missed = 0
    }

    /// A pass over the `count` documents about to be read from the open collection folder
    /// `folderFD`; nil when the settings keep no snapshots, the collection is too small for
    /// one, its folder is on a network file system, or the cache folder cannot be used.
    static func begin(folder folderFD: Int32, documents count: Int, settings: FirestoreSettings, now: TimeInterval) -> SnapshotPass? {
        // Not on a network file system (the setting that says so, or the folder's own type),
        // whose stamps may be another machine's from a while ago: opening a file checks it anew.
        guard !(settings.cacheSettings is MemoryCacheSettings), count >= settings.snapshotMinimum, settings.isInotifyEnabled,
              !CollectionSnapshotFile.isOnNetworkFileSystem(folderFD),
              let url = settings.snapshotFolder, let cacheFD = CollectionSnapshotFile.openFolder(url) else { return nil }
        var folder = stat()
        guard fstat(folderFD, &folder) == 0 else { close(cacheFD); return nil }
        return SnapshotPass(cacheFD: cacheFD, folder: folder, documents: count, now: now)
    }

    private init(cacheFD: Int32, folder: stat, documents count: Int, now: TimeInterval) {
        self.cacheFD = cacheFD
        name = CollectionSnapshotFile.name(of: folder)
        folderDevice = UInt64(folder.st_dev)
        folderInode = UInt64(folder.st_ino)
        began = now
        source = CollectionSnapshotFile.open(name, in: cacheFD, of: folder)
        // Rewritten when it holds a tenth more or fewer documents than the folder; one whose
        // files changed in place is found out by `end`.
        let fits = source.map { abs($0.documentCount - count) <= count / 10 } ?? false
        writer = fits ? nil : CollectionSnapshotWriter(name, in: cacheFD)
    }

    deinit { close(cacheFD) }

    /// Readies `scratch` for the ids `first` through `last`, in id order: the snapshot's
    /// blocks that cover them read.
    func prepare(_ scratch: inout Scratch, from first: ExactID, through last: ExactID) {
        scratch.bytes.removeAll(keepingCapacity: true)
        scratch.entries.removeAll(keepingCapacity: true)
        scratch.cursor = 0
        guard let source else { return }
        let blocks = first.withBytes { x in last.withBytes { y in source.blocks(from: x, through: y) } }
        for block in blocks { _ = source.read(block: block, into: &scratch.bytes, entries: &scratch.entries) }
    }

    /// The snapshot's entry for `id`, the next id of the ids `prepare` was given.
    func entry(for id: ExactID, _ scratch: inout Scratch) -> CollectionSnapshotFile.Entry? {
        let bytes = scratch.bytes, entries = scratch.entries
        var cursor = scratch.cursor
        defer { scratch.cursor = cursor }
        return bytes.withUnsafeBufferPointer { all in
            id.withBytes { id in
                while cursor < entries.count {
                    let order = IDOrder.compare(UnsafeBufferPointer(rebasing: all[entries[cursor].id]), id)
                    if order > 0 { return nil }
                    cursor += 1
                    if order == 0 { return entries[cursor - 1] }
                }
                return nil
            }
        }
    }

    /// The bytes of `entry` in `scratch`, as `prepare` read them.
    func bytes(of entry: CollectionSnapshotFile.Entry, _ scratch: Scratch) -> ArraySlice<UInt8> {
        scratch.bytes[entry.bytes]
    }

    /// Counts a document taken from the snapshot (or not), and keeps it for the new snapshot
    /// when one is written: `bytes` its file's whole content as read with `stamp`.
    func took(_ id: ExactID, _ stamp: FileStamp?, _ bytes: ArraySlice<UInt8>?, fromSnapshot: Bool, _ scratch: inout Scratch) {
        if source != nil {
            if fromSnapshot { scratch.served += 1 } else { scratch.missed += 1 }
        }
        guard writer != nil, let stamp, stamp.wasRead, let bytes, began - stamp.lastChange >= CollectionFolderChanges.racyWindow else { return }
        id.withBytes { id in
            if scratch.blockCount == 0 { scratch.blockFirst = Array(id) }
            scratch.blockLast = Array(id)
            CollectionSnapshotFile.append(id: id, to: &scratch.block)
        }
        for number in stamp.numbers { CollectionSnapshotFile.append(number, to: &scratch.block) }
        CollectionSnapshotFile.append(UInt32(bytes.count), to: &scratch.block)
        scratch.block += bytes
        scratch.blockCount += 1
        if scratch.blockCount == CollectionSnapshotFile.entriesPerBlock { flush(&scratch) }
    }

    /// Ends a task: its block written, its counts added.
    func finish(_ scratch: inout Scratch) {
        flush(&scratch)
        if scratch.served > 0 { served.withLock { $0 += scratch.served } }
        if scratch.missed > 0 { missed.withLock { $0 += scratch.missed } }
        (scratch.served, scratch.missed) = (0, 0)
    }

    private func flush(_ scratch: inout Scratch) {
        guard scratch.blockCount > 0, let writer else { return }
        writer.append(scratch.block, count: scratch.blockCount, first: scratch.blockFirst, last: scratch.blockLast)
        scratch.block.removeAll(keepingCapacity: true)
        scratch.blockCount = 0
    }

    /// Ends the pass over `count` documents: the new snapshot named, or an old one that gave
    /// fewer than nine in ten of them removed, so the next first read writes a fresh one.
    func end(documents count: Int) {
        if let writer {
            if writer.finish(device: folderDevice, inode: folderInode) { CollectionSnapshotFile.sweep(cacheFD, keeping: name) }
        } else if missed.withLock({ $0 }) > count / 10 {
            unlinkat(cacheFD, name, 0)
        } else {
            source?.markUsed()
        }
    }
}

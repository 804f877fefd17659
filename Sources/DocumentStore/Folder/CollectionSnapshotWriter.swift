import Foundation

/// A new snapshot file, written block by block from several threads into a file with no name
/// (`O_TMPFILE`) that takes the snapshot's name only when whole: a reader finds the old file or
/// the new one, and a process that dies leaves nothing behind.
final class CollectionSnapshotWriter: Sendable {
    private let fd: Int32
    private let cacheFD: Int32
    private let name: String
    private let state = Locked(State())

    private struct State {
        var end: Int64 = 0
        var blocks: [CollectionSnapshotFile.Block] = []
        var documents = 0
        var failed = false
    }

    #if os(Linux)
    private static let temporaryFile: Int32 = 0o20200000  // O_TMPFILE, which Glibc's module leaves out
    #endif

    /// A writer of the snapshot `name` in the open folder `cacheFD`; nil where no file can be
    /// made there.
    init?(_ name: String, in cacheFD: Int32) {
        #if os(Linux)
        let fd = openat(cacheFD, ".", Self.temporaryFile | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        let folder = dup(cacheFD)
        guard folder >= 0 else { close(fd); return nil }
        self.fd = fd
        self.cacheFD = folder
        self.name = name
        #else
        return nil
        #endif
    }

    deinit {
        close(fd)
        close(cacheFD)
    }

    /// Adds a block of `count` entries, `first` and `last` its first and last ids.
    func append(_ block: [UInt8], count: Int, first: [UInt8], last: [UInt8]) {
        let offset: Int64? = state.withLock { state in
            guard !state.failed else { return nil }
            defer { state.end += Int64(block.count) }
            return state.end
        }
        guard let offset else { return }
        let written = Self.write(fd, block[...], at: offset)
        state.withLock { state in
            if !written { state.failed = true; return }
            state.blocks.append(.init(offset: offset, length: block.count, count: count, checksum: CollectionSnapshotFile.checksum(block[...]),
                                      first: first, last: last))
            state.documents += count
        }
    }

    /// Writes the directory and the footer and gives the file its name, over any older one;
    /// false when a write failed (a full disk), and then nothing is named.
    @discardableResult
    func finish(device: UInt64, inode: UInt64) -> Bool {
        #if os(Linux)
        var (end, blocks, documents) = state.withLock { ($0.failed ? -1 : $0.end, $0.blocks, $0.documents) }
        guard end >= 0 else { return false }
        blocks.sort { a, b in a.first.withUnsafeBufferPointer { x in b.first.withUnsafeBufferPointer { y in IDOrder.compare(x, y) < 0 } } }
        var directory: [UInt8] = []
        for block in blocks {
            CollectionSnapshotFile.append(block.offset, to: &directory)
            CollectionSnapshotFile.append(UInt32(block.length), to: &directory)
            CollectionSnapshotFile.append(UInt32(block.count), to: &directory)
            CollectionSnapshotFile.append(block.checksum, to: &directory)
            block.first.withUnsafeBufferPointer { CollectionSnapshotFile.append(id: $0, to: &directory) }
            block.last.withUnsafeBufferPointer { CollectionSnapshotFile.append(id: $0, to: &directory) }
        }
        var footer: [UInt8] = []
        for number in [end, Int64(directory.count)] { CollectionSnapshotFile.append(number, to: &footer) }
        CollectionSnapshotFile.append(CollectionSnapshotFile.checksum(directory[...]), to: &footer)
        CollectionSnapshotFile.append(device, to: &footer)
        CollectionSnapshotFile.append(inode, to: &footer)
        CollectionSnapshotFile.append(Int64(documents), to: &footer)
        footer += CollectionSnapshotFile.magic
        guard Self.write(fd, directory[...], at: end) else { return false }
        end += Int64(directory.count)
        guard Self.write(fd, footer[...], at: end) else { return false }
        // Named through /proc (linkat's AT_EMPTY_PATH needs a capability), then renamed over
        // the old one: a name already taken cannot be linked to.
        let staged = ".\(name).\(getpid()).new"
        unlinkat(cacheFD, staged, 0)
        guard linkat(AT_FDCWD, "/proc/self/fd/\(fd)", cacheFD, staged, AT_SYMLINK_FOLLOW) == 0 else { return false }
        guard renameat(cacheFD, staged, cacheFD, name) == 0 else {
            unlinkat(cacheFD, staged, 0)
            return false
        }
        return true
        #else
        return false
        #endif
    }

    private static func write(_ fd: Int32, _ bytes: ArraySlice<UInt8>, at offset: Int64) -> Bool {
        bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = pwrite(fd, raw.baseAddress! + done, raw.count - done, off_t(offset) + off_t(done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                done += n
            }
            return true
        }
    }
}

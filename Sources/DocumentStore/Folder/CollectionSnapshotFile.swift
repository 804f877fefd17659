import Foundation

/// A large collection folder's documents as their files held them when last read, kept in one
/// file in the user's cache folder, so that opening the collection again reads that one file
/// instead of a million. A document is taken from it only while its file's stamp (`fstatat`:
/// inode, size, the times of its last modification and status change) is the one recorded
/// with it, and read from its own file otherwise: the files stay the database, and nothing
/// writes through this copy. It is written while a first listing reads the folder, from the
/// bytes the readers hold anyway (`SnapshotPass`).
///
/// Layout, little-endian: blocks of entries (each its id's length as a UInt16 and its bytes, its
/// file's stamp as four Int64s, its length as a UInt32 and the file's bytes), a block's entries
/// in id order (`IDOrder`); then the directory, each block's offset (UInt64), length and count
/// (UInt32s), checksum (UInt64), first and last ids (a UInt16 length and bytes each); then the
/// footer: the directory's offset, length and checksum, the folder's device and inode, how many
/// documents the file holds, and `magic`.
final class CollectionSnapshotFile: Sendable {
    struct Block: Sendable {
        let offset: Int64
        let length: Int
        let count: Int
        let checksum: UInt64
        let first: [UInt8]
        let last: [UInt8]
    }

    /// One document of a block read into a buffer: where its id and bytes lie in it.
    struct Entry {
        let id: Range<Int>
        let stamp: FileStamp
        let bytes: Range<Int>
    }

    static let magic = Array("ShelfSn1".utf8)
    static let footerLength = 6 * 8 + 8
    /// Entries a block holds at most: a reader of 512 files reads the few blocks that cover
    /// its ids, so little is read twice where two readers' ids meet in one block.
    static let entriesPerBlock = 128

    private let fd: Int32
    /// In id order; no two overlap.
    let blocks: [Block]
    let documentCount: Int

    private init(fd: Int32, blocks: [Block], documentCount: Int) {
        self.fd = fd
        self.blocks = blocks
        self.documentCount = documentCount
    }

    deinit { close(fd) }

    // MARK: Where they are kept

    /// `$XDG_CACHE_HOME/shelf/collections`, or `~/.cache/shelf/collections` (`UserFolder`).
    /// Worked out once: every `FirestoreSettings` (each `db.settings` is a copy) starts with it.
    static let defaultFolder: URL = UserFolder.cache.url().appendingPathComponent("shelf/collections")

    /// The folder the snapshot files are kept in, opened, made (readable by its owner alone)
    /// when missing; nil when it cannot be.
    static func openFolder(_ url: URL) -> Int32? {
        var fd = Glibc.open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd < 0 && errno == ENOENT {
            try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            fd = Glibc.open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        return fd >= 0 ? fd : nil
    }

    /// The name of the snapshot file of the collection folder `folder` (its `fstat`): by its
    /// device and inode, so a folder moved keeps its snapshot and two folders never share one.
    static func name(of folder: stat) -> String {
        String(UInt64(folder.st_dev), radix: 16) + "-" + String(UInt64(folder.st_ino), radix: 16) + ".snapshot"
    }

    /// How long a snapshot file no read has used is kept: its folder is likely gone (a
    /// snapshot is named by the folder's inode, not its path, so nothing else tells).
    static let unusedLifetime: TimeInterval = 30 * 86_400
    /// How long a new snapshot left unnamed by a process that died is kept.
    static let stagedLifetime: TimeInterval = 3_600

    /// Marks the file used now (its modification time), which `sweep` goes by.
    func markUsed() { futimens(fd, nil) }

    /// Removes, from the open cache folder, the snapshot files unused for `unusedLifetime` and
    /// the staged ones older than `stagedLifetime`, but `name`: run when a snapshot is written.
    static func sweep(_ cacheFD: Int32, keeping name: String) {
        let now = Date().timeIntervalSince1970
        for entry in FolderListing.listEntries(cacheFD) where entry.name != name && entry.undecodableName == nil {
            let lifetime: TimeInterval
            if entry.name.hasSuffix(".snapshot") && !entry.name.hasPrefix(".") {
                lifetime = unusedLifetime
            } else if entry.name.hasPrefix(".") && entry.name.hasSuffix(".new") {
                lifetime = stagedLifetime
            } else {
                continue
            }
            var st = stat()
            guard fstatat(cacheFD, entry.name, &st, AT_SYMLINK_NOFOLLOW) == 0, (st.st_mode & S_IFMT) == S_IFREG,
                  now - Double(st.st_mtim.tv_sec) > lifetime else { continue }
            unlinkat(cacheFD, entry.name, 0)
        }
    }

    /// True when the open folder `fd` is on a network or FUSE file system (NFS, SMB, 9p, Ceph,
    /// AFS, sshfs…), by `fstatfs`'s type, where a stamp is what the client last heard.
    static func isOnNetworkFileSystem(_ fd: Int32) -> Bool {
        fileSystemType(fd).map(isNetworkFileSystem(type:)) ?? false
    }

    /// The type of the file system the open file `fd` is on, as `fstatfs` gives it.
    static func fileSystemType(_ fd: Int32) -> UInt32? {
        // fstatfs, which the Glibc module leaves out; its struct begins with the type (a long).
        typealias FileSystemStatus = @convention(c) (Int32, UnsafeMutableRawPointer) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "fstatfs") else { return nil }
        let status = UnsafeMutableRawPointer.allocate(byteCount: 512, alignment: 16)
        defer { status.deallocate() }
        guard unsafeBitCast(symbol, to: FileSystemStatus.self)(fd, status) == 0 else { return nil }
        return UInt32(truncatingIfNeeded: status.load(as: Int.self))
    }

    /// The types (`linux/magic.h`) of file systems whose files live on another machine.
    static func isNetworkFileSystem(type: UInt32) -> Bool {
        [0x6969, 0x517B, 0xFF53_4D42, 0xFE53_4D42, 0x6573_5546, 0x0102_1997, 0x00C3_6400, 0x5346_414F, 0x7375_7245, 0x564C,
         0x0BD0_0BD0, 0x0116_1970, 0x7461_636F].contains(type)
    }

    // MARK: Reading

    /// The snapshot file `name` in the open folder `cacheFD`, if it is one, whole, and of the
    /// folder `folder`; nil otherwise (absent, cut short, another version, damaged).
    static func open(_ name: String, in cacheFD: Int32, of folder: stat) -> CollectionSnapshotFile? {
        let fd = openat(cacheFD, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_size >= footerLength,
              let footer = readBytes(fd, at: Int64(st.st_size) - Int64(footerLength), count: footerLength),
              Array(footer[(footerLength - 8)...]) == magic else { close(fd); return nil }
        var reader = ByteReader(footer)
        guard let directoryOffset = reader.integer(Int64.self), let directoryLength = reader.integer(Int64.self),
              let directoryChecksum = reader.integer(UInt64.self), let device = reader.integer(UInt64.self),
              let inode = reader.integer(UInt64.self), let documentCount = reader.integer(Int64.self),
              device == UInt64(folder.st_dev), inode == UInt64(folder.st_ino), documentCount >= 0,
              // Compared without a sum, which numbers from a damaged file could overflow.
              case let end = Int64(st.st_size) - Int64(footerLength),
              directoryOffset >= 0, directoryOffset <= end, directoryLength == end - directoryOffset,
              let directory = readBytes(fd, at: directoryOffset, count: Int(directoryLength)),
              checksum(directory[...]) == directoryChecksum else { close(fd); return nil }
        var blocks: [Block] = []
        var entries = ByteReader(directory)
        while !entries.isAtEnd {
            guard let offset = entries.integer(Int64.self), let length = entries.integer(UInt32.self),
                  let count = entries.integer(UInt32.self), let sum = entries.integer(UInt64.self),
                  let first = entries.id(), let last = entries.id(),
                  offset >= 0, offset <= directoryOffset, Int64(length) <= directoryOffset - offset else { close(fd); return nil }
            blocks.append(Block(offset: offset, length: Int(length), count: Int(count), checksum: sum, first: first, last: last))
        }
        return CollectionSnapshotFile(fd: fd, blocks: blocks, documentCount: Int(documentCount))
    }

    /// The blocks that may hold any id from `first` through `last`.
    func blocks(from first: UnsafeBufferPointer<UInt8>, through last: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var low = 0, high = blocks.count
        while low < high {
            let middle = (low + high) / 2
            if blocks[middle].last.withUnsafeBufferPointer({ IDOrder.compare($0, first) }) < 0 { low = middle + 1 } else { high = middle }
        }
        var end = low
        while end < blocks.count && blocks[end].first.withUnsafeBufferPointer({ IDOrder.compare($0, last) }) <= 0 { end += 1 }
        return low..<end
    }

    /// Reads the block at `index` onto the end of `buffer` and adds its entries to `entries`;
    /// false (and nothing added) when it cannot be read whole or is damaged.
    func read(block index: Int, into buffer: inout [UInt8], entries: inout [Entry]) -> Bool {
        let block = blocks[index]
        guard let bytes = Self.readBytes(fd, at: block.offset, count: block.length), Self.checksum(bytes[...]) == block.checksum else { return false }
        let base = buffer.count
        var found: [Entry] = []
        found.reserveCapacity(min(block.count, Self.entriesPerBlock))
        var reader = ByteReader(bytes)
        while !reader.isAtEnd {
            guard let idLength = reader.integer(UInt16.self), let id = reader.skip(Int(idLength)),
                  let inode = reader.integer(Int64.self), let size = reader.integer(Int64.self),
                  let modified = reader.integer(Int64.self), let changed = reader.integer(Int64.self),
                  let length = reader.integer(UInt32.self), let data = reader.skip(Int(length)) else { return false }
            found.append(Entry(id: (base + id.lowerBound)..<(base + id.upperBound), stamp: FileStamp(numbers: (inode, size, modified, changed)),
                               bytes: (base + data.lowerBound)..<(base + data.upperBound)))
        }
        buffer += bytes
        entries += found
        return true
    }

    /// `count` bytes at `offset`, or nil when the file holds fewer.
    private static func readBytes(_ fd: Int32, at offset: Int64, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            done += n
        }
        return bytes
    }

    // MARK: Bytes

    /// A checksum of `bytes` that a torn or damaged block fails (not a defence against anyone).
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.withUnsafeBytes { raw in
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            var index = 0
            while index + 8 <= raw.count {
                hash = (hash ^ raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
                hash ^= hash >> 29
                index += 8
            }
            while index < raw.count {
                hash = (hash ^ UInt64(raw[index])) &* 0x0100_0000_01B3
                index += 1
            }
            return hash ^ UInt64(raw.count)
        }
    }

    static func append(_ value: some FixedWidthInteger, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    static func append(id: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        append(UInt16(id.count), to: &bytes)
        bytes += id
    }

    /// Reads what `append` wrote, refusing (nil) to go past the end.
    private struct ByteReader {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var isAtEnd: Bool { position == bytes.count }

        mutating func skip(_ count: Int) -> Range<Int>? {
            guard count <= bytes.count - position else { return nil }
            defer { position += count }
            return position..<(position + count)
        }

        mutating func integer<T: FixedWidthInteger>(_ type: T.Type) -> T? {
            guard let range = skip(MemoryLayout<T>.size) else { return nil }
            return bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: range.lowerBound, as: T.self)) }
        }

        mutating func id() -> [UInt8]? {
            guard let length = integer(UInt16.self), let range = skip(Int(length)) else { return nil }
            return Array(bytes[range])
        }
    }
}

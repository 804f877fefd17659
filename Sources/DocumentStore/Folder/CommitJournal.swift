import Foundation

/// The intent journal that makes a commit of several documents atomic and durable, as a
/// database's redo log does: the whole batch is written to one file first, and that file,
/// once durable, is the commit.
///
/// ## The protocol
///
/// Everything lives in the store's hidden folder `<data>/.shelf/`, beside the `lock` file.
///
/// A writer, holding the write lock (see Readers) from start to end:
///
/// 1. rolls forward a committed `.shelf/journal` left by a writer that died (see Recovery);
/// 2. checks a transaction's preconditions, applies the writes' transforms, encodes every new
///    document and this journal (any error so far: nothing was written); writes that depend on
///    nothing stored are applied and encoded before the lock is taken instead, by a bulk writer
///    on another thread (`DocumentFiles.prepare`);
/// 3. opens (creating if needed) every folder the batch writes into;
/// 4. writes this journal to `.shelf/journal.tmp`: a random batch id, then for each document its
///    path and its new bytes, or "delete", then a checksum of all that;
/// 5. writes each new document to a temporary file beside it, `.shelf-<batch id>-<n>.tmp`
///    (readers skip names starting with "."), without fsync; a failure here (a full disk)
///    removes the temporary files and `journal.tmp` and fails the commit with nothing changed;
/// 6. **commit point**: `fdatasync(journal.tmp)`, `rename(journal.tmp, journal)`,
///    `fsync(.shelf)`. From here the batch happens, whatever follows;
/// 7. renames each temporary file over its document (or removes it, where the document's file
///    holds its bytes already: `Entry.leavesAnEqualFile`) and unlinks the deleted documents;
/// 8. makes all of that durable with one barrier for the whole batch: `syncfs` on the store's
///    file system (see `DurabilityBarrier`);
/// 9. unlinks `.shelf/journal` and fsyncs `.shelf`, so a journal can never come back after a
///    power loss and replay old contents over later writes;
/// 10. releases the lock.
///
/// A commit of a single document skips the journal: its temporary file is fsynced and renamed
/// over the document, then the folder is fsynced; one rename is already atomic.
///
/// ## Readers
///
/// Writers hold, from step 1 to step 10, an exclusive `flock` on `.shelf/lock` and then one on
/// the store's folder itself (`WriteLock`). Every read of the store (`getDocument`,
/// `getDocuments`, a transaction's reads, each listener tick) holds a shared `flock` on the
/// store's folder while it looks at the files (`ReadLock`), so it sees the store before a
/// batch's step 7 or after it, never in between, in this process and in others. Locking the
/// folder itself needs no file: reading creates nothing (`shelf check` leaves the folder as it
/// was) and works the same in a folder that cannot be written.
///
/// Holding the shared lock, a reader that finds `.shelf/journal` knows its writer is dead (a
/// live one would hold the lock): it lets go, takes the write lock, rolls the journal forward
/// (see Recovery), and starts over. The cost for a reader is one `openat`, two `flock`s, one
/// `fstatat` (no journal) and one `close`, about 2 µs: a quiet listener tick reads no file.
///
/// A folder this process cannot write (a read-only mount, no permission) is still read under
/// the shared lock, but a committed journal found there cannot be rolled forward: such a
/// reader sees the files as they are (possibly part of a batch whose writer died after its
/// commit point), says so once on standard error, and the batch is completed by the next open,
/// read or write of the store by a process that can write the folder.
///
/// ## Recovery
///
/// Opening the store, any commit, and any reader that finds a journal with the lock free do,
/// under the exclusive lock:
///
/// - `.shelf/journal.tmp` (a writer died before its commit point): remove the temporary files
///   it names and the file itself. The batch never happened.
/// - `.shelf/journal` whose checksum holds (a writer died after its commit point): write each
///   document again (temporary file, rename; deletes unlink; idempotent, so a crash during
///   recovery is recovered the same way), one barrier, remove the journal and fsync `.shelf`.
/// - `.shelf/journal` whose checksum fails (only a damaged disk does that, since the file gets
///   its name after it is durable): renamed to `journal.damaged-<time>` and reported on
///   standard error, never applied.
///
/// ## File format
///
/// Little-endian. `"shelf-journal v1\n"` (17 bytes), batch id (UInt64), entry count (UInt32),
/// then per entry: kind (UInt8: 1 = put, 0 = delete), path length (UInt32) and path (UTF-8,
/// `books/hitchhiker`), and for a put the document's length (UInt32) and bytes; last, the
/// checksum (UInt64) of everything before it.
struct CommitJournal: Equatable {
    static let fileName = "journal"
    static let temporaryFileName = "journal.tmp"
    static let magic = Array("shelf-journal v1\n".utf8)

    struct Entry: Equatable {
        var path: ResourcePath
        /// The document's new file, or nil to delete it.
        var bytes: [UInt8]?
        /// The times the new file gets instead of the commit's (`DocumentWrite.keptTimes`); not
        /// in the journal's file, so a batch rolled forward after a crash gets the commit's.
        var keptTimes: DocumentTimes? = nil
        /// The commit deleted the document and made it again (`CommitPlan.Planned.isMadeAgain`);
        /// not in the journal's file either: recovery writes every file anyway.
        var isMadeAgain = false

        /// Whether a document file that holds `bytes` already is left as it is, keeping its
        /// times (`CommitPlan.Planned.leavesAsItIs`): the same bytes are the same fields.
        var leavesAnEqualFile: Bool { bytes != nil && keptTimes == nil && !isMadeAgain }
    }

    let batchID: UInt64
    let entries: [Entry]
    /// The temporary file beside each document of this batch, by the entry's index.
    let temporaryNames: [String]

    // MARK: Encoding

    var encoded: [UInt8] {
        var out = Self.magic
        out.reserveCapacity(64 + entries.reduce(0) { $0 + 64 + ($1.bytes?.count ?? 0) })
        append(batchID, to: &out)
        append(UInt32(entries.count), to: &out)
        for entry in entries {
            out.append(entry.bytes == nil ? 0 : 1)
            let path = Array(entry.path.description.utf8)
            append(UInt32(path.count), to: &out)
            out += path
            if let bytes = entry.bytes {
                append(UInt32(bytes.count), to: &out)
                out += bytes
            }
        }
        append(Self.checksum(out[...]), to: &out)
        return out
    }

    private func append<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out += $0 }
    }

    /// Parses a journal; nil when the bytes are not a whole journal whose checksum holds.
    init?(decoding bytes: [UInt8]) {
        var reader = Reader(bytes: bytes)
        guard bytes.count >= Self.magic.count + 8 + 4 + 8,
              Array(bytes[0..<Self.magic.count]) == Self.magic else { return nil }
        let end = bytes.count - 8
        var stored: UInt64 = 0
        withUnsafeMutableBytes(of: &stored) { $0.copyBytes(from: bytes[end...]) }
        guard UInt64(littleEndian: stored) == Self.checksum(bytes[..<end]) else { return nil }
        reader.offset = Self.magic.count
        guard let batchID: UInt64 = reader.integer(), let count: UInt32 = reader.integer() else { return nil }
        var entries: [Entry] = []
        for _ in 0..<count {
            guard let kind: UInt8 = reader.integer(), kind <= 1,
                  let pathLength: UInt32 = reader.integer(), let pathBytes = reader.bytes(Int(pathLength)),
                  let text = String(validating: pathBytes, as: UTF8.self) else { return nil }
            let segments = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            // Checked as any id is, so a damaged journal cannot lead a write outside the store.
            guard segments.count >= 2, segments.count % 2 == 0,
                  segments.allSatisfy({ (try? ResourcePath.validate(id: $0, in: text, rules: .folder)) != nil }) else { return nil }
            var entry = Entry(path: ResourcePath(segments: segments), bytes: nil)
            if kind == 1 {
                guard let length: UInt32 = reader.integer(), let content = reader.bytes(Int(length)) else { return nil }
                entry.bytes = content
            }
            entries.append(entry)
        }
        guard reader.offset == end else { return nil }
        self.init(batchID: batchID, entries: entries)
    }

    init(batchID: UInt64, entries: [Entry]) {
        self.batchID = batchID
        self.entries = entries
        let prefix = ".shelf-\(String(batchID, radix: 36))-"
        temporaryNames = entries.indices.map { prefix + String($0) + ".tmp" }
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        mutating func integer<T: FixedWidthInteger>() -> T? {
            let size = MemoryLayout<T>.size
            guard offset + size <= bytes.count - 8 else { return nil }
            var value = T.zero
            withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: bytes[offset..<offset + size]) }
            offset += size
            return T(littleEndian: value)
        }

        mutating func bytes(_ count: Int) -> [UInt8]? {
            guard count >= 0, offset + count <= bytes.count - 8 else { return nil }
            defer { offset += count }
            return Array(bytes[offset..<offset + count])
        }
    }

    /// FNV-1a over 8-byte little-endian words (then the tail bytes): fast enough in a debug
    /// build, and any torn or damaged byte changes it.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.withUnsafeBytes { raw in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            let words = raw.count / 8
            var index = 0
            while index < words {
                hash = (hash ^ UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self))) &* 0x100_0000_01b3
                index += 1
            }
            var offset = words * 8
            while offset < raw.count {
                hash = (hash ^ UInt64(raw[offset])) &* 0x100_0000_01b3
                offset += 1
            }
            return hash
        }
    }
}

import Foundation

/// Past versions of a folder's documents (`PastVersion`), for reads at a past time. They live
/// on disk in `.shelf/versions`, and are kept only once that folder exists: `shelf serve` makes
/// it, and from then on every Shelf process committing to the folder keeps them too, at the
/// cost of reading each document before it is replaced (the app and `shelf generate` on a
/// folder nobody serves pay nothing). Each commit that replaces or deletes documents writes one
/// file, named by its time, holding each one's path, times and file text as it was. Commits
/// remove the files older than the window (`PastVersion.window`), at most once a minute, so the
/// folder holds an hour of replaced documents; a read loads only the versions it needs. They
/// survive a restart, but are not synced: after a crash the last commits' versions may be gone,
/// and a read at a time before them sees those documents as they are now. An edit by another
/// program (an editor, a script) keeps no version either.
struct VersionFiles: Sendable {
    static let versionsFolder = [FolderRoot.shelfFolder, "versions"]

    let root: FolderRoot
    let writer: FileWriter
    /// When this store last removed version files past the window (seconds; see `keep`).
    let prunedAt = Locked<Int64>(0)

    init(root: FolderRoot, writer: FileWriter) {
        self.root = root
        self.writer = writer
    }

    /// Makes the versions folder, so every commit from now on keeps what it replaces.
    func startKeeping() throws(DocumentStoreError) {
        close(try root.openRequiredFolder(Self.versionsFolder))
    }

    /// Under the write lock, before a commit at `time` writes `entries`: keeps the documents it
    /// replaces or deletes, when versions are kept; not one it leaves as it is
    /// (`CommitJournal.Entry.leavesAnEqualFile`). Best effort: a version that cannot be written
    /// does not stop the commit (the read at a past time then sees the document as it is).
    func keep(of entries: [CommitJournal.Entry], replacedAt time: Timestamp) {
        guard let versionsFD = try? root.openFolder(Self.versionsFolder, create: false) else { return }
        defer { close(versionsFD) }
        var folders = FolderCache()
        defer { folders.closeAll() }
        var kept: [JSONValue] = []
        for entry in entries {
            let path = entry.path, name = path.last + DocumentFiles.fileExtension
            guard let dirFD = try? folders.open(path.parent.segments, create: false, in: root),
                  let times = DocumentFileTimes.times(of: name, in: dirFD), let bytes = FolderRoot.readFile(name, in: dirFD),
                  !(entry.leavesAnEqualFile && bytes == entry.bytes) else { continue }
            kept.append(.object(["path": .string(path.description), "created": .string(times.created.rfc3339),
                                 "updated": .string(times.updated.rfc3339), "text": .string(String(decoding: bytes, as: UTF8.self))]))
        }
        if !kept.isEmpty {
            let record = JSONWriter.compactBytes(.object(["replaced": .string(time.rfc3339), "versions": .array(kept)]))
            var random = SystemRandomNumberGenerator()
            let name = Self.versionFileName(time) + "-" + String(random.next() as UInt32, radix: 36) + DocumentFiles.fileExtension
            let temporary = "." + name
            do {
                try writer.writeFile(temporary, in: versionsFD, record, exclusive: true, sync: false, display: "")
                if renameat(versionsFD, temporary, versionsFD, name) != 0 { unlinkat(versionsFD, temporary, 0) }
            } catch {}
        }
        prune(in: versionsFD, now: time)
    }

    /// A version file's name begins with its commit's time, so that names sort by it.
    private static func versionFileName(_ time: Timestamp) -> String {
        String(time.seconds).leftPadded(to: 12) + "." + String(time.nanoseconds).leftPadded(to: 9)
    }

    /// The commit time a version file's name begins with.
    private static func versionTime(_ name: String) -> Timestamp? {
        let parts = name.prefix { $0 != "-" }.split(separator: ".")
        guard !name.hasPrefix("."), parts.count == 2, let seconds = Int64(parts[0]), let nanoseconds = Int32(parts[1]) else { return nil }
        return Timestamp(seconds: seconds, nanoseconds: nanoseconds)
    }

    /// Removes the version files past the window, once a minute at most.
    private func prune(in versionsFD: Int32, now: Timestamp) {
        let due = prunedAt.withLock { last in
            guard now.seconds - last >= 60 else { return false }
            last = now.seconds
            return true
        }
        guard due else { return }
        for entry in FolderListing.listEntries(versionsFD) {
            if let time = Self.versionTime(entry.name), time.seconds < now.seconds - PastVersion.window { unlinkat(versionsFD, entry.name, 0) }
        }
    }

    /// The versions in `scope` that commits after `time` replaced; nil when none are kept.
    func versions(in scope: VersionScope, replacedAfter time: Timestamp, store: Firestore) throws(DocumentStoreError) -> [PastVersion]? {
        guard let versionsFD = try root.openFolder(Self.versionsFolder, create: false) else { return nil }
        defer { close(versionsFD) }
        var found: [PastVersion] = []
        var scratch = DocumentParser.Scratch()
        for entry in FolderListing.listEntries(versionsFD) {
            guard let replaced = Self.versionTime(entry.name), replaced > time, let bytes = FolderRoot.readFile(entry.name, in: versionsFD),
                  case .object(let record)? = try? JSONParser.parse(bytes), case .array(let versions)? = record["versions"] else { continue }
            for case .object(let version) in versions {
                guard case .string(let pathText)? = version["path"], case .string(let text)? = version["text"],
                      case .string(let created)? = version["created"], let created = Timestamp(rfc3339: created),
                      case .string(let updated)? = version["updated"], let updated = Timestamp(rfc3339: updated) else { continue }
                let path = ResourcePath(stored: pathText)
                guard scope.contains(path) else { continue }
                found.append(PastVersion(path: path, document: StoredDocument.parse(ArraySlice(text.utf8), store: store, scratch: &scratch),
                                         times: DocumentTimes(created: created, updated: updated), replaced: replaced))
            }
        }
        return found
    }
}

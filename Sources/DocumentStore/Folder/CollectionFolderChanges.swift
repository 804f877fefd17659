import Foundation

/// Finds what changed in a collection's folder, for its watcher, at a cost that stays small as
/// the collection grows.
///
/// Where Linux inotify works (and `FirestoreSettings.isInotifyEnabled`), each look (at a tick,
/// or woken by the events themselves) drains the kernel's queue of file events for the folder
/// (`FileEvents`, never blocking) and `fstatat`s and reads only the files it names: a quiet
/// tick costs one `read` that finds nothing, and an edit in place is seen at once at any size. Where it does not (no inotify, out of
/// watches, a network file system with the setting off), the stat sweep below does the work;
/// a queue that overflowed means events were lost, and one full rescan catches up.
///
/// The sweep:
/// - Files created, deleted or renamed over change the folder's stamp: then one `readdir`
///   (which gives inodes for free) tells which ids were added, removed or replaced.
/// - Files edited in place change only their own stamp: a collection of up to `statBudget`
///   documents is `fstatat`ed whole every tick; a larger one has its recently changed files
///   and the next `largeCollectionStatBudget` files of a rotating sweep checked, so an edit is
///   seen within a bounded number of ticks and idle polling stays well under 1% of a core.
/// - A file (or the folder) read within `racyWindow` of its last change could change again
///   without its stamp moving (timestamps are coarse): it is read once more after the window.
///   With events that change would queue an event, so such a file is re-read only by a rescan.
/// Only files whose stamp changed are read; a quiet tick reads nothing. Documents are keyed by
/// the bytes of their ids, so "café" precomposed and decomposed stay two documents; a file whose
/// name is not valid UTF-8 is a document that cannot be read, listed but never opened.
final class CollectionFolderChanges: ChangeSource, @unchecked Sendable {
    static let statBudget = 1000
    static let largeCollectionStatBudget = 500
    static let racyWindow: TimeInterval = 1
    static let hotWindow: TimeInterval = 60

    /// Where this watcher's file events come from: decided at the first look.
    private enum EventSource {
        case undecided
        case kernel(FileEvents)
        case none
    }

    /// What a look at the folder has to do.
    private enum Look {
        /// Check only these names (from the kernel's events).
        case names(Set<[UInt8]>)
        /// List the folder and `fstatat` every file, trusting no racy stamp (a new watch, lost events).
        case rescan
        /// The stat sweep, without events.
        case sweep
    }

    let path: ResourcePath
    let files: DocumentFiles
    /// The key of a document of this folder among the watcher's documents: its id, or in a
    /// collection group its whole path.
    let tableKey: @Sendable (ExactID) -> ExactID
    /// Whether listeners waiting for their first snapshot hear how the first read goes (not
    /// for one folder among a group's).
    let reportsProgress: Bool
    /// Every document file listed or read: its stamp as last read, or `.listed(inode:)` for a
    /// file seen but not (yet) read. One table for both, since a listener keeps it for every
    /// file of its folder; its `keys` are also the sweep's order.
    var stamps = CompactTable<ExactID, FileStamp>()
    private var folder: FileStamp?
    /// When the folder changed within the racy window: list it once more after the window.
    private var relistFolderAt: TimeInterval?
    /// Files read within the racy window of their last change, and when to read them again.
    var racy: [ExactID: TimeInterval] = [:]
    var recentlyChanged: [ExactID: TimeInterval] = [:]
    private var sweepCursor = 0
    private var eventSource: EventSource
    private var watch: FileEvents.Watch?
    private var overflowsSeen = 0
    /// How many times this source listed its folder, so tests can check events spare it.
    let foldersListed = Locked(0)

    /// A collection listener's source: it follows the store's settings.
    convenience init(files: DocumentFiles, path: ResourcePath) {
        self.init(files: files, path: path, source: .undecided, tableKey: { $0 }, reportsProgress: true)
    }

    /// One folder of a collection group: `events` is the group's queue, shared by its folders
    /// (nil: the sweep).
    convenience init(files: DocumentFiles, path: ResourcePath, events: FileEvents?, tableKey: @escaping @Sendable (ExactID) -> ExactID) {
        self.init(files: files, path: path, source: events.map { .kernel($0) } ?? .none, tableKey: tableKey, reportsProgress: false)
    }

    private init(files: DocumentFiles, path: ResourcePath, source: EventSource, tableKey: @escaping @Sendable (ExactID) -> ExactID,
                 reportsProgress: Bool) {
        self.files = files
        self.path = path
        eventSource = source
        self.tableKey = tableKey
        self.reportsProgress = reportsProgress
    }

    deinit { release() }

    /// Gives the watch back; a look after this (a stopped watcher asked for a fresh read)
    /// sweeps, and its folder's stamp tells it to list.
    func release() {
        if case .kernel(let events) = eventSource, let watch { events.unwatch(watch) }
        watch = nil
        eventSource = .none
        folder = nil
    }

    /// For tests, on the watcher's queue: whether the kernel's events drive this source now.
    var usesFileEvents: Bool { if case .kernel = eventSource { watch != nil } else { false } }

    /// For tests, on the watcher's queue: the descriptor of the inotify instance it reads.
    var fileEventsDescriptor: Int32? { if case .kernel(let events) = eventSource { events.fd } else { nil } }

    /// For tests, on the watcher's queue: has the next look find the kernel's queue
    /// overflowed, the events of the changes since the last look lost.
    func simulateOverflow() {
        if case .kernel(let events) = eventSource { events.simulateOverflow() }
    }

    func look(into documents: WatchedDocuments, for watcher: Watcher) throws {
        guard let firestore = watcher.firestore else { return }  // the store is gone: nobody to tell
        try look(into: documents, watcher, firestore)
    }

    /// The folder is gone (or no longer one of a group's): so are its documents.
    func forgetAll(_ table: WatchedDocuments) {
        for id in stamps.keys { table.remove(tableKey(id)) }
        stamps.removeAll(); racy = [:]; recentlyChanged = [:]
        folder = nil
        if case .kernel(let events) = eventSource, let watch { events.unwatch(watch) }
        watch = nil
    }

    /// Looks at the folder, and hands over the documents whose files changed.
    func look(into table: WatchedDocuments, _ watcher: Watcher, _ firestore: Firestore) throws {
        let now = Date().timeIntervalSince1970
        guard let fd = try files.root.openFolder(path.segments, create: false) else { return forgetAll(table) }
        defer { close(fd) }
        var st = stat()
        fstat(fd, &st)
        let folderStamp = FileStamp(st)
        let isFirstListing = folder == nil
        var toRead: Set<ExactID> = []
        var listed: ListedFiles?
        // A large folder's first files are read and shown before it is watched (the kernel
        // takes 80 ms to watch a folder of a million names it holds), then checked once it
        // is: one that changed in between is read again with the rest.
        var head = isFirstListing ? readHead(fd, watcher, firestore) : Head()
        let look = look(fd, folderStamp, watcher, firestore)
        keepUnchanged(&head.reads, fd)
        switch look {
        case .names(let names):
            if !check(names, fd, &toRead, table) { list(fd, folderStamp, now, &toRead, &listed, table, firestore) }
        case .rescan:
            list(fd, folderStamp, now, &toRead, &listed, table, firestore)
            // A first listing reads every file anyway.
            if !isFirstListing {
                toRead.formUnion(racy.keys)  // their stamps could hide a change the lost events told of
                statAll(stamps.keys, fd, &toRead)
            }
        case .sweep:
            if folderStamp != folder || relistFolderAt.map({ now >= $0 }) == true {
                list(fd, folderStamp, now, &toRead, &listed, table, firestore)
            }
            for id in racy.filter({ now >= $0.value }).keys { toRead.insert(id) }
            statAll(idsToStat(now: now), fd, &toRead)
        }
        read(consume toRead, listed: listed, fd, now, isFirstListing, table, watcher, firestore, head: head)
    }

    /// Drops from `head` the files whose stamp is not the one they were read with.
    private func keepUnchanged(_ head: inout [ExactID: Read], _ fd: Int32) {
        for (id, read) in head {
            var fileStat = stat()
            let unchanged = fstatat(fd, id.text + DocumentFiles.fileExtension, &fileStat, 0) == 0 && read.stamp == FileStamp(fileStat)
            if !unchanged { head[id] = nil }
        }
    }

    /// Drains the events when a watch is in place; otherwise watches the folder (again), which
    /// calls for a rescan, or says to sweep where there are no events.
    private func look(_ fd: Int32, _ folderStamp: FileStamp, _ watcher: Watcher, _ firestore: Firestore) -> Look {
        if case .undecided = eventSource {
            eventSource = firestore.settings.isInotifyEnabled ? FileEvents(waking: watcher).map { .kernel($0) } ?? .none : .none
        }
        guard case .kernel(let events) = eventSource else { return .sweep }
        if let watch, watch.inode == folderStamp.inode, events.overflows == overflowsSeen {
            let taken = events.take(watch)
            if events.overflows == overflowsSeen && !taken.watchRemoved { return .names(taken.names) }
        }
        // A new or replaced folder, a watch the kernel dropped, or events lost: watch before
        // looking at everything, so no change falls between the look and the events.
        if let watch { events.unwatch(watch) }
        overflowsSeen = events.overflows
        watch = files.root.watchGate.addingWatch { events.watch(folder: fd, inode: folderStamp.inode) }
        if watch == nil { eventSource = .none }  // out of watches: the sweep from now on
        return .rescan
    }

    /// Checks the names the events gave: `fstatat` each document file, and read those whose
    /// stamp moved. False when a name is not valid UTF-8: only a listing names that file.
    private func check(_ names: Set<[UInt8]>, _ fd: Int32, _ toRead: inout Set<ExactID>, _ table: WatchedDocuments) -> Bool {
        var allChecked = true
        for bytes in names {
            guard let name = String(validating: bytes, as: UTF8.self) else {
                allChecked = false
                continue
            }
            guard let id = DocumentFileName.id(of: FolderListing.Entry(name: name, inode: 0, isDirectory: nil)) else { continue }
            var fileStat = stat()
            guard fstatat(fd, name, &fileStat, AT_SYMLINK_NOFOLLOW) == 0 else {
                if errno == ENOENT { gone(id, table) } else { toRead.insert(id) }  // the read reports the problem
                continue
            }
            if (fileStat.st_mode & S_IFMT) == S_IFDIR {  // a folder is no document
                gone(id, table)
                continue
            }
            let stamp = FileStamp(fileStat)
            if stamps[id] == nil { stamps[id] = .listed(inode: stamp.inode) }
            // A racy stamp could stay as it was through the change this event tells of.
            if stamps[id] != stamp || racy[id] != nil { toRead.insert(id) }
        }
        return allChecked
    }

    /// Lists the folder: ids added, removed or replaced (a new inode) since the last listing.
    private func list(_ fd: Int32, _ folderStamp: FileStamp, _ now: TimeInterval, _ toRead: inout Set<ExactID>,
                      _ listed: inout ListedFiles?, _ table: WatchedDocuments, _ firestore: Firestore) {
        foldersListed.withLock { $0 += 1 }
        let found = DocumentFileName.documents(in: fd)
        folder = folderStamp
        relistFolderAt = now - folderStamp.lastChange < Self.racyWindow ? folderStamp.lastChange + Self.racyWindow : nil
        // Nothing known yet (a first listing): every file is read next, as listed, its stamp
        // then kept as read. No id is looked up or hashed here: at a million files, the
        // tables and the set of ids to read took a second of one core before the first read.
        guard !stamps.isEmpty else {
            var first = ListedFiles()
            first.ids.reserveCapacity(found.count)
            stamps.reserveCapacity(found.count)
            for (id, inode) in found {
                if id.isUndecodableFileName {
                    stamps.append(id, .listed(inode: inode))
                    let document = DocumentFileName.undecodableDocument(id, in: path, firestore: firestore)
                    table.take(tableKey(id), document.stored) { document }
                    continue
                }
                first.ids.append(id)
            }
            listed = first
            return
        }
        for (id, inode) in found {
            let held = stamps[id]
            guard held?.inode != inode else { continue }  // the file read, or listed, before
            stamps[id] = .listed(inode: inode)
            if id.isUndecodableFileName {
                // No id opens it: it is reported as it is listed, and gone when it is renamed.
                let document = DocumentFileName.undecodableDocument(id, in: path, firestore: firestore)
                table.take(tableKey(id), document.stored) { document }
                continue
            }
            toRead.insert(id)
        }
        // Files listed before and not now are gone.
        let listedNow = Set(found.lazy.map(\.id))
        for id in stamps.keys.filter({ !listedNow.contains($0) }) {
            forget(id)
            table.remove(tableKey(id))
        }
    }

    /// Adds to `toRead` each of `ids` whose file's stamp is not the one last read.
    private func statAll(_ ids: [ExactID], _ fd: Int32, _ toRead: inout Set<ExactID>) {
        for id in ids where !toRead.contains(id) && !id.isUndecodableFileName {
            var fileStat = stat()
            guard fstatat(fd, id.text + DocumentFiles.fileExtension, &fileStat, AT_SYMLINK_NOFOLLOW) == 0 else {
                toRead.insert(id)
                continue
            }
            if stamps[id] != FileStamp(fileStat) { toRead.insert(id) }
        }
    }

    /// The file is no longer there.
    func gone(_ id: ExactID, _ table: WatchedDocuments) {
        forget(id)
        table.remove(tableKey(id))
    }

    private func forget(_ id: ExactID) {
        stamps[id] = nil
        racy[id] = nil
        recentlyChanged[id] = nil
    }

    /// Recently changed files, then the next slice of the sweep: all of a collection of up to
    /// `statBudget` documents, `largeCollectionStatBudget` of a larger one.
    private func idsToStat(now: TimeInterval) -> [ExactID] {
        if recentlyChanged.contains(where: { now - $0.value >= Self.hotWindow }) {
            recentlyChanged = recentlyChanged.filter { now - $0.value < Self.hotWindow }
        }
        // The table's order, which a removal changes only by moving its last id into the gap.
        let ids = stamps.keys
        if ids.count <= Self.statBudget { return ids }
        if sweepCursor >= ids.count { sweepCursor = 0 }
        let end = min(sweepCursor + Self.largeCollectionStatBudget, ids.count)
        defer { sweepCursor = end }
        return Array(recentlyChanged.keys) + ids[sweepCursor..<end]
    }
}

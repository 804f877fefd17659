import Foundation

/// Watches a collection's folder at a cost that stays small as the collection grows.
///
/// Where Linux inotify works (and `FirestoreSettings.isInotifyEnabled`), each tick drains the
/// kernel's queue of file events for the folder (`FileEvents`, never blocking) and `fstatat`s
/// and reads only the files it names: a quiet tick costs one `read` that finds nothing, and an
/// edit in place is seen on the next tick at any size. Where it does not (no inotify, out of
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
final class CollectionWatcher: Watcher, @unchecked Sendable {
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
    private var stamps: [ExactID: FileStamp] = [:]
    private var inodes: [ExactID: UInt64] = [:]
    private(set) var documents: [ExactID: QueryDocumentSnapshot] = [:]
    private var folder: FileStamp?
    /// When the folder changed within the racy window: list it once more after the window.
    private var relistFolderAt: TimeInterval?
    /// Files read within the racy window of their last change, and when to read them again.
    private var racy: [ExactID: TimeInterval] = [:]
    private var recentlyChanged: [ExactID: TimeInterval] = [:]
    private var sweepOrder: [ExactID] = []
    /// Events changed `inodes` without keeping `sweepOrder` in step: rebuild it before a sweep.
    private var sweepOrderIsStale = false
    private var sweepCursor = 0
    private var eventSource: EventSource
    private var watch: FileEvents.Watch?
    private var overflowsSeen = 0
    /// How many times this watcher listed its folder, so tests can check events spare it.
    let foldersListed = Locked(0)

    /// A collection listener's watcher: it follows the store's settings.
    convenience init(firestore: Firestore, path: ResourcePath) {
        self.init(firestore: firestore, path: path, source: .undecided)
    }

    /// One folder of a collection group: `events` is the group's queue, shared by its folders
    /// (nil: the sweep).
    convenience init(firestore: Firestore, path: ResourcePath, events: FileEvents?) {
        self.init(firestore: firestore, path: path, source: events.map { .kernel($0) } ?? .none)
    }

    private init(firestore: Firestore, path: ResourcePath, source: EventSource) {
        self.path = path
        eventSource = source
        super.init(firestore: firestore, key: .collection(path))
    }

    deinit { release() }

    /// Gives the watch back; a look after this (a stopped watcher asked for a fresh read)
    /// sweeps, and its folder's stamp tells it to list.
    override func release() {
        table = nil
        if case .kernel(let events) = eventSource, let watch { events.unwatch(watch) }
        watch = nil
        eventSource = .none
        folder = nil
    }

    /// For tests: whether the kernel's events drive this watcher now.
    var usesFileEvents: Bool { queue.sync { if case .kernel = eventSource { watch != nil } else { false } } }

    /// For tests: makes `changes` between two ticks, then has the next look find the kernel's
    /// queue overflowed, their events lost.
    func simulateOverflow(whileChanging changes: () throws -> Void) rethrows {
        try queue.sync {
            try changes()
            if case .kernel(let events) = eventSource { events.simulateOverflow() }
        }
    }

    override func hasDelivered(to subscription: Subscription) -> Bool {
        (subscription as? QuerySubscription)?.hasDelivered ?? true
    }

    override func send(to subscription: Subscription, changed: Set<ExactID>?) {
        (subscription as? QuerySubscription)?.update(documents: documents, changed: changed)
    }

    override var currentDocuments: [QueryDocumentSnapshot] { Array(documents.values) }

    /// The documents laid out for queries, once one has asked (see `DocumentTable`).
    private var table: DocumentTable?

    /// A one-off query's results from memory, after one look.
    func freshResults(_ evaluator: QueryEvaluator) throws -> [QueryDocumentSnapshot] {
        try fresh {
            if table == nil { table = DocumentTable(documents) }
            return table!.results(evaluator)
        }
    }

    override func scan() throws -> Set<ExactID> {
        let changed = try scanFiles()
        table?.apply(changed, from: documents)
        return changed
    }

    private func scanFiles() throws -> Set<ExactID> {
        guard let firestore else { return [] }  // the store is gone: nobody to tell
        let now = Date().timeIntervalSince1970
        var changed: Set<ExactID> = []
        guard let fd = try files.openFolder(path.segments, create: false) else {
            changed = Set(documents.keys)
            documents = [:]; stamps = [:]; inodes = [:]; racy = [:]; recentlyChanged = [:]; sweepOrder = []
            folder = nil
            if case .kernel(let events) = eventSource, let watch { events.unwatch(watch) }
            watch = nil
            return changed
        }
        defer { close(fd) }
        var st = stat()
        fstat(fd, &st)
        let folderStamp = FileStamp(st)
        let isFirstListing = folder == nil
        var toRead: Set<ExactID> = []
        let look = look(fd, folderStamp, firestore)
        // After the look (which watches the folder first), so no change falls between the two.
        let head = isFirstListing ? readHead(fd, firestore) : [:]
        switch look {
        case .names(let names):
            if !check(names, fd, &toRead, &changed) { list(fd, folderStamp, now, &toRead, &changed, firestore) }
        case .rescan:
            list(fd, folderStamp, now, &toRead, &changed, firestore)
            // A first listing reads every file anyway.
            if !isFirstListing {
                toRead.formUnion(racy.keys)  // their stamps could hide a change the lost events told of
                statAll(Array(inodes.keys), fd, &toRead)
            }
        case .sweep:
            if folderStamp != folder || relistFolderAt.map({ now >= $0 }) == true {
                list(fd, folderStamp, now, &toRead, &changed, firestore)
            }
            for id in racy.filter({ now >= $0.value }).keys { toRead.insert(id) }
            statAll(idsToStat(now: now), fd, &toRead)
        }
        read(toRead, fd, now, isFirstListing, &changed, firestore, head: head)
        return changed
    }

    /// Drains the events when a watch is in place; otherwise watches the folder (again), which
    /// calls for a rescan, or says to sweep where there are no events.
    private func look(_ fd: Int32, _ folderStamp: FileStamp, _ firestore: Firestore) -> Look {
        if case .undecided = eventSource {
            eventSource = firestore.settings.isInotifyEnabled ? FileEvents().map { .kernel($0) } ?? .none : .none
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
        watch = events.watch(folder: fd, inode: folderStamp.inode)
        if watch == nil { eventSource = .none }  // out of watches: the sweep from now on
        return .rescan
    }

    /// Checks the names the events gave: `fstatat` each document file, and read those whose
    /// stamp moved. False when a name is not valid UTF-8: only a listing names that file.
    private func check(_ names: Set<[UInt8]>, _ fd: Int32, _ toRead: inout Set<ExactID>, _ changed: inout Set<ExactID>) -> Bool {
        var allChecked = true
        for bytes in names {
            guard let name = String(validating: bytes, as: UTF8.self) else {
                allChecked = false
                continue
            }
            guard let id = DocumentFileName.id(of: DocumentFiles.Entry(name: name, inode: 0, isDirectory: nil)) else { continue }
            var fileStat = stat()
            guard fstatat(fd, name, &fileStat, AT_SYMLINK_NOFOLLOW) == 0 else {
                if errno == ENOENT { gone(id, &changed) } else { toRead.insert(id) }  // the read reports the problem
                continue
            }
            if (fileStat.st_mode & S_IFMT) == S_IFDIR {  // a folder is no document
                gone(id, &changed)
                continue
            }
            if inodes.updateValue(UInt64(fileStat.st_ino), forKey: id) == nil { sweepOrderIsStale = true }
            // A racy stamp could stay as it was through the change this event tells of.
            if stamps[id] != FileStamp(fileStat) || racy[id] != nil { toRead.insert(id) }
        }
        return allChecked
    }

    /// Lists the folder: ids added, removed or replaced (a new inode) since the last listing.
    private func list(_ fd: Int32, _ folderStamp: FileStamp, _ now: TimeInterval, _ toRead: inout Set<ExactID>,
                      _ changed: inout Set<ExactID>, _ firestore: Firestore) {
        foldersListed.withLock { $0 += 1 }
        if sweepOrderIsStale {
            sweepOrder = Array(inodes.keys)
            sweepOrderIsStale = false
        }
        let found = DocumentFileName.documents(in: fd)
        var listed: [ExactID: UInt64] = [:]
        listed.reserveCapacity(found.count)
        for (id, inode) in found { listed[id] = inode }
        var added: [ExactID] = []
        if inodes.isEmpty { toRead.reserveCapacity(listed.count) }
        for (id, inode) in listed where inodes[id] != inode {
            if id.isUndecodableFileName {
                // No id opens it: it is reported as it is listed, and gone when it is renamed.
                if documents[id] == nil { changed.insert(id) }
                documents[id] = DocumentFileName.undecodableDocument(id, in: path, firestore: firestore)
                continue
            }
            toRead.insert(id)
            if inodes[id] == nil { added.append(id) }
        }
        var removedAny = false
        for id in inodes.keys where listed[id] == nil {
            removedAny = true
            forget(id)
            if documents.removeValue(forKey: id) != nil { changed.insert(id) }
        }
        // The sweep needs every name once, in no particular order.
        if removedAny { sweepOrder.removeAll { listed[$0] == nil } }
        sweepOrder += added
        inodes = listed
        folder = folderStamp
        relistFolderAt = now - folderStamp.lastChange < Self.racyWindow ? folderStamp.lastChange + Self.racyWindow : nil
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

    /// Reads the files, and updates the documents that differ. Many files (a first listing) are
    /// read on every core, a slice at a time, each slice then taken in here and, while a
    /// listener waits for its first snapshot, reported to it. `head` holds files already read
    /// (`readHead`), taken as they are.
    private func read(_ toRead: Set<ExactID>, _ fd: Int32, _ now: TimeInterval, _ isFirstListing: Bool,
                      _ changed: inout Set<ExactID>, _ firestore: Firestore, head: [ExactID: Read] = [:]) {
        var alreadyRead = 0
        for (id, read) in head where toRead.contains(id) {
            take(id, read, now, isFirstListing, &changed, firestore)
            alreadyRead += 1
        }
        // An array, not a copy of the set less the head: that set can hold 100,000 ids.
        let unread = Array(toRead.lazy.filter { head[$0] == nil })
        guard unread.count >= Self.parallelReading else {
            for id in unread {
                let (stored, stamp) = files.readDocument(in: fd, fileName: id.text + DocumentFiles.fileExtension, store: firestore)
                take(id, (stored, stamp, nil), now, isFirstListing, &changed, firestore)
            }
            return
        }
        // In id order: each slice then follows the last in a listener's rows, which are kept
        // in id order, instead of being merged in among all of them.
        let ids = KeyOrder.sorted(unread) { $0 }
        stamps.reserveCapacity(stamps.count + ids.count)
        documents.reserveCapacity(documents.count + ids.count)
        changed.reserveCapacity(changed.count + ids.count)
        var start = 0
        var sliceSize = Self.firstParallelSlice
        while start < ids.count {
            let slice = ids[start..<min(start + sliceSize, ids.count)]
            let results = readSlice(slice, fd, firestore)
            for (offset, read) in results.enumerated() {
                take(slice[slice.startIndex + offset], read, now, isFirstListing, &changed, firestore)
            }
            start = slice.endIndex
            sliceSize = Self.parallelSlice
            if ids.count + alreadyRead >= Watcher.worthReporting {
                reportProgress(read: alreadyRead + start, total: alreadyRead + ids.count, documents: results.compactMap(\.snapshot))
            }
        }
    }

    /// The files of `ids`, read and parsed on every core, each with its snapshot made.
    private func readSlice(_ ids: ArraySlice<ExactID>, _ fd: Int32, _ firestore: Firestore) -> [Read] {
        var results = [Read](repeating: (.missing, nil, nil), count: ids.count)
        let collection = CollectionPlace(firestore: firestore, path: path)
        let first = ids.startIndex
        results.withUnsafeMutableBufferPointer { results in
            let results = UnsafeResults(base: results.baseAddress)
            files.readDocuments(count: ids.count, in: fd, store: firestore, id: { ids[first + $0] }) { index, stored, stamp in
                let snapshot = stored == .missing ? nil : QueryDocumentSnapshot(in: collection, key: ids[first + index], stored: stored)
                results.set(index, (stored, stamp, snapshot))
            }
        }
        return results
    }

    /// A large folder's first files, read before the whole folder is listed (listing 100,000
    /// names and making their tables takes over 100 ms), so a listener waiting for its first
    /// snapshot is told of its first documents at once. Only when the folder's first listing
    /// chunk is full: a smaller folder is listed and read at once anyway.
    private func readHead(_ fd: Int32, _ firestore: Firestore) -> [ExactID: Read] {
        guard !awaitingFirstSnapshot.isEmpty else { return [:] }
        let entries = DocumentFiles.listEntries(fd, limit: Self.firstParallelSlice)
        guard entries.count == Self.firstParallelSlice else { return [:] }
        let ids = entries.filter { $0.isDirectory != true }.compactMap(DocumentFileName.id(of:)).filter { !$0.isUndecodableFileName }
        let results = readSlice(ids[...], fd, firestore)
        var head: [ExactID: Read] = [:]
        for (id, read) in zip(ids, results) where read.stored != .missing { head[id] = read }
        reportProgress(read: head.count, total: nil, documents: head.values.compactMap(\.snapshot))
        return head
    }

    /// Reading more files than this at once is done on every core, this many at a time (the
    /// first slice smaller, so a large collection's first documents are reported soon).
    static let parallelReading = 256
    static let firstParallelSlice = 1024
    static let parallelSlice = 8192

    /// A file as read, and perhaps its snapshot already made.
    private typealias Read = (stored: StoredDocument, stamp: FileStamp?, snapshot: QueryDocumentSnapshot?)

    /// The results' slots, which the reading tasks fill at disjoint indices.
    private struct UnsafeResults: @unchecked Sendable {
        let base: UnsafeMutablePointer<Read>?
        func set(_ index: Int, _ result: Read) { base![index] = result }
    }

    /// One file as read: the document updated when it differs.
    private func take(_ id: ExactID, _ read: Read, _ now: TimeInterval, _ isFirstListing: Bool,
                      _ changed: inout Set<ExactID>, _ firestore: Firestore) {
        let (stored, stamp) = (read.stored, read.stamp)
        if stored == .missing {
            gone(id, &changed)
            return
        }
        stamps[id] = stamp
        // Timestamps are coarse: a change right after this read could leave the stamp as it
        // is, so a file read within the window is read once more when the window has passed
        // (by the sweep; with events, by a rescan, since the change itself queues an event).
        if let stamp, now - stamp.lastChange < Self.racyWindow {
            racy[id] = stamp.lastChange + Self.racyWindow
        } else {
            racy[id] = nil
        }
        if documents[id]?.stored != stored {
            documents[id] = read.snapshot ?? QueryDocumentSnapshot(in: CollectionPlace(firestore: firestore, path: path), key: id, stored: stored)
            changed.insert(id)
            // The first listing is not a change anyone made: nothing is "recent" yet.
            if !isFirstListing { recentlyChanged[id] = now }
        }
    }

    /// The file is no longer there.
    private func gone(_ id: ExactID, _ changed: inout Set<ExactID>) {
        forget(id)
        if inodes.removeValue(forKey: id) != nil { sweepOrderIsStale = true }
        if documents.removeValue(forKey: id) != nil { changed.insert(id) }
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
        if sweepOrderIsStale {
            sweepOrder = Array(inodes.keys)
            sweepOrderIsStale = false
        }
        if sweepOrder.count <= Self.statBudget { return sweepOrder }
        if sweepCursor >= sweepOrder.count { sweepCursor = 0 }
        let end = min(sweepCursor + Self.largeCollectionStatBudget, sweepOrder.count)
        defer { sweepCursor = end }
        return Array(recentlyChanged.keys) + sweepOrder[sweepCursor..<end]
    }
}

import Foundation

/// Reading a collection folder's changed files: few one by one, many on every core in slices
/// that listeners waiting for their first snapshot are told of.
extension CollectionFolderChanges {
    /// Reads the files, and updates the documents that differ: those of `toRead`, and those a
    /// first listing found (`listed`). Many files (a first listing) are read on every core, a
    /// slice at a time, each slice then taken in (while the next is read) and, while a
    /// listener waits for its first snapshot, reported to it. `head` holds files already read
    /// (`readHead`), taken as they are.
    func read(_ toRead: consuming Set<ExactID>, listed: consuming ListedFiles?, _ fd: Int32, _ now: TimeInterval, _ isFirstListing: Bool,
              _ table: WatchedDocuments, _ watcher: Watcher, _ firestore: Firestore, head: Head = Head()) {
        // A first read into an empty table (not the fresh read of a watcher that held documents,
        // whose unchanged ones keep their snapshots) holds its documents in id order.
        let keepsIDOrder = isFirstListing && table.keys.isEmpty
        var alreadyRead = 0
        var headRead: [QueryDocumentSnapshot] = []
        // The head's files are unchanged since read (`keepUnchanged`): a first listing finds
        // them all; events or a later listing name those to take.
        for (id, read) in head.reads where listed != nil || toRead.contains(id) {
            take(id, read, now, isFirstListing, table, firestore)
            alreadyRead += 1
            if let snapshot = read.snapshot { headRead.append(snapshot) }
        }
        // Arrays, not a copy of the set less the head: that set can hold 100,000 ids, and
        // is let go of here rather than held through the reading.
        // A first listing names every file there is, so whatever else the look found to read
        // (a sweep's stat of ids not yet stamped) is among its files.
        var unread: [ExactID]
        // A first listing's files (but the head's) are new to the tables: taken without a lookup.
        let areNew = listed != nil
        if var first = listed {
            listed = nil
            first.leaveOut(head)
            unread = first.ids
        } else {
            unread = Array(toRead.lazy.filter { head.reads[$0] == nil })
        }
        toRead = []
        guard unread.count >= ParallelReading.threshold else {
            for id in unread {
                let (stored, stamp) = files.readDocument(in: fd, fileName: id.text + DocumentFiles.fileExtension, store: firestore)
                take(id, (stored, stamp ?? Self.listedStamp(id, stored, fd), nil), now, isFirstListing, table, firestore, isNew: areNew)
            }
            return
        }
        // In id order: each slice then follows the last in a listener's rows, which are kept
        // in id order, instead of being merged in among all of them.
        let ids = KeyOrder.sorted(unread) { $0 }
        unread = []
        table.reserveCapacity(table.keys.count + ids.count)
        var start = 0
        var sliceSize = ParallelReading.firstSlice
        // Each slice is taken on another thread while the next one is read, so the readers
        // never wait for the tables (a third of a large first read). Reading makes snapshots
        // and touches no table; one slice is taken at a time, and the last is waited for.
        var taking: DispatchGroup?
        defer { taking?.wait() }
        // A first read's documents in id order, for the first snapshot (not sorted again).
        var inIDOrder: [QueryDocumentSnapshot] = []
        if keepsIDOrder { inIDOrder.reserveCapacity(ids.count) }
        // A first listing of a large folder takes what it can from the folder's snapshot file.
        let pass = areNew ? SnapshotPass.begin(folder: fd, documents: ids.count, settings: firestore.settings, now: now) : nil
        while start < ids.count {
            let slice = ids[start..<min(start + sliceSize, ids.count)]
            let results = readSlice(slice, fd, firestore, pass)
            let snapshots = results.compactMap(\.snapshot)
            if keepsIDOrder { inIDOrder += snapshots }
            taking?.wait()
            let group = DispatchGroup()
            let tables = UncheckedTables(table: table, firestore: firestore)
            DispatchQueue.global().async(group: group) { [self] in
                for (offset, read) in results.enumerated() {
                    take(slice[slice.startIndex + offset], read, now, isFirstListing, tables.table, tables.firestore, isNew: areNew)
                }
            }
            taking = group
            start = slice.endIndex
            sliceSize = ParallelReading.sliceSize(reading: ids.count)
            if reportsProgress && ids.count + alreadyRead >= Watcher.worthReporting {
                watcher.reportProgress(read: alreadyRead + start, total: alreadyRead + ids.count, documents: snapshots)
            }
        }
        pass?.end(documents: ids.count)
        if areNew {
            // Their ids are indexed once the first snapshot is sent (this look's delivery is
            // on the same queue), not while the readers need the cores, nor at the first change.
            let tables = UncheckedTables(table: table, firestore: firestore)
            watcher.queue.async { [self] in
                stamps.indexAppended()
                tables.table.indexTaken()
            }
        }
        guard keepsIDOrder else { return }
        taking?.wait()
        taking = nil
        table.holdInIDOrder(ParallelReading.merged(KeyOrder.sorted(headRead) { $0.key }, inIDOrder))
    }

    /// The files of `ids`, read and parsed on every core, each with its snapshot made.
    private func readSlice(_ ids: ArraySlice<ExactID>, _ fd: Int32, _ firestore: Firestore, _ pass: SnapshotPass? = nil) -> [Read] {
        var results = [Read](repeating: (.missing, nil, nil), count: ids.count)
        let collection = CollectionPlace(firestore: firestore, path: path)
        let first = ids.startIndex
        results.withUnsafeMutableBufferPointer { results in
            let results = UnsafeResults(base: results.baseAddress)
            files.readDocuments(count: ids.count, in: fd, store: firestore, snapshot: pass, id: { ids[first + $0] }) { index, stored, stamp in
                let id = ids[first + index]
                let snapshot = stored == .missing ? nil : QueryDocumentSnapshot(in: collection, key: id, stored: stored)
                results.set(index, (stored, stamp ?? Self.listedStamp(id, stored, fd), snapshot))
            }
        }
        return results
    }

    /// A large folder's first files, read before the whole folder is listed (listing 100,000
    /// names and making their tables takes over 100 ms), so a listener waiting for its first
    /// snapshot is told of its first documents at once. Only when the folder's first listing
    /// chunk is full: a smaller folder is listed and read at once anyway.
    func readHead(_ fd: Int32, _ watcher: Watcher, _ firestore: Firestore) -> Head {
        guard reportsProgress && watcher.isAwaitingFirstSnapshot else { return Head() }
        let entries = FolderListing.listEntries(fd, limit: ParallelReading.firstSlice)
        guard entries.count == ParallelReading.firstSlice else { return Head() }
        var head = Head()
        head.ids = entries.filter { $0.isDirectory != true }.compactMap(DocumentFileName.id(of:)).filter { !$0.isUndecodableFileName }
        let results = readSlice(head.ids[...], fd, firestore)
        for (id, read) in zip(head.ids, results) where read.stored != .missing { head.reads[id] = read }
        watcher.reportProgress(read: head.reads.count, total: nil, documents: head.reads.values.compactMap(\.snapshot))
        return head
    }

    /// A large folder's first files, read before it was listed (`readHead`).
    struct Head {
        /// The documents' ids, in the order the folder lists them.
        var ids: [ExactID] = []
        /// Those read and still unchanged.
        var reads: [ExactID: Read] = [:]
    }

    /// The documents a first listing found, in the order the folder lists them.
    struct ListedFiles {
        var ids: [ExactID] = []

        /// Leaves out the head's files unchanged since read. They lead the listing, in the same
        /// order, unless the folder changed in between: then each id is looked up (which the
        /// common case spares a million ids).
        mutating func leaveOut(_ head: Head) {
            guard !head.reads.isEmpty else { return }
            let prefix = head.ids.count
            if ids.count >= prefix && ids[..<prefix].elementsEqual(head.ids) {
                ids.replaceSubrange(..<prefix, with: ids[..<prefix].filter { head.reads[$0] == nil })
            } else {
                ids.removeAll { head.reads[$0] != nil }
            }
        }
    }

    /// The stamp of a file listed but not read (it could not be opened): its inode, so it is
    /// read again only when it changes.
    static func listedStamp(_ id: ExactID, _ stored: StoredDocument, _ fd: Int32) -> FileStamp? {
        var st = stat()
        guard stored != .missing, fstatat(fd, id.text + DocumentFiles.fileExtension, &st, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return .listed(inode: UInt64(st.st_ino))
    }

    /// A file as read, and perhaps its snapshot already made.
    typealias Read = (stored: StoredDocument, stamp: FileStamp?, snapshot: QueryDocumentSnapshot?)

    /// The watcher's tables, handed to the thread that takes a slice while the watcher's own
    /// thread waits for the readers: only one of them touches the tables at a time.
    private struct UncheckedTables: @unchecked Sendable {
        let table: WatchedDocuments
        let firestore: Firestore
    }

    /// The results' slots, which the reading tasks fill at disjoint indices.
    private struct UnsafeResults: @unchecked Sendable {
        let base: UnsafeMutablePointer<Read>?
        func set(_ index: Int, _ result: Read) { base![index] = result }
    }

    /// One file as read: the document updated when it differs. `isNew`: the tables do not
    /// hold `id` (a first listing's file), so it is added without a lookup.
    private func take(_ id: ExactID, _ read: Read, _ now: TimeInterval, _ isFirstListing: Bool,
                      _ table: WatchedDocuments, _ firestore: Firestore, isNew: Bool = false) {
        let (stored, stamp) = (read.stored, read.stamp)
        if stored == .missing {
            if !isNew { gone(id, table) }
            return
        }
        // Could not be read: read again when it changes.
        if isNew {
            stamps.append(id, stamp ?? .listed(inode: 0))
        } else {
            stamps[id] = stamp ?? .listed(inode: stamps[id]?.inode ?? 0)
        }
        // Timestamps are coarse: a change right after this read could leave the stamp as it
        // is, so a file read within the window is read once more when the window has passed
        // (by the sweep; with events, by a rescan, since the change itself queues an event).
        if let stamp, now - stamp.lastChange < Self.racyWindow {
            racy[id] = stamp.lastChange + Self.racyWindow
        } else if !racy.isEmpty {  // no id hashed for nothing: a million of them at a first read
            racy[id] = nil
        }
        let key = tableKey(id)
        let make = { read.snapshot ?? QueryDocumentSnapshot(in: CollectionPlace(firestore: firestore, path: self.path), key: id, stored: stored) }
        if isNew {
            table.takeNew(key, make())
            return
        }
        // The first listing is not a change anyone made: nothing is "recent" yet.
        guard !isFirstListing else {
            table.take(key, stored, snapshot: make)
            return
        }
        let held = table[key]
        if table.take(key, stored, snapshot: make) !== held { recentlyChanged[id] = now }
    }
}

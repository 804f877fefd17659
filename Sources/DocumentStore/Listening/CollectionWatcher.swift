import Foundation

/// Watches a collection's folder at a cost that stays small as the collection grows.
///
/// - Files created, deleted or renamed over change the folder's stamp: then one `readdir`
///   (which gives inodes for free) tells which ids were added, removed or replaced.
/// - Files edited in place change only their own stamp: a collection of up to `statBudget`
///   documents is `fstatat`ed whole every tick; a larger one has its recently changed files
///   and the next `largeCollectionStatBudget` files of a rotating sweep checked, so an edit is
///   seen within a bounded number of ticks and idle polling stays well under 1% of a core.
/// - A file (or the folder) read within `racyWindow` of its last change could change again
///   without its stamp moving (timestamps are coarse): it is read once more after the window.
/// Only files whose stamp changed are read; a quiet tick reads nothing. Documents are keyed by
/// the bytes of their ids, so "café" precomposed and decomposed stay two documents; a file whose
/// name is not valid UTF-8 is a document that cannot be read, listed but never opened.
final class CollectionWatcher: Watcher, @unchecked Sendable {
    static let statBudget = 1000
    static let largeCollectionStatBudget = 500
    static let racyWindow: TimeInterval = 1
    static let hotWindow: TimeInterval = 60

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
    private var sweepCursor = 0

    init(firestore: Firestore, path: ResourcePath) {
        self.path = path
        super.init(firestore: firestore, key: .collection(path))
    }

    override func hasDelivered(to subscription: Subscription) -> Bool {
        (subscription as? QuerySubscription)?.hasDelivered ?? true
    }

    override func send(to subscription: Subscription, changed: Set<ExactID>?) {
        (subscription as? QuerySubscription)?.update(documents: documents, changed: changed)
    }

    override var currentDocuments: [QueryDocumentSnapshot] { Array(documents.values) }

    override func scan() throws -> Set<ExactID> {
        guard let firestore else { return [] }  // the store is gone: nobody to tell
        let now = Date().timeIntervalSince1970
        var changed: Set<ExactID> = []
        guard let fd = try files.openFolder(path.segments, create: false) else {
            changed = Set(documents.keys)
            documents = [:]; stamps = [:]; inodes = [:]; racy = [:]; recentlyChanged = [:]; sweepOrder = []
            folder = nil
            return changed
        }
        defer { close(fd) }
        var st = stat()
        fstat(fd, &st)
        let folderStamp = FileStamp(st)
        let isFirstListing = folder == nil
        var toRead: Set<ExactID> = []
        if folderStamp != folder || relistFolderAt.map({ now >= $0 }) == true {
            var listed: [ExactID: UInt64] = [:]
            listed.reserveCapacity(inodes.count + 16)
            for entry in DocumentFiles.listEntries(fd) where entry.isDirectory != true {
                if let id = DocumentFileName.id(of: entry) { listed[id] = entry.inode }
            }
            var added: [ExactID] = []
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
        for id in racy.filter({ now >= $0.value }).keys { toRead.insert(id) }
        for id in idsToStat(now: now) where !toRead.contains(id) {
            var fileStat = stat()
            guard fstatat(fd, id.text + DocumentFiles.fileExtension, &fileStat, AT_SYMLINK_NOFOLLOW) == 0 else {
                toRead.insert(id)
                continue
            }
            if stamps[id] != FileStamp(fileStat) { toRead.insert(id) }
        }
        var progress = LoadProgress(total: toRead.count)
        for id in toRead {
            if toRead.count >= LoadProgress.worthReporting { progress.advance { reportProgress($0, $1) } }
            let (stored, stamp) = files.readDocument(in: fd, fileName: id.text + DocumentFiles.fileExtension, store: firestore)
            if stored == .missing {
                forget(id)
                inodes[id] = nil
                if documents.removeValue(forKey: id) != nil { changed.insert(id) }
                continue
            }
            stamps[id] = stamp
            // Timestamps are coarse: a change right after this read could leave the stamp as it
            // is, so a file read within the window is read once more when the window has passed.
            if let stamp, now - stamp.lastChange < Self.racyWindow {
                racy[id] = stamp.lastChange + Self.racyWindow
            } else {
                racy[id] = nil
            }
            if documents[id]?.stored != stored {
                let reference = DocumentReference(firestore: firestore, path: path.appending(id.text))
                documents[id] = QueryDocumentSnapshot(reference: reference, stored: stored)
                changed.insert(id)
                // The first listing is not a change anyone made: nothing is "recent" yet.
                if !isFirstListing { recentlyChanged[id] = now }
            }
        }
        return changed
    }

    /// Tells the listeners still waiting for their first snapshot how far the reading is.
    private func reportProgress(_ read: Int, _ total: Int) {
        for case let subscription as QuerySubscription in firestore?.subscribers(of: self) ?? [] where !subscription.hasDelivered {
            subscription.deliver(progress: read, of: total)
        }
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
        if sweepOrder.count <= Self.statBudget { return sweepOrder }
        if sweepCursor >= sweepOrder.count { sweepCursor = 0 }
        let end = min(sweepCursor + Self.largeCollectionStatBudget, sweepOrder.count)
        defer { sweepCursor = end }
        return Array(recentlyChanged.keys) + sweepOrder[sweepCursor..<end]
    }
}

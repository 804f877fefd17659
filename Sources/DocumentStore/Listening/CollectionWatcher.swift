import Foundation

/// Watches a collection's folder at a cost that stays small as the collection grows.
///
/// - Files created, deleted or renamed over change the folder's stamp: then one `readdir`
///   (which gives inodes for free) tells which ids were added, removed or replaced.
/// - Files edited in place change only their own stamp: each tick `fstatat`s the recently
///   changed files and the next `statBudget` files of a rotating sweep, so a collection of up
///   to `statBudget` documents is fully checked every tick and a larger one over a bounded
///   number of ticks.
/// - A file whose stamp was taken within `racyWindow` of its last change could change again
///   without its stamp moving (timestamps are coarse): it is read again until that is past.
/// Only files whose stamp changed are read; a quiet tick reads nothing.
final class CollectionWatcher: Watcher, @unchecked Sendable {
    static let statBudget = 1000
    static let racyWindow: TimeInterval = 1
    static let hotWindow: TimeInterval = 60

    let path: ResourcePath
    private var stamps: [String: FileStamp] = [:]
    private var inodes: [String: UInt64] = [:]
    private(set) var documents: [String: QueryDocumentSnapshot] = [:]
    private var folder: FileStamp?
    private var folderIsRacy = false
    private var racy: Set<String> = []
    private var recentlyChanged: [String: TimeInterval] = [:]
    private var sweepOrder: [String] = []
    private var sweepCursor = 0

    init(firestore: Firestore, path: ResourcePath) {
        self.path = path
        super.init(firestore: firestore, key: .collection(path))
    }

    override func hasDelivered(to subscription: Subscription) -> Bool {
        (subscription as? QuerySubscription)?.hasDelivered ?? true
    }

    override func send(to subscription: Subscription, changed: Set<String>?) {
        (subscription as? QuerySubscription)?.update(documents: documents, changed: changed)
    }

    override func scan() throws -> Set<String> {
        let now = Date().timeIntervalSince1970
        var changed: Set<String> = []
        guard let fd = try files.openFolder(path.segments, create: false) else {
            changed = Set(documents.keys)
            documents = [:]; stamps = [:]; inodes = [:]; racy = []; sweepOrder = []
            folder = nil
            return changed
        }
        defer { close(fd) }
        var st = stat()
        fstat(fd, &st)
        let folderStamp = FileStamp(st)
        var toRead: Set<String> = []
        if folderStamp != folder || folderIsRacy {
            var listed: [String: UInt64] = [:]
            for entry in DocumentFiles.listEntries(fd) where entry.isDirectory != true {
                if let id = DocumentFiles.documentID(fileName: entry.name) { listed[id] = entry.inode }
            }
            for (id, inode) in listed where inodes[id] != inode { toRead.insert(id) }
            for id in inodes.keys where listed[id] == nil {
                forget(id)
                if documents.removeValue(forKey: id) != nil { changed.insert(id) }
            }
            if listed.count != sweepOrder.count || !toRead.isEmpty { sweepOrder = listed.keys.sorted() }
            inodes = listed
            folder = folderStamp
            folderIsRacy = now - folderStamp.lastChange < Self.racyWindow
        }
        for id in idsToCheck(now: now) where !toRead.contains(id) {
            var fileStat = stat()
            guard fstatat(fd, id + DocumentFiles.fileExtension, &fileStat, AT_SYMLINK_NOFOLLOW) == 0 else {
                toRead.insert(id)
                continue
            }
            if stamps[id] != FileStamp(fileStat) || racy.contains(id) { toRead.insert(id) }
        }
        var progress = LoadProgress(total: toRead.count)
        for id in toRead {
            if toRead.count >= LoadProgress.worthReporting { progress.advance { reportProgress($0, $1) } }
            let (stored, stamp) = files.readDocument(in: fd, fileName: id + DocumentFiles.fileExtension)
            if stored == .missing {
                forget(id)
                inodes[id] = nil
                if documents.removeValue(forKey: id) != nil { changed.insert(id) }
                continue
            }
            stamps[id] = stamp
            if let stamp, now - stamp.lastChange < Self.racyWindow { racy.insert(id) } else { racy.remove(id) }
            if documents[id]?.stored != stored {
                let reference = DocumentReference(firestore: firestore!, path: path.appending(id))
                documents[id] = QueryDocumentSnapshot(reference: reference, stored: stored)
                changed.insert(id)
                recentlyChanged[id] = now
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

    private func forget(_ id: String) {
        stamps[id] = nil
        racy.remove(id)
        recentlyChanged[id] = nil
    }

    /// Racy and recently changed files, then the next slice of the sweep.
    private func idsToCheck(now: TimeInterval) -> [String] {
        recentlyChanged = recentlyChanged.filter { now - $0.value < Self.hotWindow }
        var ids = Array(racy) + recentlyChanged.keys
        if sweepOrder.count <= Self.statBudget {
            ids += sweepOrder
        } else {
            if sweepCursor >= sweepOrder.count { sweepCursor = 0 }
            let end = min(sweepCursor + Self.statBudget, sweepOrder.count)
            ids += sweepOrder[sweepCursor..<end]
            sweepCursor = end
        }
        return ids
    }
}

/// Paces progress reports during a long read: at most one every 50 ms.
struct LoadProgress {
    static let worthReporting = 2_000
    let total: Int
    private var read = 0
    private var lastReport = DispatchTime.now()

    init(total: Int) { self.total = total }

    mutating func advance(_ report: (Int, Int) -> Void) {
        read += 1
        guard read % 256 == 0 else { return }
        let now = DispatchTime.now()
        if now.uptimeNanoseconds - lastReport.uptimeNanoseconds >= 50_000_000 {
            lastReport = now
            report(read, total)
        }
    }
}

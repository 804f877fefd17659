import Foundation

/// Watches every collection with one id, at any depth (`db.collectionGroup`): each tick finds
/// the matching folders (cheaply, see `CollectionGroupScan`) and polls each with a
/// `CollectionWatcher` of its own, so each folder costs what a collection listener costs; the
/// folders share one queue of file events.
/// Documents are keyed by their whole path, since ids repeat across collections.
final class CollectionGroupWatcher: Watcher, @unchecked Sendable {
    let collectionID: String
    private let finder: CollectionGroupScan
    private var folders: [ResourcePath: CollectionWatcher] = [:]
    /// One queue of file events for every folder (inotify instances are few); nil: the sweep.
    private var events: FileEvents?
    private var hasDecidedEvents = false
    private(set) var documents: [ExactID: QueryDocumentSnapshot] = [:]

    init(firestore: Firestore, collectionID: String) {
        self.collectionID = collectionID
        finder = CollectionGroupScan(collectionID: collectionID)
        super.init(firestore: firestore, key: .collectionGroup(collectionID))
    }

    override func hasDelivered(to subscription: Subscription) -> Bool {
        (subscription as? QuerySubscription)?.hasDelivered ?? true
    }

    override func send(to subscription: Subscription, changed: Set<ExactID>?) {
        (subscription as? QuerySubscription)?.update(documents: documents, changed: changed)
    }

    override func release() {
        for watcher in folders.values { watcher.release() }
        events = nil
    }

    override var currentDocuments: [QueryDocumentSnapshot] { Array(documents.values) }

    static func key(_ folder: ResourcePath, _ id: ExactID) -> ExactID {
        id.isUndecodableFileName ? ExactID(undecodableFileName: folder.description + "/" + id.text) : ExactID(folder.description + "/" + id.text)
    }

    override func scan() throws -> Set<ExactID> {
        guard let firestore else { return [] }
        var changed: Set<ExactID> = []
        if !hasDecidedEvents {
            hasDecidedEvents = true
            events = firestore.settings.isInotifyEnabled ? FileEvents() : nil
        }
        let paths = try finder.collections(in: files)
        let current = Set(paths)
        for (path, watcher) in folders where !current.contains(path) {
            for id in watcher.documents.keys {
                let key = Self.key(path, id)
                if documents.removeValue(forKey: key) != nil { changed.insert(key) }
            }
            folders[path] = nil
        }
        for path in paths {
            let watcher = folders[path] ?? CollectionWatcher(firestore: firestore, path: path, events: events)
            folders[path] = watcher
            for id in try watcher.scan() {
                let key = Self.key(path, id)
                documents[key] = watcher.documents[id]
                changed.insert(key)
            }
        }
        return changed
    }

    /// Is `path` one of the collections this watcher follows (or could, once created)?
    func follows(_ path: ResourcePath) -> Bool {
        !path.isDocument && UTF8Bytes.equal(path.last, collectionID)
    }
}

import Foundation

/// Follows every collection with one id, at any depth (`db.collectionGroup`): each look finds
/// the matching folders (cheaply, see `CollectionGroupScan`) and looks at each with a
/// `CollectionFolderChanges` of its own, so each folder costs what a collection listener
/// costs; the folders share one queue of file events.
/// Documents are keyed by their whole path, since ids repeat across collections.
final class CollectionGroupFolderChanges: ChangeSource, @unchecked Sendable {
    let collectionID: String
    private let files: DocumentFiles
    private let finder: CollectionGroupScan
    private var folders: [ResourcePath: CollectionFolderChanges] = [:]
    /// One queue of file events for every folder (inotify instances are few); nil: the sweep.
    private var events: FileEvents?
    private var hasDecidedEvents = false

    init(files: DocumentFiles, collectionID: String) {
        self.files = files
        self.collectionID = collectionID
        finder = CollectionGroupScan(collectionID: collectionID)
    }

    func release() {
        for folder in folders.values { folder.release() }
        events = nil
    }

    static func key(_ folder: ResourcePath, _ id: ExactID) -> ExactID {
        id.isUndecodableFileName ? ExactID(undecodableFileName: folder.description + "/" + id.text) : ExactID(folder.description + "/" + id.text)
    }

    func look(into documents: WatchedDocuments, for watcher: Watcher) throws {
        guard let firestore = watcher.firestore else { return }
        if !hasDecidedEvents {
            hasDecidedEvents = true
            events = firestore.settings.isInotifyEnabled ? FileEvents(waking: watcher) : nil
        }
        let paths = try finder.collections(in: files)
        let current = Set(paths)
        for (path, folder) in folders where !current.contains(path) {
            folder.forgetAll(documents)
            folders[path] = nil
        }
        for path in paths {
            let folder = folders[path] ?? CollectionFolderChanges(files: files, path: path, events: events, tableKey: { Self.key(path, $0) })
            folders[path] = folder
            try folder.look(into: documents, watcher, firestore)
        }
    }
}

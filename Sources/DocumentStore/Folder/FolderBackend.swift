import Foundation

/// The embedded backend: a folder of JSON files (`DocumentFiles`), whose changes are found by
/// inotify and polling (`CollectionFolderChanges` and friends).
final class FolderBackend: FileStorage, VersionedStorage, SubcollectionIndex, PreparingStorage {
    let files: DocumentFiles

    init(root: URL) throws(DocumentStoreError) {
        files = try DocumentFiles(root: root)
    }

    var description: String { files.root.path }
    var isReadOnly: Bool { files.root.isReadOnly }
    var idRules: IDRules { .folder }

    func documents(at paths: [ResourcePath], store: Firestore) throws -> [StoredDocument] {
        try files.reading { try paths.map { try files.document(at: $0, store: store) } }
    }

    func documentTimes(_ paths: [ResourcePath]) throws -> [DocumentTimes?] {
        try files.reading { try files.times.times(at: paths) }
    }

    func commit(_ writes: [DocumentWrite], expecting expected: [ResourcePath: StoredDocument], store: Firestore) throws -> [WrittenDocument] {
        guard writes.isEmpty, !expected.isEmpty else { return try files.commit(writes, expecting: expected, store: store) }
        // Only reads to check: they need to be unchanged, which needs no write lock.
        try files.reading {
            _ = try CommitPlan.apply([], expecting: expected, at: Timestamp(), store: store, current: { try files.document(at: $0, store: store) }, updated: { _ in nil })
        }
        return []
    }

    func prepare(_ writes: [DocumentWrite], store: Firestore) -> DocumentFiles.PreparedFiles? {
        DocumentFiles.prepare(writes, store: store)
    }

    func commit(_ prepared: DocumentFiles.PreparedFiles, store: Firestore) throws -> [WrittenDocument] {
        try files.commit(prepared)
    }

    func results(of query: Query) throws -> [QueryDocumentSnapshot] {
        try QuerySource.results(of: query, files: files)
    }

    func pages(of collection: CollectionReference, size: Int) throws -> any CollectionPages {
        try CollectionFolderPages(of: collection, size: size, files: files)
    }

    func documentIDs(in collection: ResourcePath) throws -> Set<ExactID> {
        guard let folder = try files.root.openFolder(collection.segments, create: false) else { return [] }
        defer { closeDescriptor(folder) }
        var ids = Set<ExactID>()
        for entry in FolderListing.listEntries(folder) where entry.undecodableName == nil {
            if let id = FolderListing.documentID(fileName: entry.name) { ids.insert(ExactID(id)) }
        }
        for id in try files.subfolderIDs(collection.segments) { ids.insert(ExactID(id)) }
        return ids
    }

    func collectionIDs(under parent: ResourcePath) throws -> [String] {
        try files.subfolderIDs(parent.segments)
    }

    func changeSource(for key: Firestore.WatchKey, store: Firestore) -> ChangeSource {
        switch key {
        case .collection(let path): CollectionFolderChanges(files: files, path: path)
        case .collectionGroup(let id): CollectionGroupFolderChanges(files: files, collectionID: id)
        case .document(let path): DocumentFileChanges(files: files, path: path)
        case .query: changeSource(for: key.broadened, store: store)  // the query's whole collection
        }
    }

    func fileURL(for path: ResourcePath) -> URL {
        var url = URL(fileURLWithPath: files.root.path, isDirectory: true)
        for segment in path.segments.dropLast() { url.appendPathComponent(segment, isDirectory: true) }
        guard let last = path.segments.last else { return url }
        return path.isDocument ? url.appendingPathComponent(last + DocumentFiles.fileExtension, isDirectory: false)
            : url.appendingPathComponent(last, isDirectory: true)
    }

    /// A document has collections exactly when it has a folder: one listing finds them all.
    func idsWithCollections(in collection: ResourcePath) throws -> [String] {
        try files.subfolderIDs(collection.segments)
    }

    func otherFileCount(in collection: ResourcePath) throws -> Int {
        try files.otherFileCount(collection.segments)
    }

    func strayTemporaryFilesRemoved(sweepingNow: Bool) -> [String] {
        let removedWhenOpened = files.strayFiles.removedWhenOpened()
        guard sweepingNow else { return removedWhenOpened }
        files.strayFiles.sweep()
        return files.strayFiles.removed.withLock { $0 }
    }

    func versions(in scope: VersionScope, replacedAfter time: Timestamp, store: Firestore) throws -> [PastVersion]? {
        try files.versions.versions(in: scope, replacedAfter: time, store: store)
    }

    func keepVersions() throws {
        try files.versions.startKeeping()
    }

    func reading<T>(_ body: () throws -> T) throws -> T {
        try files.reading(body)
    }

    func close() {}
}

/// The C library's `close`, which `FolderBackend.close()` hides inside the class.
private func closeDescriptor(_ descriptor: Int32) { close(descriptor) }

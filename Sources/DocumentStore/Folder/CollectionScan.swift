import Foundation

/// One-off reads of a whole collection (`getDocuments`), read and parsed on every core.
enum CollectionScan {
    /// Every document of the collection, keyed by the bytes of its id; a file whose name is not
    /// valid UTF-8 is there too, as a document that cannot be read.
    static func readAll(files: DocumentFiles, firestore: Firestore, path: ResourcePath) throws -> [ExactID: QueryDocumentSnapshot] {
        let documents = try readSorted(files: files, firestore: firestore, path: path)
        return Dictionary(documents.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The same documents in Firestore's order of a collection: by the bytes of their ids.
    static func readSorted(files: DocumentFiles, firestore: Firestore, path: ResourcePath) throws -> [QueryDocumentSnapshot] {
        let readLock = files.journal.lockForReading(); defer { readLock?.release() }  // never half a batch
        guard let fd = try files.root.openFolder(path.segments, create: false) else { return [] }
        defer { close(fd) }
        return read(sortedIDs(in: fd), in: fd, path: path, files: files, firestore: firestore)
    }

    /// The ids of the documents of the open folder `fd`, by their bytes.
    static func sortedIDs(in fd: Int32) -> [ExactID] {
        KeyOrder.sorted(DocumentFileName.documents(in: fd).map(\.id)) { $0 }
    }

    /// Reads the documents of `ids` (sorted) on every core, each task into its own slots of the
    /// answer, which are then moved into the array (no reference counted twice); those whose
    /// files are gone are left out.
    static func read(_ ids: [ExactID], in fd: Int32, path: ResourcePath, files: DocumentFiles, firestore: Firestore) -> [QueryDocumentSnapshot] {
        let base = UnsafeMutablePointer<QueryDocumentSnapshot?>.allocate(capacity: ids.count)
        base.initialize(repeating: nil, count: ids.count)
        defer { base.deallocate() }
        for (index, id) in ids.enumerated() where id.isUndecodableFileName {
            base[index] = DocumentFileName.undecodableDocument(id, in: path, firestore: firestore)
        }
        let readable = ids.indices.filter { !ids[$0].isUndecodableFileName }
        let slots = UnsafeSlots(base: base)
        let collection = CollectionPlace(firestore: firestore, path: path)
        // A large collection takes what it can from its snapshot file, as a listener's first read does.
        let pass = SnapshotPass.begin(folder: fd, documents: readable.count, settings: firestore.settings, now: Date().timeIntervalSince1970)
        files.readDocuments(count: readable.count, in: fd, store: firestore, snapshot: pass, id: { ids[readable[$0]] }) { task, stored, _ in
            guard stored != .missing else { return }
            let index = readable[task]
            slots.set(index, QueryDocumentSnapshot(in: collection, key: ids[index], stored: stored))
        }
        pass?.end(documents: readable.count)
        return [QueryDocumentSnapshot](unsafeUninitializedCapacity: ids.count) { buffer, count in
            for index in ids.indices {
                if let document = (base + index).move() {
                    (buffer.baseAddress! + count).initialize(to: document)
                    count += 1
                }
            }
        }
    }

    /// The answer's slots, which the tasks fill at disjoint indices.
    private struct UnsafeSlots: @unchecked Sendable {
        let base: UnsafeMutablePointer<QueryDocumentSnapshot?>
        func set(_ index: Int, _ document: QueryDocumentSnapshot) { base[index] = document }
    }
}

/// A folder's pages: its files listed once, then each page's read (under the read lock, so
/// never half a batch) on every core. A document written after the listing is not among them;
/// one deleted after it is left out.
final class CollectionFolderPages: CollectionPages, @unchecked Sendable {
    let count: Int
    private let ids: [ExactID]
    private let path: ResourcePath
    private let files: DocumentFiles
    private let firestore: Firestore
    private let size: Int
    /// Only `next()` touches it, on one thread at a time.
    private var start = 0

    init(of collection: CollectionReference, size: Int, files: DocumentFiles) throws {
        (path, firestore, self.files, self.size) = (collection.collectionPath, collection.firestore, files, size)
        ids = try files.reading { [path] in
            guard let fd = try files.root.openFolder(path.segments, create: false) else { return [] }
            defer { close(fd) }
            return CollectionScan.sortedIDs(in: fd)
        }
        count = ids.count
    }

    func next() throws -> [QueryDocumentSnapshot] {
        // A page whose documents were all deleted since the listing is no end.
        while start < ids.count {
            let page = Array(ids[start..<min(start + size, ids.count)])
            start += page.count
            let documents = try files.reading {
                guard let fd = try files.root.openFolder(path.segments, create: false) else { return [QueryDocumentSnapshot]() }
                defer { close(fd) }
                return CollectionScan.read(page, in: fd, path: path, files: files, firestore: firestore)
            }
            if !documents.isEmpty { return documents }
        }
        return []
    }
}

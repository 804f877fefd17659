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
        let readLock = files.lockForReading(); defer { readLock?.release() }  // never half a batch
        guard let fd = try files.openFolder(path.segments, create: false) else { return [] }
        defer { close(fd) }
        let ids = KeyOrder.sorted(DocumentFileName.documents(in: fd).map(\.id)) { $0 }
        return read(ids, in: fd, path: path, files: files, firestore: firestore)
    }

    /// Reads the documents of `ids` (sorted) on every core, each task into its own slots of the
    /// answer, which are then moved into the array (no reference counted twice).
    private static func read(_ ids: [ExactID], in fd: Int32, path: ResourcePath, files: DocumentFiles, firestore: Firestore) -> [QueryDocumentSnapshot] {
        let base = UnsafeMutablePointer<QueryDocumentSnapshot?>.allocate(capacity: ids.count)
        base.initialize(repeating: nil, count: ids.count)
        defer { base.deallocate() }
        for (index, id) in ids.enumerated() where id.isUndecodableFileName {
            base[index] = DocumentFileName.undecodableDocument(id, in: path, firestore: firestore)
        }
        let readable = ids.indices.filter { !ids[$0].isUndecodableFileName }
        let slots = UnsafeSlots(base: base)
        let collection = CollectionPlace(firestore: firestore, path: path)
        files.readDocuments(count: readable.count, in: fd, store: firestore, id: { ids[readable[$0]] }) { task, stored, _ in
            guard stored != .missing else { return }
            let index = readable[task]
            slots.set(index, QueryDocumentSnapshot(in: collection, key: ids[index], stored: stored))
        }
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

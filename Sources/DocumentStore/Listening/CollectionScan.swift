import Foundation

/// One-off reads of a whole collection (`getDocuments`).
enum CollectionScan {
    /// Every document of the collection, keyed by the bytes of its id; a file whose name is not
    /// valid UTF-8 is there too, as a document that cannot be read.
    static func readAll(firestore: Firestore, path: ResourcePath) throws -> [ExactID: QueryDocumentSnapshot] {
        let readLock = firestore.files.lockForReading(); defer { readLock?.release() }  // never half a batch
        guard let fd = try firestore.files.openFolder(path.segments, create: false) else { return [:] }
        defer { close(fd) }
        var documents: [ExactID: QueryDocumentSnapshot] = [:]
        for entry in DocumentFiles.listEntries(fd) where entry.isDirectory != true {
            guard let id = DocumentFileName.id(of: entry) else { continue }
            if id.isUndecodableFileName {
                documents[id] = DocumentFileName.undecodableDocument(id, in: path, firestore: firestore)
                continue
            }
            let (stored, _) = firestore.files.readDocument(in: fd, fileName: entry.name, store: firestore)
            if stored == .missing { continue }
            documents[id] = QueryDocumentSnapshot(reference: DocumentReference(firestore: firestore, path: path.appending(id.text)), stored: stored)
        }
        return documents
    }
}

import Foundation

/// One-off reads of a whole collection (`getDocuments`).
enum CollectionScan {
    static func readAll(firestore: Firestore, path: ResourcePath) throws -> [String: QueryDocumentSnapshot] {
        guard let fd = try firestore.files.openFolder(path.segments, create: false) else { return [:] }
        defer { close(fd) }
        var documents: [String: QueryDocumentSnapshot] = [:]
        for entry in DocumentFiles.listEntries(fd) where entry.isDirectory != true {
            guard let id = DocumentFiles.documentID(fileName: entry.name) else { continue }
            let (stored, _) = firestore.files.readDocument(in: fd, fileName: entry.name, store: firestore)
            if stored == .missing { continue }
            documents[id] = QueryDocumentSnapshot(reference: DocumentReference(firestore: firestore, path: path.appending(id)), stored: stored)
        }
        return documents
    }
}

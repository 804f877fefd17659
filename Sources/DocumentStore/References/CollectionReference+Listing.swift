import Foundation

extension CollectionReference {
    /// Ours, as Firebase's server SDKs have it: every document of this collection in id order,
    /// including missing ones that have collections under them, so a tool (`shelf export`) can
    /// walk a whole store with `listCollections()`. A file name that is not UTF-8 names no
    /// reference and is left out; reads report it as a document with an error.
    public func listDocuments() throws -> [DocumentReference] {
        if let invalid { throw publicError(invalid) }
        do {
            return try firestore.backend.documentIDs(in: collectionPath).sorted().map { document($0.text) }
        } catch {
            throw publicError(error)
        }
    }
}

extension CollectionReference {
    /// Ours: the documents of this collection that have collections under them (existing
    /// documents or not), in id order: what a walk of a whole store (`shelf check`, `list`,
    /// `export`) goes down into. In a folder, one listing finds them (only those have a folder
    /// of their own) instead of one per document, seconds at 30,000 documents.
    public func listDocumentsWithCollections() throws -> [DocumentReference] {
        if let invalid { throw publicError(invalid) }
        let ids: [String]?
        do { ids = try (firestore.backend as? SubcollectionIndex)?.idsWithCollections(in: collectionPath) } catch { throw publicError(error) }
        guard let ids else { return try listDocuments().filter { try !$0.listCollections().isEmpty } }
        return ids.map { document($0) }
    }

    /// Ours: how many files of this collection's folder are not documents (only `<id>.json`
    /// files are), so a tool can say why a folder of `.txt` files shows none. 0 on a server.
    public func otherFileCount() throws -> Int {
        if let invalid { throw publicError(invalid) }
        do {
            return try firestore.fileStorage?.otherFileCount(in: collectionPath) ?? 0
        } catch {
            throw publicError(error)
        }
    }
}

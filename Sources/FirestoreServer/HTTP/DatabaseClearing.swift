import DocumentStore

extension ServedDatabase {
    /// Deletes every document at every depth under `path` (empty: the whole database; a
    /// collection; a document, with it), as Google's emulator clears a database for the next
    /// test (`DELETE /emulator/v1/.../documents`). Through the store's commit path, in batches
    /// of Firestore's 500, so its guards hold and listeners are told; returns how many.
    func deleteEverything(under path: [String]) throws -> Int {
        var pending: [DocumentReference] = [], deleted = 0
        func flush() throws {
            guard !pending.isEmpty else { return }
            let batch = store.batch()
            for document in pending { batch.deleteDocument(document) }
            try batch.commitNow()
            deleted += pending.count
            pending = []
        }
        func clear(_ document: DocumentReference) throws {
            for collection in try document.listCollections() { try clear(collection) }
            pending.append(document)
            if pending.count == 500 { try flush() }
        }
        func clear(_ collection: CollectionReference) throws {
            for document in try collection.listDocuments() { try clear(document) }
        }
        switch path.count {
        case 0: for collection in try store.listCollections() { try clear(collection) }
        case let count where count % 2 == 1: try clear(store.collection(path.joined(separator: "/")))
        default: try clear(store.document(path.joined(separator: "/")))
        }
        try flush()
        return deleted
    }
}

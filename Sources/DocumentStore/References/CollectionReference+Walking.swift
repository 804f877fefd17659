/// What the commands that walk a whole store (`check`, `list`, `export`) ask of a collection.
extension CollectionReference {
    /// The collections under this collection's documents, one level down (also under
    /// documents that do not exist themselves), by document id, then by name.
    package func subcollections() throws -> [CollectionReference] {
        try listDocumentsWithCollections().flatMap { try $0.listCollections() }
    }
}

import Foundation

extension CollectionReference {
    /// Ours, as Firebase's server SDKs have it: every document of this collection in id order,
    /// including missing ones that have collections under them, so a tool (`shelf export`) can
    /// walk a whole store with `listCollections()`. A file name that is not UTF-8 names no
    /// reference and is left out; reads report it as a document with an error.
    public func listDocuments() throws -> [DocumentReference] {
        if let invalid { throw publicError(invalid) }
        do {
            let files = firestore.files
            guard let folder = try files.openFolder(collectionPath.segments, create: false) else { return [] }
            defer { close(folder) }
            var ids = Set<ExactID>()
            for entry in DocumentFiles.listEntries(folder) where entry.undecodableName == nil {
                if let id = DocumentFiles.documentID(fileName: entry.name) { ids.insert(ExactID(id)) }
            }
            for id in try files.subfolderIDs(collectionPath.segments) { ids.insert(ExactID(id)) }
            return ids.sorted().map { document($0.text) }
        } catch {
            throw publicError(error)
        }
    }
}

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

import DocumentStore
import FirestoreProtocol
import FirestoreWire
import Foundation

/// One database a request names (`projects/p/databases/d`) and the store that holds it. Names
/// in requests and responses are made and read here, so every method agrees on them.
struct ServedDatabase: Sendable {
    /// `projects/p/databases/d`, as the request gave it: responses name documents under it.
    let name: String
    let store: Firestore

    /// `projects/p/databases/d/documents/books/dune` for `books/dune`.
    func name(of path: String) -> String { ResourceName.name(of: [path], inDatabase: name) }

    /// The path of a name under this database's documents ("" for the root itself).
    func path(of resourceName: String, field: String) throws(WireError) -> [String] {
        let parsed = try ResourceName.parse(resourceName, field: field, underDocuments: true)
        guard parsed.databaseName == name else {
            throw .invalidArgument("\(field): \"\(resourceName)\" is not in the database of the request, \(name)")
        }
        return parsed.path
    }

    /// The slash path of a document name ("books/dune"); refuses a collection's name.
    func documentPath(_ resourceName: String, field: String) throws(WireError) -> String {
        let segments = try path(of: resourceName, field: field)
        guard !segments.isEmpty, segments.count % 2 == 0 else {
            throw .invalidArgument("\(field): \"\(resourceName)\" is not a document name (a document's path has an even number of segments)")
        }
        return segments.joined(separator: "/")
    }
}

extension ServedDatabase {
    /// Whether a collection holds a document at any depth, as a collection must to exist in
    /// Firestore. A folder keeps a collection's folder once its documents are all deleted
    /// (removing it could race a writer); on PostgreSQL rows alone make collections.
    func holdsDocuments(_ collection: CollectionReference) throws -> Bool {
        guard store.fileURL(for: collection.path) != nil else { return true }
        let withCollections = try collection.listDocumentsWithCollections()
        let parents = Set(withCollections.map { ExactID($0.documentID) })
        if try collection.listDocuments().contains(where: { !parents.contains(ExactID($0.documentID)) }) { return true }
        for document in withCollections {
            if try document.readDocument().exists || document.listCollections().contains(where: holdsDocuments) { return true }
        }
        return false
    }
}

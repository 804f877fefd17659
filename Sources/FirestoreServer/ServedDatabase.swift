import DocumentStore
import FirestoreProtocol
import Foundation

/// One database a request names (`projects/p/databases/d`) and the store that holds it. Names
/// in requests and responses are made and read here, so every method agrees on them.
struct ServedDatabase: Sendable {
    /// `projects/p/databases/d`, as the request gave it: responses name documents under it.
    let name: String
    let store: Firestore

    var documentsName: String { name + "/documents" }

    /// `projects/p/databases/d/documents/books/dune` for `books/dune`.
    func name(of path: String) -> String { documentsName + "/" + path }

    /// The path of a name under this database's documents ("" for the root itself).
    func path(of resourceName: String, field: String) throws(WireError) -> [String] {
        let parsed: ResourceName
        do { parsed = try ResourceName(parsing: resourceName) } catch {
            throw .invalidArgument("\(field): \(error.description)")
        }
        guard parsed.databaseName == name else {
            throw .invalidArgument("\(field): \"\(resourceName)\" is not in the database of the request, \(name)")
        }
        guard resourceName.hasPrefix(documentsName) else {
            throw .invalidArgument("\(field): \"\(resourceName)\" is not under \(documentsName)")
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

    /// A reference value's document, in this store. A reference to another project or
    /// database is kept as the same path here.
    func reference(_ resourceName: String, field: String) throws(WireError) -> DocumentReference {
        let parsed: ResourceName
        do { parsed = try ResourceName(parsing: resourceName) } catch {
            throw .invalidArgument("\(field): \(error.description)")
        }
        guard !parsed.path.isEmpty, parsed.path.count % 2 == 0 else {
            throw .invalidArgument("\(field): the reference \"\(resourceName)\" does not name a document")
        }
        return store.document(parsed.path.joined(separator: "/"))
    }
}

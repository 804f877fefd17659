import DocumentStore
import FirestoreProtocol
import FirestoreWire
import Foundation

/// Documents and names as the server sends them, made the store's values; what cannot be
/// read is refused naming the server and the document.
struct RemoteDocuments {
    let address: RemoteAddress
    let values: WireValues

    init(address: RemoteAddress, store: Firestore) {
        self.address = address
        values = WireValues(databaseName: address.databaseName, store: store)
    }

    /// The name of the document or collection at `path` (the root: the database's documents).
    func name(of path: ResourcePath) -> String { address.name(of: path) }

    /// The path of a document the server named.
    func path(_ name: String) throws -> ResourcePath {
        guard let parsed = try? ResourceName(parsing: name), parsed.databaseName == address.databaseName,
              parsed.namesDocument else {
            throw RemoteError.badResponse("\"\(name)\" where a document of \(address.databaseName) was expected", server: address.server)
        }
        return ResourcePath(segments: parsed.path)
    }

    func stored(_ document: Google_Firestore_V1_Document) throws -> StoredDocument {
        do { return .fields(try values.fields(document.fields)) } catch {
            throw RemoteError.badResponse("document \(document.name) with a value the store cannot hold: \(error.message)", server: address.server)
        }
    }

    func snapshot(_ document: Google_Firestore_V1_Document) throws -> QueryDocumentSnapshot {
        QueryDocumentSnapshot(reference: DocumentReference(firestore: values.store, path: try path(document.name)), stored: try stored(document))
    }

    static func times(_ document: Google_Firestore_V1_Document) -> DocumentTimes {
        DocumentTimes(created: Timestamp(seconds: document.createTime.seconds, nanoseconds: document.createTime.nanos),
                      updated: Timestamp(seconds: document.updateTime.seconds, nanoseconds: document.updateTime.nanos))
    }
}

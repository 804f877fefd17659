import DocumentStore
import Foundation

/// What the commands that walk a whole store (`check`, `list`, `export`) ask of a collection.
extension CollectionReference {
    /// The collections under this collection's documents, one level down (also under
    /// documents that do not exist themselves), by document id, then by name.
    public func subcollections() throws -> [CollectionReference] {
        try listDocumentsWithCollections().flatMap { try $0.listCollections() }
    }

    /// How many files other than documents (`*.json`) and hidden ones its folder holds, so a
    /// folder of `.txt` files can say why it shows no documents. 0 on a server.
    public var otherFileCount: Int {
        guard firestore.directory.isFileURL else { return 0 }
        let folder = firestore.directory.appendingPathComponent(path, isDirectory: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { name in
            var isDirectory: ObjCBool = false
            return !name.hasPrefix(".") && !name.hasSuffix(".json")
                && FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }.count
    }
}

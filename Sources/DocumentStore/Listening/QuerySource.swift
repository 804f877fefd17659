/// Where a query's documents come from: the memory of a watcher already following them (as
/// Firestore answers from its cache), looked at once more first so writes are seen; else the
/// files.
enum QuerySource {
    static func documents(for definition: QueryDefinition, firestore: Firestore) throws -> [QueryDocumentSnapshot] {
        switch definition.source {
        case .collection(let path):
            if let watcher = firestore.activeWatcher(.collection(path)) { return try watcher.freshDocuments() }
            return try CollectionScan.readSorted(firestore: firestore, path: path)
        case .group(let id):
            if let watcher = firestore.activeWatcher(.collectionGroup(id)) { return try watcher.freshDocuments() }
            return try CollectionGroupScan.readAll(firestore: firestore, collectionID: id)
        }
    }
}

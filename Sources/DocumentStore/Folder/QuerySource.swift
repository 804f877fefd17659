/// Where a query's documents come from: the memory of a watcher already following them (as
/// Firestore answers from its cache), looked at once more first so writes are seen; else the
/// files. From a collection's watcher they are already the query's results (the evaluator
/// gives the same results from them), found through its `DocumentTable`.
enum QuerySource {
    static func documents(for definition: QueryDefinition, files: DocumentFiles, firestore: Firestore) throws -> [QueryDocumentSnapshot] {
        switch definition.source {
        case .collection(let path):
            if let watcher = firestore.activeWatcher(.collection(path)) { return try watcher.freshResults(QueryEvaluator(definition)) }
            return try CollectionScan.readSorted(files: files, firestore: firestore, path: path)
        case .group(let id):
            if let watcher = firestore.activeWatcher(.collectionGroup(id)) { return try watcher.freshDocuments() }
            return try CollectionGroupScan.readAll(files: files, firestore: firestore, collectionID: id)
        }
    }
}

/// Where a query's results come from: the memory of a watcher already following its
/// documents (as Firestore answers from its cache), looked at once more first so writes are
/// seen, a collection's through its `DocumentTable`; else the files.
enum QuerySource {
    static func results(of query: Query, files: DocumentFiles) throws -> [QueryDocumentSnapshot] {
        let (evaluator, firestore) = (query.evaluator, query.firestore)
        switch query.definition.source {
        case .collection(let path):
            if let watcher = firestore.activeWatcher(.collection(path)) { return try watcher.freshResults(evaluator) }
            return evaluator.results(from: try CollectionScan.readSorted(files: files, firestore: firestore, path: path))
        case .group(let id):
            if let watcher = firestore.activeWatcher(.collectionGroup(id)) { return evaluator.results(from: try watcher.freshDocuments()) }
            return evaluator.results(from: try CollectionGroupScan.readAll(files: files, firestore: firestore, collectionID: id))
        }
    }
}

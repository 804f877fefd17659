/// A listened collection's documents laid out for one-off queries: one array, and for each field
/// a query has ordered by, a column of its values in the same order.
///
/// Scanning 100,000 snapshots for a page of 20 spends its time reaching into each document's
/// fields, scattered over the heap; a column is one contiguous array, so a query with a limit
/// compares each document's ordered value there and touches only the few that could enter the
/// page. Made when a query first asks, then kept in step with each tick's changes.
final class DocumentTable {
    private(set) var documents: [QueryDocumentSnapshot]
    private var indexByKey: [ExactID: Int]
    private var columns: [FieldPath: [FirestoreValue?]] = [:]

    init(_ documents: [QueryDocumentSnapshot]) {
        self.documents = documents
        indexByKey = Dictionary(uniqueKeysWithValues: documents.indices.lazy.map { (documents[$0].key, $0) })
    }

    /// Takes a tick's changes: `current` holds the documents as they are now.
    func apply(_ changed: some Collection<ExactID>, from current: WatchedDocuments) {
        for key in changed {
            let document = current[key]
            if let index = indexByKey[key] {
                if let document {
                    replace(at: index, with: document)
                } else {
                    remove(at: index)
                }
            } else if let document {
                indexByKey[key] = documents.count
                documents.append(document)
                for field in columns.keys { columns[field]!.append(DocumentValues.value(of: field, in: document)) }
            }
        }
    }

    private func replace(at index: Int, with document: QueryDocumentSnapshot) {
        documents[index] = document
        for field in columns.keys { columns[field]![index] = DocumentValues.value(of: field, in: document) }
    }

    /// Moves the last document into the hole.
    private func remove(at index: Int) {
        indexByKey[documents[index].key] = nil
        let last = documents.removeLast()
        for field in columns.keys {
            let value = columns[field]!.removeLast()
            if index < documents.count { columns[field]![index] = value }
        }
        if index < documents.count {
            documents[index] = last
            indexByKey[last.key] = index
        }
    }

    /// The values of `field`, one per document.
    func column(_ field: FieldPath) -> [FirestoreValue?] {
        if let column = columns[field] { return column }
        let column = documents.map { DocumentValues.value(of: field, in: $0) }
        columns[field] = column
        return column
    }

    /// The query's results: with a limit and a first order on a field, through that field's column.
    func results(_ evaluator: QueryEvaluator) -> [QueryDocumentSnapshot] {
        guard let first = evaluator.orders.first, !first.field.isDocumentID, evaluator.definition.limit != nil else {
            return evaluator.results(from: documents)
        }
        return evaluator.results(from: documents, firstOrderColumn: column(first.field))
    }
}

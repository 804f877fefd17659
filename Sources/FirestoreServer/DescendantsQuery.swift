import DocumentStore
import FirestoreProtocol
import FirestoreWire
import Foundation

/// A query over every collection under a parent (an empty `collection_id` with
/// `all_descendants`): every document at any depth, in name order, between cursors at
/// `__name__`. Client libraries send it to delete a document or collection with all it holds
/// (`recursive_delete`): the cursors bound the range to one collection, from the least id
/// (`…/books/__id-9223372036854775808__`) to the same name with `\0` after the collection's id.
/// The walk goes down only where documents within the range can be.
struct DescendantsQuery {
    struct Bound {
        let path: [String]
        let inclusive: Bool
    }

    let store: Firestore
    let parent: [String]
    let descending: Bool
    let start: Bound?
    let end: Bound?
    /// Enough documents: the walk stops there (ascending only; nil for all).
    let needed: Int?

    init(_ wire: Google_Firestore_V1_StructuredQuery, parent: [String], in database: ServedDatabase) throws(WireError) {
        guard !wire.hasWhere else {
            throw .unimplemented("where: a query over every collection (an empty collection_id) takes no filter in Shelf yet")
        }
        for (index, order) in wire.orderBy.enumerated() where order.field.fieldPath != "__name__" {
            throw .unimplemented("order_by[\(index)]: a query over every collection (an empty collection_id) is ordered by __name__ only in Shelf, not by \"\(order.field.fieldPath)\"")
        }
        store = database.store
        self.parent = parent
        descending = wire.orderBy.first?.direction == .descending
        start = wire.hasStartAt ? try Self.bound(wire.startAt, inclusive: wire.startAt.before, database: database, field: "start_at") : nil
        end = wire.hasEndAt ? try Self.bound(wire.endAt, inclusive: !wire.endAt.before, database: database, field: "end_at") : nil
        needed = wire.hasLimit && !descending ? Int(wire.limit.value) + Int(wire.offset) : nil
    }

    private static func bound(_ cursor: Google_Firestore_V1_Cursor, inclusive: Bool, database: ServedDatabase, field: String) throws(WireError) -> Bound {
        guard cursor.values.count == 1, case .referenceValue(let name)? = cursor.values[0].valueType else {
            throw .invalidArgument("\(field).values: a query over every collection takes one cursor value, a reference at __name__")
        }
        return Bound(path: try database.path(of: name, field: "\(field).values[0]"), inclusive: inclusive)
    }

    func documents() async throws -> [DocumentSnapshot] {
        var found: [DocumentSnapshot] = []
        try await walk(under: parent, into: &found)
        return descending ? found.reversed() : found
    }

    /// Adds the documents of every collection under `document`, depth first in name order.
    private func walk(under document: [String], into found: inout [DocumentSnapshot]) async throws {
        let collections = document.isEmpty ? try store.listCollections() : try store.document(document.joined(separator: "/")).listCollections()
        for id in collections.map(\.collectionID).sorted(by: { IDOrder.compare($0, $1) < 0 }) {
            let path = document + [id]
            guard mayHold(path) else { continue }
            let collection = store.collection(path.joined(separator: "/"))
            let existing = try await collection.getDocuments().documents
            // By exact bytes: two ids Swift's String takes for one ("café" composed and not) are two documents.
            let withCollections = Set(try collection.listDocumentsWithCollections().map { ExactID($0.documentID) })
            let byID = Dictionary(existing.map { (ExactID($0.documentID), $0) }, uniquingKeysWith: { first, _ in first })
            for id in Set(byID.keys).union(withCollections).sorted(by: { IDOrder.compare($0.text, $1.text) < 0 }) {
                if let needed, found.count >= needed { return }
                let documentPath = path + [id.text]
                if let snapshot = byID[id], contains(documentPath) { found.append(snapshot) }
                if withCollections.contains(id), mayHold(documentPath) { try await walk(under: documentPath, into: &found) }
            }
        }
    }

    private func contains(_ path: [String]) -> Bool {
        if let start {
            let order = IDOrder.compare(path, start.path)
            if order < 0 || (order == 0 && !start.inclusive) { return false }
        }
        if let end {
            let order = IDOrder.compare(path, end.path)
            if order > 0 || (order == 0 && !end.inclusive) { return false }
        }
        return true
    }

    /// Whether `prefix` or a name under it can be within the bounds: names under it follow it,
    /// and share its order against any name it differs from in its own segments.
    private func mayHold(_ prefix: [String]) -> Bool {
        if let start, zip(prefix, start.path).lazy.map({ IDOrder.compare($0, $1) }).first(where: { $0 != 0 }) ?? 0 < 0 { return false }
        if let end {
            let order = IDOrder.compare(prefix, end.path)
            if order > 0 || (order == 0 && !end.inclusive) { return false }
        }
        return true
    }
}

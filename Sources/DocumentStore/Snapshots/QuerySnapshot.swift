/// The results of a query at one moment, with what changed since the listener's last snapshot.
public final class QuerySnapshot: @unchecked Sendable {
    public let query: Query
    public let documents: [QueryDocumentSnapshot]
    public let documentChanges: [DocumentChange]

    init(query: Query, documents: [QueryDocumentSnapshot], changes: [DocumentChange]) {
        self.query = query
        self.documents = documents
        self.documentChanges = changes
    }

    public var count: Int { documents.count }
    public var isEmpty: Bool { documents.isEmpty }
}

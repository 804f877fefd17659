/// The results of a query at one moment, with what changed since the listener's last snapshot.
public final class QuerySnapshot: @unchecked Sendable {
    public let query: Query
    public let documents: [QueryDocumentSnapshot]
    /// Nil when every document was added (a first snapshot, a one-off read): those changes are
    /// made when asked, so a snapshot of a million documents holds no list of a million
    /// additions (30 MiB) that its listener may never look at.
    private let changes: [DocumentChange]?

    /// `changes`: what changed since the last snapshot; nil: every document is new.
    init(query: Query, documents: [QueryDocumentSnapshot], changes: [DocumentChange]?) {
        self.query = query
        self.documents = documents
        self.changes = changes
    }

    public var documentChanges: [DocumentChange] {
        changes ?? documents.enumerated().map { index, document in
            DocumentChange(type: .added, document: document, oldIndex: DocumentChange.notFound, newIndex: UInt(index))
        }
    }

    public var count: Int { documents.count }
    public var isEmpty: Bool { documents.isEmpty }
}

/// The results of a query at one moment, with what changed since the listener's last snapshot.
public final class QuerySnapshot: @unchecked Sendable {
    public let query: Query
    public let documents: [QueryDocumentSnapshot]
    /// Nil when every document was added (a first snapshot, a one-off read): those changes are
    /// made when asked, so a snapshot of a million documents holds no list of a million
    /// additions (30 MiB) that its listener may never look at.
    private let changes: [DocumentChange]?
    /// `hasPendingWrites` when a document shown is this store's write not yet committed.
    public let metadata: SnapshotMetadata

    /// `changes`: what changed since the last snapshot; nil: every document is new.
    init(query: Query, documents: [QueryDocumentSnapshot], changes: [DocumentChange]?, hasPendingWrites: Bool = false) {
        self.query = query
        self.documents = documents
        self.changes = changes
        metadata = SnapshotMetadata(hasPendingWrites: hasPendingWrites)
    }

    /// The changes of the data: without those where only `hasPendingWrites` changed.
    public var documentChanges: [DocumentChange] { documentChanges(includeMetadataChanges: false) }

    /// Firebase's: with `true`, also the changes where only `hasPendingWrites` changed, which
    /// only a listener added with `includeMetadataChanges` was given.
    public func documentChanges(includeMetadataChanges: Bool) -> [DocumentChange] {
        guard let changes else {
            return documents.enumerated().map { index, document in
                DocumentChange(type: .added, document: document, oldIndex: DocumentChange.notFound, newIndex: UInt(index))
            }
        }
        return includeMetadataChanges ? changes : changes.filter { !$0.isMetadataOnly }
    }

    public var count: Int { documents.count }
    public var isEmpty: Bool { documents.isEmpty }
}

/// Firebase's `includeMetadataChanges:` forms. Metadata never changes here (nothing is pending,
/// nothing comes from a cache), so they deliver what the plain forms deliver.
extension DocumentReference {
    @discardableResult
    public func addSnapshotListener(includeMetadataChanges: Bool,
                                    listener: @escaping (DocumentSnapshot?, Error?) -> Void) -> ListenerRegistration {
        addSnapshotListener(listener)
    }
}

extension Query {
    @discardableResult
    public func addSnapshotListener(includeMetadataChanges: Bool,
                                    listener: @escaping (QuerySnapshot?, Error?) -> Void) -> ListenerRegistration {
        addSnapshotListener(listener)
    }
}

extension QuerySnapshot {
    /// Always false and false: nothing is pending and nothing comes from a cache.
    public var metadata: SnapshotMetadata { SnapshotMetadata() }

    /// Firebase's changes with or without metadata-only ones; there are none here, so both are
    /// `documentChanges`.
    public func documentChanges(includeMetadataChanges: Bool) -> [DocumentChange] { documentChanges }
}

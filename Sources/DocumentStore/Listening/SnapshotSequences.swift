/// Firebase's `snapshots` for `for try await` loops: every snapshot a listener would get; an
/// error ends the sequence by throwing it; ending the loop (or cancelling its task) removes
/// the listener. Firebase returns sequence types of its own (`QuerySnapshotsSequence`) that
/// need macOS 15; an `AsyncThrowingStream` is used the same way and needs nothing newer.
extension Query {
    public var snapshots: AsyncThrowingStream<QuerySnapshot, Error> { snapshots(includeMetadataChanges: false) }

    public func snapshots(includeMetadataChanges: Bool) -> AsyncThrowingStream<QuerySnapshot, Error> {
        AsyncThrowingStream { continuation in
            let registration = addSnapshotListener(includeMetadataChanges: includeMetadataChanges) { snapshot, error in
                if let snapshot { continuation.yield(snapshot) } else { continuation.finish(throwing: error) }
            }
            continuation.onTermination = { _ in registration.remove() }
        }
    }
}

extension DocumentReference {
    public var snapshots: AsyncThrowingStream<DocumentSnapshot, Error> { snapshots(includeMetadataChanges: false) }

    public func snapshots(includeMetadataChanges: Bool) -> AsyncThrowingStream<DocumentSnapshot, Error> {
        AsyncThrowingStream { continuation in
            let registration = addSnapshotListener(includeMetadataChanges: includeMetadataChanges) { snapshot, error in
                if let snapshot { continuation.yield(snapshot) } else { continuation.finish(throwing: error) }
            }
            continuation.onTermination = { _ in registration.remove() }
        }
    }
}

/// A snapshot of this store's own write as its listeners see it before the one that says it
/// is committed (Firebase's latency-compensated snapshot, `hasPendingWrites`): where the
/// document is, and the fields the write's `serverTimestamp()`s stamp, which read as
/// `serverTimestampBehavior` says until then. Only such a snapshot refers to one, so the
/// snapshots of committed documents stay as small as they were (`SnapshotPlaceTests`).
final class PendingWrite: Sendable {
    let reference: DocumentReference
    /// The stamped fields that hold the commit's time (a later write of the same commit may
    /// have put another value there).
    let stampedFields: [FieldPath]
    /// The document before the write, for `.previous`; nil when nothing is stamped.
    let previous: Fields?

    init(reference: DocumentReference, stored: StoredDocument, stamping stamped: [FieldPath], previous: StoredDocument) {
        self.reference = reference
        let fields = stored.fields
        stampedFields = stamped.filter { field in
            if case .timestamp = fields?.value(at: field.segments) { true } else { false }
        }
        self.previous = stampedFields.isEmpty ? nil : previous.fields
    }

    /// `fields` as Firebase shows a pending write: each stamped field null (`.none`), the time
    /// it will hold (`.estimate`: here the commit's, which the committed snapshot holds too),
    /// or the value it held before (`.previous`, null when it had none).
    func shown(_ fields: Fields, _ behavior: ServerTimestampBehavior) -> Fields {
        guard !stampedFields.isEmpty, behavior != .estimate else { return fields }
        var dictionary = fields.dictionary
        for field in stampedFields {
            let before = behavior == .previous ? previous?.value(at: field.segments) : nil
            try? FieldConversion.setValue(at: field.segments[...], in: &dictionary) { _ in before ?? .null }
        }
        return Fields(dictionary)
    }
}

extension DocumentSnapshot {
    /// True when `other` shows the same data and differs only in `hasPendingWrites` (this
    /// store's write, now committed): Firebase's metadata change, which a listener gets only
    /// with `includeMetadataChanges`. A stamped field is null until committed: a data change.
    func differsOnlyInMetadata(from other: DocumentSnapshot) -> Bool {
        let pending = pendingWrite ?? other.pendingWrite
        guard let pending, (pendingWrite == nil) != (other.pendingWrite == nil) else { return false }
        return pending.stampedFields.isEmpty && stored == other.stored
    }
}

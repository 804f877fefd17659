/// Ours: how far a listener's first read of a large collection (2,000 documents or more) has
/// got, with the documents read since the last report, so an app can show them before the
/// first snapshot, which still holds every document, as Firestore's does.
public struct LoadProgress: Sendable {
    /// Documents read so far, of `total` (nil for the first report of a large folder, made
    /// before the whole folder is listed).
    public let read: Int
    public let total: Int?
    /// The documents of this slice of the read that the query's filters and cursors match, in
    /// no particular order; none for a query with a limit, whose results need every document.
    public let documents: [QueryDocumentSnapshot]
}

import DocumentStore

/// What the once-a-second look finds: the top-level collections, and the collections of the
/// selected document, which its detail names. Made off the main thread: a server that does
/// not answer holds it until its calls time out, and keys should not wait for that.
public struct CollectionListing: @unchecked Sendable {
    let collections: Result<[String], any Error>
    let selected: (path: String, ids: [String])?
    /// Of the collections asked about (those whose tab was dropped when they were emptied),
    /// the listed ones that hold a document again.
    let refilled: Set<String>
    /// When the look began: one begun before the last taken in is older news, however late
    /// it comes back (the start's look and the once-a-second one run side by side).
    let began: ContinuousClock.Instant

    /// Lists the store's collections, and those of the `selected` document; and which of the
    /// `emptied` collections (`AppModel.emptiedCollections`) hold a document again.
    public init(of store: Firestore, selected: DocumentReference?, emptied: Set<String> = []) {
        began = .now
        collections = Result { try store.listCollections().map(\.collectionID) }
        let listed = Set((try? collections.get()) ?? [])
        refilled = emptied.filter { id in
            listed.contains(id) && ((try? store.collection(id).listDocuments().isEmpty == false) ?? false)
        }
        let ids = selected.flatMap { try? $0.listCollections().map(\.collectionID).sorted(by: CollectionTabs.precedes) }
        self.selected = selected.flatMap { reference in ids.map { (reference.path, $0) } }
    }
}

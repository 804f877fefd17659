/// The documents a `Watcher` holds, and which of them changed since its listeners were last
/// told: a change source hands over what it read, and only a document whose stored content
/// differs from the one held gets a new snapshot and counts as changed, whatever the backend.
/// Touched only on the watcher's queue.
package final class WatchedDocuments {
    /// A collection's, group's or query's documents, by `Firestore.WatchKey.tableKey`.
    private var byKey = CompactTable<ExactID, QueryDocumentSnapshot>()
    /// The same documents in id order, when a first read took them so and nothing changed
    /// since: a listener's first snapshot of a million documents is then not sorted again.
    private(set) var inIDOrder: [QueryDocumentSnapshot]?
    /// A document listener's document, missing or not, once read.
    private(set) var document: DocumentSnapshot?
    /// Kept until the watcher takes them: a look that fails halfway loses none. Nil until
    /// the watcher first takes them, since its first delivery sends every document anyway: a
    /// first read of a million documents keeps no table of a million keys.
    private var changed: Changes?
    /// Set by the watcher once it has looked: whether a commit of this store is writing the
    /// document at a key now. What a source reads of such a document meanwhile is held back
    /// (`heldBack`) until the watcher has shown the commit's own snapshots, pending then
    /// committed (`Watcher.showCommit`), so no listener sees the file before the pending write.
    var isBeingCommitted: ((ExactID) -> Bool)?
    /// The last read of each such document, by key.
    private var heldBack: [ExactID: HeldBack] = [:]
    /// Documents a commit of this store added before its source read them: a source that
    /// then takes one as new (`takeNew`, a first listing of a folder the commit made) must
    /// find it, not hold it twice.
    private var shownAhead: Set<ExactID> = []

    private enum HeldBack {
        case document(QueryDocumentSnapshot)
        case removed
        case single(DocumentSnapshot)
    }

    /// The keys that changed since the listeners were last told, each with the snapshot they
    /// were told of then (nil: none, the document is new to them), so a query listener finds
    /// where a changed document was in its results without a table of its own.
    package typealias Changes = [ExactID: QueryDocumentSnapshot?]

    subscript(key: ExactID) -> QueryDocumentSnapshot? { byKey[key] }

    var keys: [ExactID] { byKey.keys }

    /// Every document held, in no particular order.
    var all: [QueryDocumentSnapshot] { byKey.values }

    /// True when changes wait to be taken (a look failed after making them).
    var hasChanges: Bool { changed?.isEmpty == false }

    /// Takes `stored` as the document at `key` now (`.missing`: removed); `snapshot` makes its
    /// snapshot, asked only when it differs from the one held. Returns the snapshot held now.
    @discardableResult
    package func take(_ key: ExactID, _ stored: StoredDocument, snapshot: () -> QueryDocumentSnapshot) -> QueryDocumentSnapshot? {
        guard stored != .missing else {
            remove(key)
            return nil
        }
        if let isBeingCommitted, isBeingCommitted(key) {
            let new = snapshot()
            heldBack[key] = .document(new)
            return new
        }
        if !shownAhead.isEmpty { shownAhead.remove(key) }
        let held = byKey[key]
        if let held, held.stored == stored { return held }  // the same snapshot: no change to send
        let new = snapshot()
        byKey[key] = new
        noteChange(key, held: held)
        return new
    }

    /// Takes a document the table does not hold (a first listing's file), without a lookup.
    func takeNew(_ key: ExactID, _ snapshot: QueryDocumentSnapshot) {
        if let isBeingCommitted, isBeingCommitted(key) { return heldBack[key] = .document(snapshot) }
        if !shownAhead.isEmpty, shownAhead.contains(key) {
            take(key, snapshot.stored) { snapshot }
            return
        }
        byKey.append(key, snapshot)
        noteChange(key, held: nil)
    }

    func remove(_ key: ExactID) {
        if let isBeingCommitted, isBeingCommitted(key) { return heldBack[key] = .removed }
        removeNow(key)
    }

    /// `remove` once it is not held back.
    private func removeNow(_ key: ExactID) {
        if !shownAhead.isEmpty { shownAhead.remove(key) }
        if let held = byKey.removeValue(forKey: key) { noteChange(key, held: held) }
    }

    /// Removes every document whose key is not in `kept` (after a read of everything).
    package func removeAll(except kept: Set<ExactID>) {
        for key in byKey.keys.filter({ !kept.contains($0) }) { remove(key) }
    }

    /// Takes `stored` as a document listener's document now.
    package func take(document stored: StoredDocument, at reference: @autoclosure () -> DocumentReference) {
        if let isBeingCommitted {
            let made = reference(), key = ExactID(made.documentID)
            guard !isBeingCommitted(key) else { return heldBack[key] = .single(DocumentSnapshot(reference: made, stored: stored)) }
            return replaceDocument(stored, at: made)
        }
        replaceDocument(stored, at: reference())
    }

    /// `take(document:at:)` once it is not held back.
    private func replaceDocument(_ stored: StoredDocument, at reference: @autoclosure () -> DocumentReference) {
        guard document?.stored != stored else { return }
        show(DocumentSnapshot(reference: reference(), stored: stored))
    }

    // MARK: This store's own commits

    /// Shows `snapshot` as the document at `key` (nil: removed), whatever is held: this
    /// store's write, pending or committed (`Watcher.showCommit`).
    func show(_ snapshot: QueryDocumentSnapshot?, at key: ExactID) {
        guard let snapshot else { return removeNow(key) }
        let held = byKey[key]
        if held == nil { shownAhead.insert(key) }
        byKey[key] = snapshot
        noteChange(key, held: held)
    }

    /// Shows `snapshot` as a document listener's document, whatever is held.
    func show(_ snapshot: DocumentSnapshot) {
        document = snapshot
        noteChange(snapshot.key, held: nil)
    }

    /// Takes what a source read of `key` while it was being committed, unless it is one of
    /// `shown` (what the commits showed, or what was held before them): that read is no news,
    /// and a read of the document before the commit is followed by one of the commit's file.
    func releaseHeldBack(_ key: ExactID, unlessOneOf shown: [StoredDocument]) {
        guard let held = heldBack.removeValue(forKey: key) else { return }
        switch held {
        case .document(let snapshot): if !shown.contains(snapshot.stored) { take(key, snapshot.stored) { snapshot } }
        case .removed: if !shown.contains(.missing) { remove(key) }
        case .single(let snapshot): if !shown.contains(snapshot.stored) { take(document: snapshot.stored, at: snapshot.reference) }
        }
    }

    /// The document held at `key` now, as stored (`.missing`: none); for a document listener
    /// its document.
    func stored(at key: ExactID, single: Bool) -> StoredDocument {
        (single ? document : byKey[key])?.stored ?? .missing
    }

    /// Keeps the snapshot the listeners were told of: the first one replaced since.
    private func noteChange(_ key: ExactID, held: QueryDocumentSnapshot?) {
        inIDOrder = nil
        if changed != nil && changed![key] == nil { changed![key] = .some(held) }
    }

    /// Says that `documents` are every document held, in id order (checked by count: a
    /// source that took others too, or fewer, is sorted as any other).
    func holdInIDOrder(_ documents: [QueryDocumentSnapshot]) {
        inIDOrder = documents.count == byKey.count ? documents : nil
    }

    func reserveCapacity(_ count: Int) {
        byKey.reserveCapacity(count)
    }

    /// Indexes the documents taken with `takeNew` (see `CompactTable.indexAppended`).
    func indexTaken() {
        byKey.indexAppended()
    }

    /// For tests: how many documents taken with `takeNew` are not indexed yet.
    var unindexed: Int { byKey.unindexed }

    /// What changed since the last call; the first call, which follows the first look, says
    /// nothing changed (everything is new).
    func takeChanged() -> Changes {
        defer { changed = [:] }
        return changed ?? [:]
    }
}

extension Firestore.WatchKey {
    /// How a watcher of this key tells its documents apart: by id in a collection (or a query
    /// of one), by whole path in a group.
    package func tableKey(of path: ResourcePath) -> ExactID {
        if case .collection = broadened { return ExactID(path.last) }
        return ExactID(path.description)
    }
}

/// The documents a `Watcher` holds, and which of them changed since its listeners were last
/// told: a change source hands over what it read, and only a document whose stored content
/// differs from the one held gets a new snapshot and counts as changed, whatever the backend.
/// Touched only on the watcher's queue.
package final class WatchedDocuments {
    /// A collection's, group's or query's documents, by `Firestore.WatchKey.tableKey`.
    private(set) var byKey: [ExactID: QueryDocumentSnapshot] = [:]
    /// The same documents in id order, when a first read took them so and nothing changed
    /// since: a listener's first snapshot of a million documents is then not sorted again.
    private(set) var inIDOrder: [QueryDocumentSnapshot]?
    /// A document listener's document, missing or not, once read.
    private(set) var document: DocumentSnapshot?
    /// Kept until the watcher takes them: a look that fails halfway loses none. Nil until
    /// the watcher first takes them, since its first delivery sends every document anyway: a
    /// first read of a million documents keeps no set of a million keys.
    private var changed: Set<ExactID>?

    subscript(key: ExactID) -> QueryDocumentSnapshot? { byKey[key] }

    var keys: Dictionary<ExactID, QueryDocumentSnapshot>.Keys { byKey.keys }

    /// Takes `stored` as the document at `key` now (`.missing`: removed); `snapshot` makes its
    /// snapshot, asked only when it differs from the one held. Returns the snapshot held now.
    @discardableResult
    func take(_ key: ExactID, _ stored: StoredDocument, snapshot: () -> QueryDocumentSnapshot) -> QueryDocumentSnapshot? {
        guard stored != .missing else {
            remove(key)
            return nil
        }
        if let held = byKey[key], held.stored == stored { return held }  // the same snapshot: no change to send
        let new = snapshot()
        byKey[key] = new
        changed?.insert(key)
        inIDOrder = nil
        return new
    }

    func remove(_ key: ExactID) {
        if byKey.removeValue(forKey: key) != nil {
            changed?.insert(key)
            inIDOrder = nil
        }
    }

    /// Removes every document whose key is not in `kept` (after a read of everything).
    func removeAll(except kept: Set<ExactID>) {
        for key in byKey.keys.filter({ !kept.contains($0) }) { remove(key) }
    }

    /// Takes `stored` as a document listener's document now.
    func take(document stored: StoredDocument, at reference: @autoclosure () -> DocumentReference) {
        guard document?.stored != stored else { return }
        let new = DocumentSnapshot(reference: reference(), stored: stored)
        document = new
        changed?.insert(new.key)
    }

    /// Says that `documents` are every document held, in id order (checked by count: a
    /// source that took others too, or fewer, is sorted as any other).
    func holdInIDOrder(_ documents: [QueryDocumentSnapshot]) {
        inIDOrder = documents.count == byKey.count ? documents : nil
    }

    func reserveCapacity(_ count: Int) {
        byKey.reserveCapacity(count)
    }

    /// What changed since the last call; the first call, which follows the first look, says
    /// nothing changed (everything is new).
    func takeChanged() -> Set<ExactID> {
        defer { changed = [] }
        return changed ?? []
    }
}

extension Firestore.WatchKey {
    /// How a watcher of this key tells its documents apart: by id in a collection (or a query
    /// of one), by whole path in a group.
    func tableKey(of path: ResourcePath) -> ExactID {
        if case .collection = broadened { return ExactID(path.last) }
        return ExactID(path.description)
    }
}

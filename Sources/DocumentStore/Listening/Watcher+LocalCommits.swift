import Foundation

/// This store's own commits, shown to its listeners as Firebase's SDK shows a local write:
/// first with `hasPendingWrites` (the latency-compensated snapshot, which every listener gets
/// when the data changed), then committed (which only a listener with `includeMetadataChanges`
/// gets when nothing but `hasPendingWrites` changed). The documents being committed are
/// registered before the backend writes them (`willCommit`); what the change source reads of
/// them meanwhile is held back (`WatchedDocuments.isBeingCommitted`), so no listener sees the
/// written file before the pending write, whatever wakes the watcher first.
extension Watcher {
    /// The store is about to commit writes of `paths`.
    func willCommit(_ paths: [ResourcePath]) {
        let keys = followedKeys(paths)
        guard !keys.isEmpty else { return }
        committing.withLock { counts in for key in keys { counts[key, default: 0] += 1 } }
    }

    /// The commit of `writes` stored `written`: the listeners get those this watcher follows
    /// pending, then committed (for a document the commit left as it was, a change of its
    /// metadata only, as Firebase's SDK shows a write of the same data); then the source is
    /// looked at, for the documents that changed.
    func committed(_ written: [WrittenDocument], of writes: [DocumentWrite]) {
        source.wrote(written.filter(\.changed))
        queue.async {
            self.showCommit(written, of: writes)
            self.finishCommitting(writes.map(\.path))
        }
    }

    /// The commit of `paths` failed: what the source read of them meanwhile is taken.
    func didNotCommit(_ paths: [ResourcePath]) {
        queue.async { self.finishCommitting(paths) }
    }

    /// Starts holding back what a source reads of documents being committed, once the
    /// listeners have a first snapshot to keep consistent.
    func holdBackWhatIsBeingCommitted() {
        let committing = self.committing
        documents.isBeingCommitted = { key in committing.withLock { $0[key] != nil } }
    }

    /// How this watcher tells apart the documents at `paths` that it follows (a query followed
    /// on its own, by its collection or group).
    private func followedKeys(_ paths: [ResourcePath]) -> Set<ExactID> {
        guard showsLocalCommits else { return [] }
        return Set(paths.compactMap(followedKey(of:)))
    }

    /// False for a query with a limit followed on its own: its page holds no document past
    /// it, so what a write moves in or out is the server's to tell, committed; nothing of it
    /// is held back either.
    private var showsLocalCommits: Bool {
        if case .query(let definition) = key { definition.limit == nil } else { true }
    }

    private func followedKey(of path: ResourcePath) -> ExactID? {
        switch key.broadened {
        case .document(let followed): path == followed ? ExactID(path.last) : nil
        case .collection(let collection): path.parent == collection ? key.tableKey(of: path) : nil
        case .collectionGroup(let id): path.parent.last == id ? key.tableKey(of: path) : nil
        case .query: nil
        }
    }

    private var followsOneDocument: Bool {
        if case .document = key { true } else { false }
    }

    /// The two deliveries, when the listeners have had a first snapshot. A query followed on
    /// its own holds only its matches: a write it does not hold is shown only when it matches
    /// (and none with a limit, see `showsLocalCommits`).
    private func showCommit(_ written: [WrittenDocument], of writes: [DocumentWrite]) {
        guard hasLooked, source.isConsistent, let firestore else { return }
        guard showsLocalCommits else { return }
        var evaluator: QueryEvaluator?
        if case .query(let definition) = key { evaluator = QueryEvaluator(definition) }
        var shown: [(key: ExactID, reference: DocumentReference, document: StoredDocument)] = []
        for document in written {
            guard let id = followedKey(of: document.path) else { continue }
            let reference = DocumentReference(firestore: firestore, path: document.path)
            if let evaluator, documents[id] == nil {
                let snapshot = QueryDocumentSnapshot(reference: reference, stored: document.document)
                guard document.document != .missing, evaluator.matches(snapshot) else { continue }
            }
            shown.append((id, reference, document.document))
        }
        guard !shown.isEmpty else { return }
        let stamped = DocumentWrite.stampedFields(writes)
        for (id, reference, stored) in shown {
            let before = documents.stored(at: id, single: followsOneDocument)
            shownWhileCommitting[id, default: []] += [before, stored]
            // Firebase shows a deleted document pending nowhere: its one snapshot is this.
            if stored == .missing {
                if before != .missing { show(nil, reference: reference, at: id) }
                continue
            }
            let pending = PendingWrite(reference: reference, stored: stored, stamping: stamped[reference.resourcePath] ?? [], previous: before)
            show(.pending(pending, stored), reference: reference, at: id)
        }
        deliverChanges()
        for (id, reference, stored) in shown where stored != .missing { show(.committed(stored), reference: reference, at: id) }
        deliverChanges()
    }

    private enum Shown {
        case pending(PendingWrite, StoredDocument)
        case committed(StoredDocument)
    }

    /// Puts the snapshot `shown` makes (nil: the document removed) where this watcher holds it.
    private func show(_ shown: Shown?, reference: DocumentReference, at id: ExactID) {
        if followsOneDocument {
            switch shown {
            case .pending(let write, let stored): documents.show(DocumentSnapshot(pending: write, stored: stored))
            case .committed(let stored): documents.show(DocumentSnapshot(reference: reference, stored: stored))
            case nil: documents.show(DocumentSnapshot(reference: reference, stored: .missing))
            }
            return
        }
        switch shown {
        case .pending(let write, let stored): documents.show(QueryDocumentSnapshot(pending: write, stored: stored), at: id)
        case .committed(let stored): documents.show(QueryDocumentSnapshot(reference: reference, stored: stored), at: id)
        case nil: documents.show(nil, at: id)
        }
    }

    /// One commit of `paths` is over: the documents no other commit is writing take what the
    /// source read of them meanwhile (but what was shown), and the source is looked at.
    private func finishCommitting(_ paths: [ResourcePath]) {
        let keys = followedKeys(paths)
        let finished = committing.withLock { counts in
            keys.filter { key in
                let remaining = (counts[key] ?? 1) - 1
                counts[key] = remaining > 0 ? remaining : nil
                return remaining <= 0
            }
        }
        for key in finished { documents.releaseHeldBack(key, unlessOneOf: shownWhileCommitting.removeValue(forKey: key) ?? []) }
        // A watcher stopped meanwhile has let go of its source: nothing to look at.
        if firestore.map({ !$0.watchers.subscribers(of: self).isEmpty }) ?? false { try? look() }
    }
}

import Foundation

/// The one commit path of a store, whoever writes (the API, a transaction, a bundle, a bulk
/// writer, `shelf serve`): the writes' locks (`TransactionLocks`), the backend's commit, and
/// the watchers shown what changed. Apart from `Firestore`, whose `commit` forms forward here.
struct CommitPath {
    let store: Firestore

    /// The one way documents change: the writes are applied together, after checking that the
    /// documents in `expected` are still as they were read; then listeners are told. Returns
    /// the documents written, with their times. The writes' locks are taken first, for `owner`
    /// (a transaction's, which may hold some already) or for a new youngest holder, which
    /// waits for transactions that read the documents; all of the owner's locks go after.
    func commit(_ writes: [DocumentWrite], expecting expected: [ResourcePath: StoredDocument],
                lockedBy owner: LockOwner?) throws -> [WrittenDocument] {
        let inTransaction = owner != nil
        let owner = owner ?? .youngest()
        defer { store.transactionLocks.release(owner.id) }
        try store.transactionLocks.lock(TransactionLocks.keys(writing: writes.map(\.path.description)), for: owner, committing: true, inStorage: inTransaction)
        return try committing(writes) { try store.backend.commit(writes, expecting: expected, store: store) }
    }

    /// Commits writes made ready ahead (`WriteBatch.prepare`), as `commit` does but without
    /// locks: a bulk writer (`shelf generate`, `export`) would take one per document, and a
    /// transaction that read one of them still fails its commit's check and runs again.
    func commit(_ prepared: PreparedCommit) throws {
        _ = try committing(prepared.writes) { try prepared.commit(store) }
    }

    /// Both commits: refused once the store is terminated; its watchers are shown the writes.
    private func committing(_ writes: [DocumentWrite], _ write: () throws -> [WrittenDocument]) throws -> [WrittenDocument] {
        if store.watchers.isClosed { throw store.terminatedError }
        return try store.watchers.committing(writes, showingPending: store.showsPendingWrites, write)
    }

    /// Applies the writes all together, after checking that each document in `expected` (by
    /// path) is still as it was read (else `.aborted`: the server's own transactions answer
    /// contention so, and clients such as Python's retry only on `ABORTED`).
    func commit(_ writes: [FirestoreWrite], expecting expected: [String: DocumentSnapshot],
                lockedBy owner: LockOwner?) throws -> [FirestoreWriteResult] {
        if let refusal = FirestoreWrite.sameRequestRefusal(writes) { throw refusal }
        var documentWrites: [DocumentWrite] = []
        for write in writes {
            let path: ResourcePath
            do { path = try ResourcePath.parse(write.path, expectDocument: true, rules: store.idRules) } catch { throw publicError(error) }
            documentWrites.append(DocumentWrite(path: path, change: .protocolWrite(write, transformResults: DocumentWrite.TransformResults())))
        }
        do {
            var expectedStored: [ResourcePath: StoredDocument] = [:]
            for (path, snapshot) in expected { expectedStored[try ResourcePath.parse(path, expectDocument: true, rules: store.idRules)] = snapshot.stored }
            let written = try commit(documentWrites, expecting: expectedStored, lockedBy: owner)
            var byPath: [ResourcePath: WrittenDocument] = [:]
            for document in written { byPath[document.path] = document }
            return documentWrites.map { write in
                guard case .protocolWrite(_, let transformed) = write.change else { return FirestoreWriteResult() }
                let document = byPath[write.path]
                return FirestoreWriteResult(transformResults: transformed.current, updateTime: document?.updateTime, changed: document?.changed ?? true)
            }
        } catch let failure as FirestoreWrite.PreconditionFailure {
            throw failure
        } catch let changed as DocumentStoreError {
            guard case .changedSinceRead = changed else { throw changed.firestoreError }
            throw FirestoreErrorCode(.aborted, changed.description)
        } catch {
            throw publicError(error)
        }
    }
}

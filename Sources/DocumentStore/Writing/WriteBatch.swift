import Foundation

/// Writes to several documents that commit together, as Firestore's `WriteBatch`: after a crash
/// at any moment, every document of the batch is new or every one is old, for this process,
/// for other processes and for listeners. At most 500 writes. Bad data is reported by `commit`,
/// with the write that held it, since the builder methods cannot throw (as in Firebase, where
/// they raise).
public final class WriteBatch: @unchecked Sendable {
    static let maxWrites = 500

    public let firestore: Firestore
    private struct State {
        var writes: [DocumentWrite] = []
        var problem: Error?
        var isCommitted = false
        /// Made by `prepare`; stale once a write is added after it.
        var prepared: PreparedCommit?
    }
    private let state = Locked(State())

    init(firestore: Firestore) { self.firestore = firestore }

    /// Adds a write, or remembers why it could not be added.
    @discardableResult
    private func add(_ document: DocumentReference, _ makeWrite: () throws -> DocumentWrite) -> WriteBatch {
        state.withLock { state in
            guard state.problem == nil else { return }
            do {
                if state.isCommitted { throw DocumentStoreError.invalidCall("a write batch cannot be used after commit() has been called") }
                try document.checkBelongs(to: firestore, as: "this batch's")
                state.writes.append(try makeWrite())
            } catch {
                state.problem = error
            }
        }
        return self
    }

    @discardableResult
    public func setData(_ data: [String: Any], forDocument document: DocumentReference) -> WriteBatch {
        add(document) { try .set(data, merge: .none, at: document) }
    }

    @discardableResult
    public func setData(_ data: [String: Any], forDocument document: DocumentReference, merge: Bool) -> WriteBatch {
        add(document) { try .set(data, merge: merge ? .all : .none, at: document) }
    }

    @discardableResult
    public func setData(_ data: [String: Any], forDocument document: DocumentReference, mergeFields: [Any]) -> WriteBatch {
        add(document) { try .set(data, merge: .mergeFields(mergeFields, in: document.path), at: document) }
    }

    /// Ours, for `shelf export`: sets the document with the create and update times it had in
    /// another store, instead of this commit's.
    @discardableResult
    package func setData(_ data: [String: Any], forDocument document: DocumentReference, keepingTimes times: DocumentTimes?) -> WriteBatch {
        add(document) {
            var write = try DocumentWrite.set(data, merge: .none, at: document)
            write.keptTimes = times
            return write
        }
    }

    /// Ours, for `shelf export`: sets the document to the fields `snapshot` has in another
    /// store, references re-pointed at this one, with the times it had there. The stored values
    /// are copied as they are, not turned into `Any` and back (a third of an export's time).
    @discardableResult
    package func setData(copying snapshot: DocumentSnapshot, forDocument document: DocumentReference, keepingTimes times: DocumentTimes?) -> WriteBatch {
        add(document) {
            guard let fields = snapshot.stored.fields else {
                throw DocumentStoreError.invalidCall("\(snapshot.reference.path) has no fields to copy (it is missing or cannot be read)")
            }
            try document.checkValid()
            let store = firestore
            return DocumentWrite(path: document.resourcePath, change: .document(fields.mapValues { $0.rebased(to: store) }), keptTimes: times)
        }
    }

    /// Encodes `value` (throwing its encoding error) and adds the write.
    @discardableResult
    public func setData<T: Encodable>(from value: T, forDocument document: DocumentReference,
                                      encoder: Firestore.Encoder = Firestore.Encoder()) throws -> WriteBatch {
        let fields = try encoder.encodeFields(value, in: document.path)
        return add(document) { try .set(fields, merge: .none, at: document) }
    }

    @discardableResult
    public func setData<T: Encodable>(from value: T, forDocument document: DocumentReference, merge: Bool,
                                      encoder: Firestore.Encoder = Firestore.Encoder()) throws -> WriteBatch {
        let fields = try encoder.encodeFields(value, in: document.path)
        return add(document) { try .set(fields, merge: merge ? .all : .none, at: document) }
    }

    @discardableResult
    public func setData<T: Encodable>(from value: T, forDocument document: DocumentReference, mergeFields: [Any],
                                      encoder: Firestore.Encoder = Firestore.Encoder()) throws -> WriteBatch {
        let fields = try encoder.encodeFields(value, in: document.path)
        return add(document) { try .set(fields, merge: .mergeFields(mergeFields, in: document.path), at: document) }
    }

    @discardableResult
    public func updateData(_ fields: [AnyHashable: Any], forDocument document: DocumentReference) -> WriteBatch {
        add(document) { try .update(fields, at: document) }
    }

    @discardableResult
    public func deleteDocument(_ document: DocumentReference) -> WriteBatch {
        add(document) { try .delete(at: document) }
    }

    // MARK: Committing

    /// Ours, for bulk writers (`shelf generate`, `export`): does now, on this thread, the part of
    /// the commit that depends on nothing stored (on a folder, encoding each file and the
    /// journal), so that a pipeline's writing thread only writes. Committing is the same
    /// either way; a write added after this undoes it (`commitNow` compares the writes).
    package func prepare() {
        guard let writes = state.withLock({ $0.problem == nil && !$0.isCommitted ? $0.writes : nil }),
              !writes.isEmpty, writes.count <= Self.maxWrites,
              let prepared = (firestore.backend as? any PreparingStorage)?.preparedCommit(writes, store: firestore) else { return }
        state.withLock { $0.prepared = prepared }
    }

    /// Ours: commits and throws the error, for callers that must not fail silently.
    public func commitNow() throws {
        let (writes, prepared) = try state.withLock { state throws -> ([DocumentWrite], PreparedCommit?) in
            if let problem = state.problem { throw publicError(problem) }
            if state.isCommitted { throw DocumentStoreError.invalidCall("a write batch can be committed only once").firestoreError }
            state.isCommitted = true
            // Writes are only ever added: the same count is the same writes.
            return (state.writes, state.prepared.flatMap { $0.writes.count == state.writes.count ? $0 : nil })
        }
        guard writes.count <= Self.maxWrites else {
            throw DocumentStoreError.invalidCall("a write batch holds at most \(Self.maxWrites) writes, this one has \(writes.count)").firestoreError
        }
        do {
            if let prepared { try firestore.commit(prepared) } else { try firestore.commit(writes) }
        } catch { throw publicError(error) }
    }

    /// Commits; a failure goes to the store's `writeErrorHandler`, or standard error.
    public func commit() {
        do { try commitNow() } catch { firestore.configuration.reportWriteError(error, path: "a write batch") }
    }

    public func commit(completion: ((Error?) -> Void)?) {
        guard let completion else { return commit() }
        var failure: Error?
        do { try commitNow() } catch { failure = error }
        let callback = Callback(completion)
        let error = Callback(failure)
        firestore.callbackQueue.async { callback.function(error.function) }
    }

    nonisolated(nonsending) public func commit() async throws {
        try await onIOQueue { try self.commitNow() }
    }
}

extension Firestore {
    /// A new batch of writes on this store.
    @discardableResult
    public func batch() -> WriteBatch { WriteBatch(firestore: self) }
}

import Foundation

/// Foundation on Linux has no `NSErrorPointer`; a transaction's block takes this, so Firebase's
/// `errorPointer?.pointee = error` compiles unchanged.
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?

/// Options of `runTransaction`, as Firebase's.
public final class TransactionOptions: @unchecked Sendable {
    /// How many times the block may run before the transaction fails with its last error. At least 1.
    public var maxAttempts: Int = TransactionOptions.defaultMaxAttempts

    /// Firestore's default number of attempts.
    static let defaultMaxAttempts = 5

    public init() {}
}

/// Reads and writes that commit together, as Firestore's server transactions: a read locks its
/// document until the transaction ends (`TransactionLocks`, the store's one table, which
/// `shelf serve` shares; on PostgreSQL also the database's, for other processes), so another
/// transaction that reads it, or a write of it, waits for this one instead of failing it. The
/// commit (atomic, as a batch) still checks that each document read is what was seen, against
/// programs that take no locks (another process writing the folder): else `.failedPrecondition`
/// and the block runs again. All reads come before any write; a document read twice must be
/// the same both times (else `.aborted`); an update of a document read as missing, or deleted
/// earlier in the transaction, fails it with `.invalidArgument`, as Firestore's SDK and server
/// refuse them.
public final class Transaction: @unchecked Sendable {
    let firestore: Firestore
    /// Who holds this attempt's locks; the attempts of one transaction share its age.
    let owner: LockOwner
    private enum WriteKind { case set, update, delete }
    private struct State {
        var reads: [ResourcePath: StoredDocument] = [:]
        var writes: [DocumentWrite] = []
        /// What the transaction last did to each document it wrote.
        var lastWrite: [ResourcePath: WriteKind] = [:]
        var problem: Error?

        /// Why Firestore refuses an update of `path` here: the document was deleted earlier in
        /// the transaction, or read as missing and not written since.
        func updateRefusal(of path: ResourcePath, named name: String) -> DocumentStoreError? {
            switch lastWrite[path] {
            case .delete?:
                return .invalidCall("document \(name) was deleted earlier in this transaction and cannot be updated; set its data instead")
            case nil where reads[path] == .missing:
                return .invalidCall("document \(name) does not exist (this transaction read it as missing) and cannot be updated; set its data instead")
            default:
                return nil
            }
        }
    }
    private let state = Locked(State())

    init(firestore: Firestore, owner: LockOwner) {
        self.firestore = firestore
        self.owner = owner
    }

    /// Reads a document, once it holds the document's lock (waiting for a transaction that
    /// holds it), recording what was seen. Reading after a write is an error, as in Firestore.
    @discardableResult
    public func getDocument(_ document: DocumentReference) throws -> DocumentSnapshot {
        do {
            try document.checkValid()
            try document.checkBelongs(to: firestore, as: "this transaction's")
            if state.withLock({ !$0.writes.isEmpty }) {
                throw DocumentStoreError.invalidCall("a transaction must do all its reads before its writes; \(document.path) was read after a write")
            }
            let path = document.resourcePath
            try firestore.transactionLocks.lock([(.document(path.description), .exclusive)], for: owner)
            let stored = try firestore.backend.document(at: path, store: firestore)
            try state.withLock { state in
                if let seen = state.reads[path], seen != stored { throw DocumentStoreError.changedBetweenReads(path: document.path) }
                state.reads[path] = stored
            }
            return DocumentSnapshot(reference: document, stored: stored)
        } catch {
            throw publicError(error)
        }
    }

    @discardableResult
    private func add(_ document: DocumentReference, _ kind: WriteKind, _ makeWrite: () throws -> DocumentWrite) -> Transaction {
        let write: Result<DocumentWrite, Error> = Result {
            try document.checkBelongs(to: firestore, as: "this transaction's")
            return try makeWrite()
        }
        let path = document.resourcePath
        state.withLock { state in
            let refusal = kind == .update ? state.updateRefusal(of: path, named: document.path) : nil
            switch (write, refusal) {
            case (.success(let write), nil): state.writes.append(write)
            case (.failure(let error), _): if state.problem == nil { state.problem = error }
            case (.success, let refusal?): if state.problem == nil { state.problem = refusal }
            }
            state.lastWrite[path] = kind
        }
        return self
    }

    @discardableResult
    public func setData(_ data: [String: Any], forDocument document: DocumentReference) -> Transaction {
        add(document, .set) { try .set(data, merge: .none, at: document) }
    }

    @discardableResult
    public func setData(_ data: [String: Any], forDocument document: DocumentReference, merge: Bool) -> Transaction {
        add(document, .set) { try .set(data, merge: merge ? .all : .none, at: document) }
    }

    @discardableResult
    public func setData(_ data: [String: Any], forDocument document: DocumentReference, mergeFields: [Any]) -> Transaction {
        add(document, .set) { try .set(data, merge: .mergeFields(mergeFields, in: document.path), at: document) }
    }

    @discardableResult
    public func setData<T: Encodable>(from value: T, forDocument document: DocumentReference,
                                      encoder: Firestore.Encoder = Firestore.Encoder()) throws -> Transaction {
        let fields = try encoder.encodeFields(value, in: document.path)
        return add(document, .set) { try .set(fields, merge: .none, at: document) }
    }

    @discardableResult
    public func setData<T: Encodable>(from value: T, forDocument document: DocumentReference, merge: Bool,
                                      encoder: Firestore.Encoder = Firestore.Encoder()) throws -> Transaction {
        let fields = try encoder.encodeFields(value, in: document.path)
        return add(document, .set) { try .set(fields, merge: merge ? .all : .none, at: document) }
    }

    @discardableResult
    public func setData<T: Encodable>(from value: T, forDocument document: DocumentReference, mergeFields: [Any],
                                      encoder: Firestore.Encoder = Firestore.Encoder()) throws -> Transaction {
        let fields = try encoder.encodeFields(value, in: document.path)
        return add(document, .set) { try .set(fields, merge: .mergeFields(mergeFields, in: document.path), at: document) }
    }

    @discardableResult
    public func updateData(_ fields: [AnyHashable: Any], forDocument document: DocumentReference) -> Transaction {
        add(document, .update) { try .update(fields, at: document) }
    }

    @discardableResult
    public func deleteDocument(_ document: DocumentReference) -> Transaction {
        add(document, .delete) { try .delete(at: document) }
    }

    /// Commits if every document read is unchanged; `.failedPrecondition` if one changed. Its
    /// locks go then.
    func commit() throws {
        let (reads, writes, problem) = state.withLock { ($0.reads, $0.writes, $0.problem) }
        if let problem { throw publicError(problem) }
        guard writes.count <= WriteBatch.maxWrites else {
            throw DocumentStoreError.invalidCall("a transaction holds at most \(WriteBatch.maxWrites) writes, this one has \(writes.count)").firestoreError
        }
        let started = ContinuousClock.now
        do { try firestore.commit(writes, expecting: reads, lockedBy: owner) } catch { throw publicError(error) }
        TransactionBackoff.record(commit: ContinuousClock.now - started)
    }
}

extension Firestore {
    /// Runs `updateBlock` and commits its writes atomically if nothing it read has changed;
    /// otherwise runs it again, up to `options.maxAttempts` times, then fails with the last
    /// error (`.failedPrecondition` for a document changed since read). A block that sets the
    /// error pointer writes nothing; its own error ends the transaction, one of Firestore's runs it
    /// again as the SDK does. The block runs on a background queue; `completion` on the callback queue.
    public func runTransaction(with options: TransactionOptions?,
                               block updateBlock: @escaping (Transaction, NSErrorPointer) -> Any?,
                               completion: @escaping (Any?, Error?) -> Void) {
        TransactionRunner(store: self, options: options).start(updateBlock, completion: completion)
    }

    public func runTransaction(_ updateBlock: @escaping (Transaction, NSErrorPointer) -> Any?,
                               completion: @escaping (Any?, Error?) -> Void) {
        runTransaction(with: nil, block: updateBlock, completion: completion)
    }

    @discardableResult
    nonisolated(nonsending) public func runTransaction(with options: TransactionOptions?,
                                                       block updateBlock: @escaping (Transaction, NSErrorPointer) -> Any?) async throws -> Any? {
        try await TransactionRunner(store: self, options: options).run(updateBlock)
    }

    @discardableResult
    nonisolated(nonsending) public func runTransaction(_ updateBlock: @escaping (Transaction, NSErrorPointer) -> Any?) async throws -> Any? {
        try await runTransaction(with: nil, block: updateBlock)
    }

    /// Ours: `runTransaction` on the calling thread, throwing what `body` throws or why the
    /// commit failed, for callers that must know the outcome before they go on (Shelf's undo).
    /// `body` runs again when a document it read changed before the commit, as `runTransaction`'s block.
    public func runTransactionNow<T>(_ body: (Transaction) throws -> T) throws -> T {
        try TransactionRunner(store: self, options: nil).runNow(body)
    }
}

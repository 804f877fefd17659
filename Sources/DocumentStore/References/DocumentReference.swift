import Foundation

/// A document's place in the store; the document itself may or may not exist.
public final class DocumentReference: @unchecked Sendable, Hashable, CustomStringConvertible {
    public let firestore: Firestore
    package let resourcePath: ResourcePath
    /// Why the path given for this reference was refused; every operation reports it.
    let invalid: Error?

    package init(firestore: Firestore, path: ResourcePath, invalid: Error? = nil) {
        self.firestore = firestore
        self.resourcePath = path
        self.invalid = invalid
    }

    public var documentID: String { resourcePath.last }
    public var path: String { resourcePath.description }
    public var parent: CollectionReference { CollectionReference(firestore: firestore, path: resourcePath.parent, invalid: invalid) }
    public var description: String { path }

    /// A subcollection of this document.
    @discardableResult
    public func collection(_ collectionPath: String) -> CollectionReference {
        do {
            if collectionPath.utf8.contains(UInt8(ascii: "/")) {
                return CollectionReference(firestore: firestore, path: try ResourcePath.parse(path + "/" + collectionPath, expectDocument: false, rules: firestore.idRules),
                                           invalid: invalid)
            }
            try ResourcePath.validate(id: collectionPath, in: path + "/" + collectionPath, rules: firestore.idRules)
            return CollectionReference(firestore: firestore, path: resourcePath.appending(collectionPath), invalid: invalid)
        } catch {
            return CollectionReference(firestore: firestore, path: resourcePath.appending(collectionPath), invalid: invalid ?? error)
        }
    }

    /// The subcollections of this document: the folders in its folder.
    public func listCollections() throws -> [CollectionReference] {
        do {
            try checkValid()
            return try firestore.backend.collectionIDs(under: resourcePath).map { collection($0) }
        } catch {
            throw publicError(error)
        }
    }

    public static func == (a: DocumentReference, b: DocumentReference) -> Bool {
        a.firestore === b.firestore && a.resourcePath == b.resourcePath
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(resourcePath) }

    /// A batch or a transaction (`owner`, as its message names it) writes only documents of
    /// its own store.
    func checkBelongs(to store: Firestore, as owner: String) throws(DocumentStoreError) {
        guard firestore.backend === store.backend || firestore.backend.description == store.backend.description else {
            throw .invalidCall("document \(path) belongs to the store at \(firestore.backend.description), not to \(owner) store at \(store.backend.description)")
        }
    }

    /// Throws why the path given for this reference was refused.
    func checkValid() throws(DocumentStoreError) {
        if let invalid = invalid as? DocumentStoreError { throw invalid }
    }

    // MARK: Reading

    func readSnapshot() throws -> DocumentSnapshot {
        do {
            try checkValid()
            return DocumentSnapshot(reference: self, stored: try firestore.backend.document(at: resourcePath, store: firestore))
        } catch {
            throw publicError(error)
        }
    }

    /// Reads the document; the snapshot's `exists` says whether it is there. `source` is
    /// accepted for Firebase's sake: the files are both the server and the cache.
    public func getDocument(source: FirestoreSource = .default, completion: @escaping (DocumentSnapshot?, Error?) -> Void) {
        readInBackground(answeringOn: firestore.callbackQueue, { try self.readSnapshot() }) { result in
            completion(try? result.get(), result.failure)
        }
    }

    /// Reads and decodes the document. A missing document fails with `DecodingError.valueNotFound`,
    /// unless `T` is optional, which gives nil. It decodes on the callback queue, as Firebase's,
    /// so `T` need not be `Sendable`.
    public func getDocument<T: Decodable>(as type: T.Type, with serverTimestampBehavior: ServerTimestampBehavior = .none,
                                          decoder: Firestore.Decoder = Firestore.Decoder(), source: FirestoreSource = .default,
                                          completion: @escaping (Result<T, Error>) -> Void) {
        getDocument(source: source) { snapshot, error in
            guard let snapshot else { return completion(.failure(error ?? FirestoreErrorCode(.unknown, "no document and no error"))) }
            completion(Result { try snapshot.data(as: T.self, with: serverTimestampBehavior, decoder: decoder) })
        }
    }

    /// Ours: `getDocument` on the calling thread, throwing its error, for callers that must
    /// know the document before they go on (Shelf's undo reads what it is about to replace).
    public func readDocument() throws -> DocumentSnapshot {
        try readSnapshot()
    }

    @discardableResult
    nonisolated(nonsending) public func getDocument(source: FirestoreSource = .default) async throws -> DocumentSnapshot {
        try await onIOQueue(cancellable: true) { try self.readSnapshot() }
    }

    /// Reads on a background thread and decodes in the caller's context, as Firebase's, so a
    /// generic `T: Decodable` compiles in Swift 6 language mode.
    nonisolated(nonsending) public func getDocument<T: Decodable>(as type: T.Type, with serverTimestampBehavior: ServerTimestampBehavior = .none,
                                                                  decoder: Firestore.Decoder = Firestore.Decoder(),
                                                                  source: FirestoreSource = .default) async throws -> T {
        try await getDocument(source: source).data(as: T.self, with: serverTimestampBehavior, decoder: decoder)
    }

    // MARK: Listening

    /// Calls `listener` at once with the document, then each time it changes on disk.
    @discardableResult
    public func addSnapshotListener(_ listener: @escaping (DocumentSnapshot?, Error?) -> Void) -> ListenerRegistration {
        addSnapshotListener(includingMetadataChanges: false, listener)
    }

    /// `includingMetadataChanges`: also when only `hasPendingWrites` changed.
    func addSnapshotListener(includingMetadataChanges: Bool, _ listener: @escaping (DocumentSnapshot?, Error?) -> Void) -> ListenerRegistration {
        let subscription = DocumentSubscription(reference: self, includesMetadataChanges: includingMetadataChanges, listener: listener)
        if let invalid {
            subscription.deliver(error: publicError(invalid))
            return subscription
        }
        firestore.watchers.subscribe(subscription, to: .document(resourcePath))
        return subscription
    }
}

/// Runs a blocking read on a global queue and hands its result to `completion` on `queue`,
/// as Firestore's completion handlers run on the callback queue.
func readInBackground<T: Sendable>(answeringOn queue: DispatchQueue, _ work: @escaping @Sendable () throws -> T,
                                   completion: @escaping (Result<T, Error>) -> Void) {
    let callback = Callback(completion)
    DispatchQueue.global().async {
        let result = Result { try work() }
        queue.async { callback.function(result) }
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// Runs blocking file I/O off the caller's thread (and off Swift's cooperative pool). A read
/// (`cancellable`) is given up on when the task is cancelled (`ReadCancellation`); a write is
/// not, as Firestore's are not once sent.
func onIOQueue<T: Sendable>(cancellable: Bool = false, _ work: @escaping @Sendable () throws -> T) async throws -> T {
    let cancellation = cancellable ? ReadCancellation() : nil
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try cancellation?.reading(work) ?? work() }) }
        }
    } onCancel: {
        cancellation?.cancel()
    }
}

import Foundation

/// A document's place in the store; the document itself may or may not exist.
public final class DocumentReference: @unchecked Sendable, Hashable, CustomStringConvertible {
    public let firestore: Firestore
    let resourcePath: ResourcePath
    /// Why the path given for this reference was refused; every operation reports it.
    let invalid: Error?

    init(firestore: Firestore, path: ResourcePath, invalid: Error? = nil) {
        self.firestore = firestore
        self.resourcePath = path
        self.invalid = invalid
    }

    public var documentID: String { resourcePath.last }
    public var path: String { resourcePath.description }
    public var parent: CollectionReference { CollectionReference(firestore: firestore, path: resourcePath.parent, invalid: invalid) }
    public var description: String { path }

    /// A subcollection of this document.
    public func collection(_ collectionID: String) -> CollectionReference {
        do {
            try ResourcePath.validate(id: collectionID, in: path + "/" + collectionID)
            return CollectionReference(firestore: firestore, path: resourcePath.appending(collectionID), invalid: invalid)
        } catch {
            return CollectionReference(firestore: firestore, path: resourcePath.appending(collectionID), invalid: error)
        }
    }

    /// The subcollections of this document: the folders in its folder.
    public func listCollections() throws -> [CollectionReference] {
        if let invalid { throw invalid }
        return try firestore.files.subfolderIDs(resourcePath.segments).map { collection($0) }
    }

    public static func == (a: DocumentReference, b: DocumentReference) -> Bool {
        a.firestore === b.firestore && a.resourcePath == b.resourcePath
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(resourcePath) }

    // MARK: Reading

    func readSnapshot() throws -> DocumentSnapshot {
        if let invalid { throw invalid }
        return DocumentSnapshot(reference: self, stored: try firestore.files.document(at: resourcePath))
    }

    /// Reads the document; the snapshot's `exists` says whether it is there.
    public func getDocument(completion: @escaping (DocumentSnapshot?, Error?) -> Void) {
        readInBackground(answeringOn: firestore.settings.dispatchQueue, { try self.readSnapshot() }) { result in
            completion(try? result.get(), result.failure)
        }
    }

    /// Reads and decodes the document. A missing document fails with `DecodingError.valueNotFound`,
    /// unless `T` is optional, which gives nil.
    public func getDocument<T: Decodable & SendableMetatype>(as type: T.Type, decoder: Firestore.Decoder = Firestore.Decoder(),
                                          completion: @escaping (Result<T, Error>) -> Void) {
        readInBackground(answeringOn: firestore.settings.dispatchQueue,
                         { Callback(try self.readSnapshot().data(as: T.self, decoder: decoder)) }) { result in
            completion(result.map(\.function))
        }
    }

    public func getDocument() async throws -> DocumentSnapshot {
        try await onIOQueue { try self.readSnapshot() }
    }

    public func getDocument<T: Decodable & SendableMetatype>(as type: T.Type, decoder: Firestore.Decoder = Firestore.Decoder()) async throws -> T {
        return try await onIOQueue { Callback(try self.readSnapshot().data(as: T.self, decoder: decoder)) }.function
    }

    // MARK: Writing (on disk when the call returns)

    /// The one path every write takes: validation, the locked read-modify-write, and waking
    /// listeners.
    func write(_ transform: (StoredDocument, FieldConversion) throws -> [String: JSONValue]?) throws {
        if let invalid { throw invalid }
        let conversion = FieldConversion(documentPath: path, writeTime: Timestamp())
        try firestore.files.update(resourcePath) { current in try transform(current, conversion) }
        firestore.didWrite(resourcePath)
    }

    /// Refuses to merge into a file that is not a JSON object: that would lose what is in it.
    private func existingFields(_ current: StoredDocument) throws -> [String: JSONValue]? {
        if case .unreadable(let reason) = current {
            throw DocumentStoreError.unreadableDocument(path: path, reason: reason + "; fix the file or replace the whole document")
        }
        return current.fields
    }

    /// Replaces the document with `data`, or with `merge: true` merges `data` into it (maps
    /// deeply; fields not named are kept).
    public func setData(_ data: [String: Any], merge: Bool = false) throws {
        try write { current, conversion in
            try conversion.set(data, over: merge ? try existingFields(current) : nil, merge: merge)
        }
    }

    public func setData(_ data: [String: Any], merge: Bool = false, completion: @escaping (Error?) -> Void) {
        report(completion) { try setData(data, merge: merge) }
    }

    /// Encodes `value` and writes it. With `merge: true` the fields the model does not know are kept.
    public func setData<T: Encodable>(from value: T, merge: Bool = false, encoder: Firestore.Encoder = Firestore.Encoder()) throws {
        try write { current, conversion in
            let fields = try encoder.encodeFields(value, documentPath: path, writeTime: conversion.writeTime)
            guard merge else { return fields }
            return try conversion.set(fields, over: try existingFields(current), merge: true)
        }
    }

    public func setData<T: Encodable>(from value: T, merge: Bool = false, encoder: Firestore.Encoder = Firestore.Encoder(),
                                      completion: @escaping (Error?) -> Void) throws {
        report(completion) { try setData(from: value, merge: merge, encoder: encoder) }
    }

    /// Sets the fields named by dotted paths ("cover.small"); the document must exist.
    public func updateData(_ fields: [AnyHashable: Any]) throws {
        var named: [String: Any] = [:]
        for (key, value) in fields {
            guard let name = key as? String else {
                throw DocumentStoreError.invalidValue(path: path, field: "\(key)", reason: "a field path must be a String")
            }
            named[name] = value
        }
        try write { current, conversion in
            guard let existing = try existingFields(current) else { throw DocumentStoreError.notFound(path: path) }
            return try conversion.update(named, in: existing)
        }
    }

    public func updateData(_ fields: [AnyHashable: Any], completion: @escaping (Error?) -> Void) {
        report(completion) { try updateData(fields) }
    }

    /// Deletes the document (its subcollections stay, as in Firestore). Deleting a missing document succeeds.
    public func delete() throws {
        try write { _, _ in nil }
    }

    public func delete(completion: @escaping (Error?) -> Void) {
        report(completion) { try delete() }
    }

    /// Runs a write now and hands its outcome to `completion` on the callback queue.
    private func report(_ completion: @escaping (Error?) -> Void, _ body: () throws -> Void) {
        let error: Error?
        do { try body(); error = nil } catch let caught { error = caught }
        let callback = Callback(completion)
        firestore.settings.dispatchQueue.async { callback.function(error) }
    }

    // MARK: Listening

    /// Calls `listener` at once with the document, then each time it changes on disk.
    public func addSnapshotListener(_ listener: @escaping (DocumentSnapshot?, Error?) -> Void) -> ListenerRegistration {
        let subscription = DocumentSubscription(reference: self, listener: listener)
        if let invalid {
            subscription.deliver(error: invalid)
            return subscription
        }
        firestore.subscribe(subscription, to: .document(resourcePath)) {
            DocumentWatcher(firestore: firestore, reference: self)
        }
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

/// Runs blocking file I/O off the caller's thread (and off Swift's cooperative pool).
func onIOQueue<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
    }
}

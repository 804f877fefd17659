import Foundation

/// Writes, in the three forms Firebase has: plain (the outcome goes to the store's
/// `writeErrorHandler`, or standard error), with a completion, and `async throws`. Every write
/// is on disk, durably, when it has succeeded.
extension DocumentReference {
    /// Runs one write as a commit of its own; the error is the one callers see.
    func run(_ makeWrite: () throws -> DocumentWrite) throws {
        do {
            try firestore.commit([try makeWrite()])
        } catch {
            throw publicError(error)
        }
    }

    /// The plain form: never throws; a failure is reported to the store's handler.
    func runReporting(_ makeWrite: () throws -> DocumentWrite) {
        do { try run(makeWrite) } catch { firestore.configuration.reportWriteError(error, path: path) }
    }

    /// The completion form: the outcome goes to `completion` on the callback queue.
    func runReporting(_ completion: ((Error?) -> Void)?, _ makeWrite: () throws -> DocumentWrite) {
        guard let completion else { return runReporting(makeWrite) }
        var failure: Error?
        do { try run(makeWrite) } catch { failure = error }
        let callback = Callback(completion)
        let error = Callback(failure)
        firestore.callbackQueue.async { callback.function(error.function) }
    }

    /// The async form: the write runs off the caller's thread.
    func runAsync(_ makeWrite: @escaping () throws -> DocumentWrite) async throws {
        let box = Callback(makeWrite)
        try await onIOQueue { try self.run(box.function) }
    }

    // MARK: setData

    /// Replaces the document with `data` (creating it if needed).
    public func setData(_ documentData: [String: Any]) {
        runReporting { try .set(documentData, merge: .none, at: self) }
    }

    /// With `merge: true` merges `data` into the document: maps deeply, fields not named are kept.
    public func setData(_ documentData: [String: Any], merge: Bool) {
        runReporting { try .set(documentData, merge: merge ? .all : .none, at: self) }
    }

    /// Writes only the fields named (dotted strings or `FieldPath`s), taking their values from `data`.
    public func setData(_ documentData: [String: Any], mergeFields: [Any]) {
        runReporting { try .set(documentData, merge: .mergeFields(mergeFields, in: path), at: self) }
    }

    public func setData(_ documentData: [String: Any], completion: ((Error?) -> Void)?) {
        runReporting(completion) { try .set(documentData, merge: .none, at: self) }
    }

    public func setData(_ documentData: [String: Any], merge: Bool, completion: ((Error?) -> Void)?) {
        runReporting(completion) { try .set(documentData, merge: merge ? .all : .none, at: self) }
    }

    public func setData(_ documentData: [String: Any], mergeFields: [Any], completion: ((Error?) -> Void)?) {
        runReporting(completion) { try .set(documentData, merge: .mergeFields(mergeFields, in: path), at: self) }
    }

    nonisolated(nonsending) public func setData(_ documentData: [String: Any]) async throws {
        let data = Callback(documentData)
        try await runAsync { try .set(data.function, merge: .none, at: self) }
    }

    nonisolated(nonsending) public func setData(_ documentData: [String: Any], merge: Bool) async throws {
        let data = Callback(documentData)
        try await runAsync { try .set(data.function, merge: merge ? .all : .none, at: self) }
    }

    nonisolated(nonsending) public func setData(_ documentData: [String: Any], mergeFields: [Any]) async throws {
        let data = Callback((documentData, mergeFields))
        try await runAsync { try .set(data.function.0, merge: .mergeFields(data.function.1, in: self.path), at: self) }
    }

    // MARK: setData(from:)

    /// Encodes `value` and replaces the document with it. Encoding errors are thrown; the
    /// write's own outcome goes to `completion`, or to the store's handler.
    public func setData<T: Encodable>(from value: T, encoder: Firestore.Encoder = Firestore.Encoder(),
                                      completion: ((Error?) -> Void)? = nil) throws {
        let fields = try encoder.encodeFields(value, in: path)
        runReporting(completion) { try .set(fields, merge: .none, at: self) }
    }

    /// With `merge: true` the fields the model does not know are kept.
    public func setData<T: Encodable>(from value: T, merge: Bool, encoder: Firestore.Encoder = Firestore.Encoder(),
                                      completion: ((Error?) -> Void)? = nil) throws {
        let fields = try encoder.encodeFields(value, in: path)
        runReporting(completion) { try .set(fields, merge: merge ? .all : .none, at: self) }
    }

    public func setData<T: Encodable>(from value: T, mergeFields: [Any], encoder: Firestore.Encoder = Firestore.Encoder(),
                                      completion: ((Error?) -> Void)? = nil) throws {
        let fields = try encoder.encodeFields(value, in: path)
        runReporting(completion) { try .set(fields, merge: .mergeFields(mergeFields, in: path), at: self) }
    }

    // MARK: Ours: writes that throw

    /// `setData(from:merge:)` that throws the write's error as well as the encoding's, for
    /// callers that must not fail silently (Shelf's own view models).
    public func write<T: Encodable>(_ value: T, merge: Bool = false, encoder: Firestore.Encoder = Firestore.Encoder()) throws {
        let fields = try encoder.encodeFields(value, in: path)
        try run { try .set(fields, merge: merge ? .all : .none, at: self) }
    }

    /// `setData(_:merge:)` that throws its error.
    public func write(_ documentData: [String: Any], merge: Bool = false) throws {
        try run { try .set(documentData, merge: merge ? .all : .none, at: self) }
    }

    // MARK: updateData and delete

    /// Sets the fields named by dotted paths ("cover.small") or `FieldPath`s; the document must
    /// exist (else `.notFound`).
    public func updateData(_ fields: [AnyHashable: Any]) {
        runReporting { try .update(fields, at: self) }
    }

    public func updateData(_ fields: [AnyHashable: Any], completion: ((Error?) -> Void)?) {
        runReporting(completion) { try .update(fields, at: self) }
    }

    nonisolated(nonsending) public func updateData(_ fields: [AnyHashable: Any]) async throws {
        let data = Callback(fields)
        try await runAsync { try .update(data.function, at: self) }
    }

    /// Ours: `updateData` that throws its error.
    public func update(_ fields: [AnyHashable: Any]) throws {
        try run { try .update(fields, at: self) }
    }

    /// Deletes the document (its subcollections stay, as in Firestore). Deleting a missing
    /// document succeeds.
    public func delete() {
        runReporting { try .delete(at: self) }
    }

    public func delete(completion: ((Error?) -> Void)?) {
        runReporting(completion) { try .delete(at: self) }
    }

    nonisolated(nonsending) public func delete() async throws {
        try await runAsync { try .delete(at: self) }
    }

    /// Ours: `delete` that throws its error.
    public func deleteDocument() throws {
        try run { try .delete(at: self) }
    }
}

extension FieldConversion.Merge {
    static func mergeFields(_ fields: [Any], in document: String) throws(DocumentStoreError) -> FieldConversion.Merge {
        try DocumentWrite.mergeFields(fields, in: document)
    }
}

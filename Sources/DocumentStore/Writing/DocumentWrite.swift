/// One document's part of a commit, as a value: what the caller asked (a set, an update, a
/// delete, a write of Firestore's protocol, or a whole document brought from elsewhere), applied
/// to what is stored only when the commit runs (`apply`), by whichever backend holds the
/// document. Being a value, a backend can also look at it: a client of a Firestore server asks
/// the server for the time of the fields a `serverTimestamp()` stamps (`serverTimestampFields`).
package struct DocumentWrite: Sendable {
    package enum Change: Sendable {
        /// `setData`: the fields replace the document, or merge into it.
        case set([String: WriteValue], merge: FieldConversion.Merge)
        /// `updateData`: each field path's value replaces what is there; the document must exist.
        case update([(FieldPath, WriteValue)])
        case delete
        /// A write of Firestore's protocol (`shelf serve`), with where the values its transforms
        /// left go (the server answers with them).
        case protocolWrite(FirestoreWrite, transformResults: TransformResults)
        /// A whole document as it was elsewhere (a bundle): its fields, checked, replace it.
        case document(Fields)
    }

    /// Where a protocol write's transforms leave their values, as the commit applies it.
    package final class TransformResults: Sendable {
        private let values = Locked<[FirestoreValue]>([])
        package init() {}
        package var current: [FirestoreValue] { values.withLock { $0 } }
        fileprivate func keep(_ results: [FirestoreValue]) { values.withLock { $0 = results } }
    }

    package let path: ResourcePath
    package let change: Change
    /// The create and update times to give the document instead of the commit's (`shelf
    /// export` keeps them); nil for every other write.
    package var keptTimes: DocumentTimes? = nil

    package init(path: ResourcePath, change: Change, keptTimes: DocumentTimes? = nil) {
        self.path = path
        self.change = change
        self.keptTimes = keptTimes
    }

    /// False when the write ignores what is stored (a set without merge, a delete), so the
    /// commit need not read the file: a batch of 500 new documents reads none.
    package var readsCurrent: Bool {
        switch change {
        case .set(_, let merge): return !merge.replacesAll
        case .update: return true
        case .delete, .document: return false
        case .protocolWrite(let write, _): return write.readsCurrent
        }
    }

    /// False for a document brought from elsewhere (a bundle), which Firebase's SDK shows as
    /// the server's data, never as a pending write of its own.
    package var isLocalWrite: Bool {
        if case .document = change { return false }
        return true
    }

    /// True when the document must exist before this write (`updateData`, or a protocol
    /// write's `exists: true`): Firestore's `current_document { exists: true }`, which
    /// Firebase's SDKs send with every update.
    package var requiresExistingDocument: Bool {
        switch change {
        case .update: return true
        case .protocolWrite(let write, _): return write.precondition == .exists(true)
        case .set, .delete, .document: return false
        }
    }

    /// The documents of a commit that must exist before it: those whose first write requires
    /// it (a later update of a document the commit sets first needs nothing stored).
    package static func documentsThatMustExist(_ writes: [DocumentWrite]) -> Set<ResourcePath> {
        var seen = Set<ResourcePath>(), mustExist = Set<ResourcePath>()
        for write in writes {
            guard seen.insert(write.path).inserted else { continue }
            if write.requiresExistingDocument { mustExist.insert(write.path) }
        }
        return mustExist
    }

    /// A precondition: the stored document was last updated at this time (Firestore's
    /// `update_time`); the backend checks it with the document's times while it holds it.
    package var lastUpdated: Timestamp? {
        guard case .protocolWrite(let write, _) = change else { return nil }
        return write.requiredUpdateTime
    }

    /// The document's new fields given what is stored (or what an earlier write of the same
    /// commit made of it) and the commit's time (for `serverTimestamp()`); nil deletes it.
    package func apply(to current: StoredDocument, writeTime: Timestamp, store: Firestore) throws -> [String: FirestoreValue]? {
        let document = path.description
        let conversion = FieldConversion(documentPath: document, writeTime: writeTime)
        switch change {
        case .set(let fields, .none):
            return try conversion.set(fields, over: nil, merge: .none)
        case .set(let fields, let merge):
            return try conversion.set(fields, over: try Self.existingFields(current, path: document), merge: merge)
        case .update(let fields):
            guard let existing = try Self.existingFields(current, path: document) else { throw DocumentStoreError.notFound(path: document) }
            return try conversion.update(fields, in: existing)
        case .delete:
            return nil
        case .protocolWrite(let write, let results):
            let (fields, transformed) = try write.apply(to: current, writeTime: writeTime)
            results.keep(transformed)
            return fields
        case .document(let fields):
            return fields.dictionary  // checked by the commit (`CommitPlan`), as every write's fields
        }
    }

    /// Refuses to change part of a file that is not a JSON object: that would lose what is in it.
    static func existingFields(_ current: StoredDocument, path: String) throws(DocumentStoreError) -> [String: FirestoreValue]? {
        if case .unreadable(let reason) = current {
            throw .unreadableDocument(path: path, reason: reason + "; fix the file or replace the whole document")
        }
        return current.fields?.dictionary
    }
}

extension FieldConversion.Merge {
    /// A set without merge: the new fields replace the document whatever it held.
    var replacesAll: Bool {
        if case .none = self { return true }
        return false
    }
}

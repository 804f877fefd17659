import Foundation

/// One write as Firestore's protocol states it (`google.firestore.v1.Write`): the whole
/// document or only the fields of a mask, or a delete, then field transforms, under a
/// precondition. `shelf serve` turns requests into these; they become `DocumentWrite`s and
/// commit through `Firestore.commit` like the API's own writes, with the same limits.
package struct FirestoreWrite: Sendable {
    package enum Operation: Sendable {
        /// The document's new fields; with a mask only the mask's paths change, and a path of
        /// the mask that `fields` lacks is deleted.
        case update(Fields, mask: [FieldPath]?)
        case delete
        /// Only the transforms, on what is stored.
        case transform
    }

    package enum Precondition: Sendable, Equatable {
        case none
        /// The document must exist (true) or must not (false).
        case exists(Bool)
        /// The document must exist and have been last updated at this time; checked by the
        /// backend while it holds the document, so no write can come in between.
        case updateTime(Timestamp)
    }

    /// Why a precondition failed, for the server to word as Firestore does.
    package enum PreconditionFailure: Error, Equatable {
        case missing(path: String)
        case alreadyExists(path: String)
        /// The document was last updated at `actual` (nil: it does not exist), not `required`.
        case updatedAt(path: String, actual: Timestamp?, required: Timestamp)
    }

    package var path: String
    package var operation: Operation
    /// Applied in order after the operation; each gives a value to `FirestoreWriteResult`.
    package var transforms: [(field: FieldPath, transform: FieldValue)]
    package var precondition: Precondition

    package init(path: String, operation: Operation, transforms: [(field: FieldPath, transform: FieldValue)] = [], precondition: Precondition = .none) {
        self.path = path
        self.operation = operation
        self.transforms = transforms
        self.precondition = precondition
    }
}

/// What one `FirestoreWrite` made: the value each transform left (null for an array
/// transform, as Firestore answers), in the transforms' order,
/// and the document's update time after the commit (nil: deleted), its previous one when the
/// commit left it as it was (`changed` false).
package struct FirestoreWriteResult: Sendable {
    package var transformResults: [FirestoreValue] = []
    package var updateTime: Timestamp?
    package var changed = true
}

extension Firestore {
    /// Applies a request's writes all together (`CommitPath.commit`), for `shelf serve`.
    package func commit(_ writes: [FirestoreWrite], expecting expected: [String: DocumentSnapshot] = [:],
                        lockedBy owner: LockOwner? = nil) throws -> [FirestoreWriteResult] {
        try CommitPath(store: self).commit(writes, expecting: expected, lockedBy: owner)
    }
}

extension FirestoreWrite {
    /// A precondition that the request's own earlier write to the same document settles as
    /// failed (an update after a delete, an insert after a write), or an update time required
    /// other than the document's first write in the request required: refused before anything
    /// is read, in the words of Firestore's backend (Google's emulator, measured: a precondition
    /// on the update time after a write, or on a delete's after a delete, is not judged so).
    static func sameRequestRefusal(_ writes: [FirestoreWrite]) -> FirestoreErrorCode? {
        var first: [String: FirestoreWrite] = [:]
        var last: [String: FirestoreWrite] = [:]
        for write in writes {
            defer {
                last[write.path] = write
                if first[write.path] == nil { first[write.path] = write }
            }
            guard let earlier = last[write.path], let firstWrite = first[write.path] else { continue }
            let settled: Bool
            switch (earlier.deletes, write.precondition) {
            case (true, .exists(true)): settled = true
            case (true, .updateTime): settled = !write.deletes
            case (false, .exists(false)): settled = true
            default: settled = false
            }
            if settled {
                return FirestoreErrorCode(.invalidArgument, "Cannot \(earlier.mutationName) then \(write.mutationName) an entity in the same request.")
            }
            if let required = write.requiredUpdateTime, firstWrite.requiredUpdateTime != required {
                return FirestoreErrorCode(.invalidArgument, "Cannot collapse mutations with different version preconditions (\(firstWrite.versionPrecondition) and \(write.versionPrecondition))")
            }
        }
        return nil
    }

    /// The backend's words for a write's required update time, in its messages.
    private var versionPrecondition: String {
        guard let time = requiredUpdateTime else { return "null" }
        return "VersionPrecondition{exactBaseVersion=\(time.backendVersion), maxBaseVersion=null}"
    }

    private var deletes: Bool {
        if case .delete = operation { return true }
        return false
    }

    /// The backend's name for what the write does: by its precondition, or a delete.
    private var mutationName: String {
        if deletes { return "delete" }
        switch precondition {
        case .none: return "upsert"
        case .exists(true), .updateTime: return "update"
        case .exists(false): return "insert"
        }
    }

    /// A write that sets the whole document and has no precondition ignores what is stored.
    var readsCurrent: Bool {
        if case .update(_, mask: nil) = operation, transforms.isEmpty, precondition == .none { return false }
        if case .delete = operation, precondition == .none { return false }
        return true
    }

    /// The update time an `updateTime` precondition requires.
    var requiredUpdateTime: Timestamp? {
        if case .updateTime(let time) = precondition { return time }
        return nil
    }

    /// The document's fields after the write (nil: deleted), and the transforms' values.
    func apply(to current: StoredDocument, writeTime: Timestamp) throws -> ([String: FirestoreValue]?, [FirestoreValue]) {
        switch (precondition, current) {
        case (.exists(true), .missing): throw PreconditionFailure.missing(path: path)
        case (.exists(false), .fields), (.exists(false), .unreadable): throw PreconditionFailure.alreadyExists(path: path)
        default: break
        }
        let conversion = FieldConversion(documentPath: path, writeTime: writeTime)
        var fields: [String: FirestoreValue]
        switch operation {
        case .delete:
            return (nil, [])
        case .update(let new, mask: nil):
            fields = new.dictionary
        case .update(let new, mask: let mask?):
            fields = try conversion.update(mask.map { ($0, new.value(at: $0.segments).map(WriteValue.value) ?? .sentinel(.delete())) },
                                           in: try DocumentWrite.existingFields(current, path: path) ?? [:])
        case .transform:
            fields = try DocumentWrite.existingFields(current, path: path) ?? [:]
        }
        var transformed: [FirestoreValue] = []
        for (field, transform) in transforms {
            fields = try conversion.update([(field, .sentinel(transform))], in: fields)
            transformed.append(transform.answersResult ? Fields(fields).value(at: field.segments) ?? .null : .null)
        }
        return (fields, transformed)
    }
}

extension Timestamp {
    /// The time as Firestore's backend names a document's version in its messages:
    /// microseconds since 1970.
    package var backendVersion: Int64 { seconds * 1_000_000 + Int64(nanoseconds / 1000) }
}

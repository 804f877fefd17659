import Foundation

/// The writes of Firestore's API, built when the call is made (so bad data fails at the call)
/// and applied to what is stored when the commit runs. A document reference, a batch and a
/// transaction all make their writes here.
extension DocumentWrite {
    static func set(_ data: [String: Any], merge: FieldConversion.Merge, at reference: DocumentReference) throws(DocumentStoreError) -> DocumentWrite {
        try set(WriteValue.fields(data, document: reference.path), merge: merge, at: reference)
    }

    static func set(_ fields: [String: WriteValue], merge: FieldConversion.Merge, at reference: DocumentReference) throws(DocumentStoreError) -> DocumentWrite {
        try reference.checkValid()
        let path = reference.path
        return DocumentWrite(path: reference.resourcePath, readsCurrent: !merge.replacesAll) { current, writeTime in
            let conversion = FieldConversion(documentPath: path, writeTime: writeTime)
            if case .none = merge { return try conversion.set(fields, over: nil, merge: merge) }
            return try conversion.set(fields, over: try existingFields(current, path: path), merge: merge)
        }
    }

    static func update(_ data: [AnyHashable: Any], at reference: DocumentReference) throws(DocumentStoreError) -> DocumentWrite {
        try reference.checkValid()
        let path = reference.path
        var fields: [(FieldPath, WriteValue)] = []
        for (key, value) in data {
            let fieldPath = try FieldPath.from(key.base, document: path)
            fields.append((fieldPath, try WriteValue(any: value, field: fieldPath.description, document: path)))
        }
        return DocumentWrite(path: reference.resourcePath) { current, writeTime in
            guard let existing = try existingFields(current, path: path) else { throw DocumentStoreError.notFound(path: path) }
            return try FieldConversion(documentPath: path, writeTime: writeTime).update(fields, in: existing)
        }
    }

    static func delete(at reference: DocumentReference) throws(DocumentStoreError) -> DocumentWrite {
        try reference.checkValid()
        return DocumentWrite(path: reference.resourcePath, readsCurrent: false) { _, _ in nil }
    }

    static func mergeFields(_ fields: [Any], in document: String) throws(DocumentStoreError) -> FieldConversion.Merge {
        var paths: [FieldPath] = []
        for field in fields { paths.append(try FieldPath.from(field, document: document)) }
        return .fields(paths)
    }

    /// Refuses to merge into a file that is not a JSON object: that would lose what is in it.
    private static func existingFields(_ current: StoredDocument, path: String) throws(DocumentStoreError) -> [String: FirestoreValue]? {
        if case .unreadable(let reason) = current {
            throw .unreadableDocument(path: path, reason: reason + "; fix the file or replace the whole document")
        }
        return current.fields?.dictionary
    }
}

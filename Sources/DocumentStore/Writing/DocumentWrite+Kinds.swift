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
        return DocumentWrite(path: reference.resourcePath, change: .set(fields, merge: merge))
    }

    static func update(_ data: [AnyHashable: Any], at reference: DocumentReference) throws(DocumentStoreError) -> DocumentWrite {
        try reference.checkValid()
        let path = reference.path
        var fields: [(FieldPath, WriteValue)] = []
        for (key, value) in data {
            let fieldPath = try FieldPath.from(key.base, document: path)
            fields.append((fieldPath, try WriteValue(any: value, field: fieldPath.description, document: path)))
        }
        return DocumentWrite(path: reference.resourcePath, change: .update(fields))
    }

    static func delete(at reference: DocumentReference) throws(DocumentStoreError) -> DocumentWrite {
        try reference.checkValid()
        return DocumentWrite(path: reference.resourcePath, change: .delete)
    }

    static func mergeFields(_ fields: [Any], in document: String) throws(DocumentStoreError) -> FieldConversion.Merge {
        var paths: [FieldPath] = []
        for field in fields { paths.append(try FieldPath.from(field, document: document)) }
        return .fields(paths)
    }
}

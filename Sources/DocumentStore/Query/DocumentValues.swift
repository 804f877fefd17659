/// Where the query engine reads a document's values: its fields, and for
/// `FieldPath.documentID()` its reference (Firestore compares document ids as references).
enum DocumentValues {
    static func value(of field: FieldPath, in document: QueryDocumentSnapshot) -> FirestoreValue? {
        if field.isDocumentID { return .reference(document.reference) }
        guard let fields = document.stored.fields else { return nil }
        if field.segments.count == 1 { return fields[field.segments[0]] }
        return fields.value(at: field.segments)
    }
}

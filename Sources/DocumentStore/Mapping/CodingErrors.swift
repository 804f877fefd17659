/// Thrown where Firebase throws it: a Firestore-only type (`DocumentReference`, `@DocumentID`)
/// given to another decoder. `fieldNameConflict` is kept so that code naming it compiles; as in
/// Firebase's SDK since version 10, a field named as the `@DocumentID` property is ignored instead.
public enum FirestoreDecodingError: Error {
    case decodingIsNotSupported(String)
    case fieldNameConflict(String)
}

/// Thrown where Firebase throws it: a Firestore-only type (`DocumentReference`, `FieldValue`,
/// `@DocumentID`) given to another encoder.
public enum FirestoreEncodingError: Error {
    case encodingIsNotSupported(String)
}

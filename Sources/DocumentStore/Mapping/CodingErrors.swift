/// Thrown where Firebase throws it: a Firestore-only type given to another decoder, or a
/// `@DocumentID` property whose name is also a field of the document.
public enum FirestoreDecodingError: Error {
    case decodingIsNotSupported(String)
    case fieldNameConflict(String)
    case `internal`
}

/// Thrown where Firebase throws it: a Firestore-only type (`DocumentReference`, `FieldValue`,
/// `@DocumentID`) given to another encoder.
public enum FirestoreEncodingError: Error {
    case encodingIsNotSupported(String)
}

/// `DocumentReference` and `FieldValue` are Codable so models can hold them; only Firestore's
/// coders can carry them (they pass through as themselves), and other coders get Firebase's error.
extension DocumentReference: Codable {
    public convenience init(from decoder: any Decoder) throws {
        guard let decoder = decoder as? FieldDecoder else {
            throw FirestoreDecodingError.decodingIsNotSupported("DocumentReference values can only be decoded with Firestore.Decoder")
        }
        let reference: DocumentReference = try decoder.decode(DocumentReference.self)
        self.init(firestore: reference.firestore, path: reference.resourcePath, invalid: reference.invalid)
    }

    public func encode(to encoder: any Encoder) throws {
        throw FirestoreEncodingError.encodingIsNotSupported("DocumentReference values can only be encoded with Firestore.Encoder")
    }
}

extension FieldValue: Encodable {
    public func encode(to encoder: any Encoder) throws {
        throw FirestoreEncodingError.encodingIsNotSupported("FieldValue values can only be encoded with Firestore.Encoder")
    }
}

/// Types a `@DocumentID` property can hold.
public protocol DocumentIDWrappable {
    static func wrap(_ documentReference: DocumentReference) throws -> Self
}

extension String: DocumentIDWrappable {
    public static func wrap(_ documentReference: DocumentReference) throws -> String { documentReference.documentID }
}

extension DocumentReference: DocumentIDWrappable {
    public static func wrap(_ documentReference: DocumentReference) throws -> Self { documentReference as! Self }
}

/// What `Firestore.Encoder` skips and `Firestore.Decoder` fills from the document's reference.
protocol DocumentIDProtocol {
    init(reference: DocumentReference?) throws
}

/// Filled with the document's id (or reference) when a document is decoded with
/// `Firestore.Decoder`; left out when encoded with `Firestore.Encoder`, because the id is the
/// document's name, not part of its data. A document field of the same name is ignored, as in
/// Firebase's SDK since version 10. Decoded without a document (`Firestore.Decoder().decode(_:from:)`
/// with no `in:`) it is nil. Other coders cannot handle it (`FirestoreEncodingError` /
/// `FirestoreDecodingError.decodingIsNotSupported`).
@propertyWrapper
public struct DocumentID<Value: DocumentIDWrappable & Codable>: Codable, DocumentIDProtocol {
    public var wrappedValue: Value?

    public init(wrappedValue value: Value?) { wrappedValue = value }

    init(reference: DocumentReference?) throws {
        wrappedValue = try reference.map(Value.wrap)
    }

    public init(from decoder: any Decoder) throws {
        guard let decoder = decoder as? FieldDecoder else {
            throw FirestoreDecodingError.decodingIsNotSupported("DocumentID values can only be decoded with Firestore.Decoder")
        }
        try self.init(reference: decoder.reference)
    }

    public func encode(to encoder: any Encoder) throws {
        throw FirestoreEncodingError.encodingIsNotSupported("DocumentID values can only be encoded with Firestore.Encoder")
    }
}

extension DocumentID: Equatable where Value: Equatable {}
extension DocumentID: Hashable where Value: Hashable {}
extension DocumentID: Sendable where Value: Sendable {}

/// Types a `@DocumentID` property can hold.
public protocol DocumentIDWrappable: Sendable {
    static func wrap(_ reference: DocumentReference) -> Self
}

extension String: DocumentIDWrappable {
    public static func wrap(_ reference: DocumentReference) -> String { reference.documentID }
}

extension DocumentReference: DocumentIDWrappable {
    public static func wrap(_ reference: DocumentReference) -> Self { reference as! Self }
}

/// Filled with the document's id when a document is decoded; never written as a field,
/// because the id is the document's name, not part of its data.
@propertyWrapper
public struct DocumentID<Value: DocumentIDWrappable>: Codable {
    public var wrappedValue: Value?

    public init(wrappedValue value: Value?) { wrappedValue = value }

    public init(from decoder: any Decoder) throws {
        wrappedValue = MappingContext.document.map(Value.wrap)
    }

    public func encode(to encoder: any Encoder) throws {}
}

extension DocumentID: Equatable where Value: Equatable {}
extension DocumentID: Hashable where Value: Hashable {}
extension DocumentID: Sendable where Value: Sendable {}

extension KeyedDecodingContainer {
    /// The id comes from the document being read, whether or not a field of that name exists.
    public func decode<Value>(_ type: DocumentID<Value>.Type, forKey key: Key) throws -> DocumentID<Value> {
        DocumentID(wrappedValue: MappingContext.document.map(Value.wrap))
    }
}

extension KeyedEncodingContainer {
    /// Writes nothing: the id is not a field.
    public mutating func encode<Value>(_ value: DocumentID<Value>, forKey key: Key) throws {}
}

import Foundation

extension Firestore {
    /// Maps `Encodable` values to document data, as Firestore's encoder does: `@DocumentID` is
    /// left out, nil optionals are left out unless `@ExplicitNull`, dates become RFC 3339 strings.
    public struct Encoder: Sendable {
        public init() {}

        public func encode<T: Encodable>(_ value: T) throws -> [String: Any] {
            try encodeFields(value, documentPath: nil, writeTime: Timestamp()).mapValues(FieldConversion.plainValue)
        }

        func encodeFields<T: Encodable>(_ value: T, documentPath: String?, writeTime: Timestamp) throws -> [String: JSONValue] {
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .custom { date, encoder in
                var container = encoder.singleValueContainer()
                try container.encode(Timestamp(date: date).rfc3339)
            }
            let bytes = try MappingContext.$writeTime.withValue(writeTime) { try encoder.encode(value) }
            let json = try JSONParser.parse(bytes)
            guard case .object(let fields) = json else {
                let place = documentPath.map { "document \($0): " } ?? ""
                throw EncodingError.invalidValue(value, .init(
                    codingPath: [], debugDescription: "\(place)a document is a map of fields, but \(T.self) encodes to \(json.described)"))
            }
            return fields
        }
    }
}

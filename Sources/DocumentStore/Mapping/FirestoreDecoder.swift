import Foundation

extension Firestore {
    /// Maps document data to `Decodable` types, as Firestore's decoder does.
    ///
    /// Errors are `DecodingError`s whose context reads well on its own: "document
    /// books/invalid-data, field numberOfPages: expected Int, found the string "twohundredfifty"".
    public struct Decoder: Sendable {
        public init() {}

        /// Decodes `data` (as `DocumentSnapshot.data()` returns it); `reference` fills `@DocumentID`.
        public func decode<T: Decodable>(_ type: T.Type, from data: [String: Any], in reference: DocumentReference? = nil) throws -> T {
            let conversion = FieldConversion(documentPath: reference?.path ?? "", writeTime: Timestamp())
            let fields = try data.mapValues { try conversion.plain($0, field: "") }
            return try decode(type, from: .object(fields), reference: reference)
        }

        func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, reference: DocumentReference?) throws -> T {
            do {
                return try MappingContext.$document.withValue(reference) {
                    try FieldDecoder(value, codingPath: []).decode(T.self)
                }
            } catch let error as DecodingError {
                throw Self.locate(error, in: reference?.path)
            }
        }

        /// Rewrites the error's description to name the document and the field.
        static func locate(_ error: DecodingError, in documentPath: String?) -> DecodingError {
            func context(_ context: DecodingError.Context, extra key: (any CodingKey)? = nil) -> DecodingError.Context {
                let path = context.codingPath + (key.map { [$0] } ?? [])
                let message = context.debugDescription
                if message.hasPrefix("document ") || message.hasPrefix("field ") { return context }
                var place = documentPath.map { "document \($0)" } ?? ""
                if !path.isEmpty { place += (place.isEmpty ? "" : ", ") + "field " + fieldPath(path) }
                return .init(codingPath: context.codingPath,
                             debugDescription: place.isEmpty ? message : place + ": " + message,
                             underlyingError: context.underlyingError)
            }
            switch error {
            case .typeMismatch(let type, let c): return .typeMismatch(type, context(c))
            case .valueNotFound(let type, let c): return .valueNotFound(type, context(c))
            case .keyNotFound(let key, let c): return .keyNotFound(key, context(c, extra: key))
            case .dataCorrupted(let c): return .dataCorrupted(context(c))
            @unknown default: return error
            }
        }

        /// `tags[1].color`
        static func fieldPath(_ path: [any CodingKey]) -> String {
            var text = ""
            for key in path {
                if let index = key.intValue, key is IndexKey { text += "[\(index)]"; continue }
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
            return text
        }
    }
}

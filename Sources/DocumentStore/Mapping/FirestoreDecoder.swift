import Foundation

extension Firestore {
    /// Maps document data to `Decodable` types, as Firebase's `Firestore.Decoder`.
    ///
    /// Errors are `DecodingError`s whose context reads well on its own: "document
    /// books/invalid-data, field numberOfPages: expected Int, found the string "twohundredfifty"".
    /// Ours: plain JSON a person wrote maps too: an RFC 3339 string to `Date` or `Timestamp`, a
    /// map of latitude and longitude to `GeoPoint`, a base64 string to `Data`, a path string to
    /// `DocumentReference`.
    public final class Decoder: @unchecked Sendable {
        public enum DateDecodingStrategy {
            case deferredToDate
            case secondsSince1970
            case millisecondsSince1970
            case iso8601
            case formatted(DateFormatter)
            case custom((_ decoder: any Swift.Decoder) throws -> Date)
            /// A Firestore timestamp (the default), or an RFC 3339 string.
            case timestamp
        }

        public enum DataDecodingStrategy {
            case deferredToData
            case base64
            case custom((_ decoder: any Swift.Decoder) throws -> Data)
            /// Firestore bytes (the default), or a base64 string.
            case blob
        }

        public enum NonConformingFloatDecodingStrategy {
            case `throw`
            case convertFromString(positiveInfinity: String, negativeInfinity: String, nan: String)
        }

        public enum KeyDecodingStrategy {
            case useDefaultKeys
            /// The field `number_of_pages` is read for the key `numberOfPages`.
            case convertFromSnakeCase
            case custom((_ codingPath: [any CodingKey]) -> any CodingKey)
        }

        public var dateDecodingStrategy: DateDecodingStrategy = .timestamp
        public var dataDecodingStrategy: DataDecodingStrategy = .blob
        /// The name an earlier version of this API used.
        @available(*, deprecated, renamed: "dataDecodingStrategy")
        public var dataEncodingStrategy: DataDecodingStrategy {
            get { dataDecodingStrategy }
            set { dataDecodingStrategy = newValue }
        }
        public var nonConformingFloatDecodingStrategy: NonConformingFloatDecodingStrategy = .throw
        public var keyDecodingStrategy: KeyDecodingStrategy = .useDefaultKeys
        public var userInfo: [CodingUserInfoKey: Any] = [:]

        public init() {}

        /// Decodes `data` (as `DocumentSnapshot.data()` returns it); `reference` fills `@DocumentID`.
        public func decode<T: Decodable>(_ type: T.Type, from data: Any, in reference: DocumentReference? = nil) throws -> T {
            let value: FirestoreValue
            do {
                value = try FirestoreValue(any: data, field: "", document: reference?.path ?? "")
            } catch {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: error.description))
            }
            return try decode(type, from: value, reference: reference)
        }

        func decode<T: Decodable>(_ type: T.Type, from value: FirestoreValue, reference: DocumentReference?) throws -> T {
            do {
                return try FieldDecoder(value, codingPath: [], options: self, reference: reference).decode(T.self)
            } catch let error as DecodingError {
                throw Self.locate(error, in: reference?.path)
            }
        }

        /// Rewrites the error's description to name the document and the field.
        static func locate(_ error: DecodingError, in documentPath: String?) -> DecodingError {
            func context(_ context: DecodingError.Context, extra key: (any CodingKey)? = nil) -> DecodingError.Context {
                let message = context.debugDescription
                if message.hasPrefix("document ") || message.hasPrefix("field ") { return context }
                let place = place(documentPath, context.codingPath + (key.map { [$0] } ?? []))
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

        /// "document books/dune, field tags[1].color": what `locate` puts before a sentence.
        private static func place(_ documentPath: String?, _ path: [any CodingKey]) -> String {
            var place = documentPath.map { "document \($0)" } ?? ""
            if !path.isEmpty { place += (place.isEmpty ? "" : ", ") + "field " + fieldPath(path) }
            return place
        }

        /// The sentence of an error `locate` rewrote, without the document and the field it
        /// put before it: a program shows those apart (`fieldPath`).
        package static func reason(of error: DecodingError, in documentPath: String?) -> String {
            let message = error.contextDescription
            let path: [any CodingKey]
            switch error {
            case .keyNotFound(let key, let context): path = context.codingPath + [key]
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context): path = context.codingPath
            @unknown default: path = []
            }
            for place in [place(documentPath, path), place(nil, path)] where !place.isEmpty && message.hasPrefix(place + ": ") {
                return String(message.dropFirst(place.count + 2))
            }
            return message
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

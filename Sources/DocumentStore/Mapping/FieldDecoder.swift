import Foundation

/// The `Swift.Decoder` behind `Firestore.Decoder`, over one stored value. Its errors say what was
/// expected and what was found; `Firestore.Decoder` adds the document path and the field path.
final class FieldDecoder: Decoder {
    let value: FirestoreValue
    let codingPath: [any CodingKey]
    let options: Firestore.Decoder
    /// The document being decoded: `@DocumentID` reads it, and a path string resolves against its store.
    let reference: DocumentReference?
    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    init(_ value: FirestoreValue, codingPath: [any CodingKey], options: Firestore.Decoder, reference: DocumentReference?) {
        self.value = value
        self.codingPath = codingPath
        self.options = options
        self.reference = reference
    }

    func child(_ value: FirestoreValue, _ key: any CodingKey) -> FieldDecoder {
        FieldDecoder(value, codingPath: codingPath + [key], options: options, reference: reference)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .map(let fields) = value else { throw mismatch("a map", [String: Any].self) }
        return KeyedDecodingContainer(KeyedFields<Key>(decoder: self, fields: fields))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw mismatch("an array", [Any].self) }
        return ArrayItems(decoder: self, items: items)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValue(decoder: self) }

    // MARK: Values

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == Bool.self {
            guard case .boolean(let b) = value else { throw mismatch("Bool", T.self) }
            return b as! T
        }
        if T.self == String.self {
            guard case .string(let s) = value else { throw mismatch("String", T.self) }
            return s as! T
        }
        if let integerType = T.self as? any FixedWidthInteger.Type { return try integer(integerType) as! T }
        if T.self == Double.self { return try double() as! T }
        if T.self == Float.self {
            let double = try double()
            guard !double.isFinite || abs(double) <= Double(Float.greatestFiniteMagnitude) else {
                throw corrupted("expected Float, found the number \(double), which is out of range for Float")
            }
            return Float(double) as! T
        }
        if T.self == Decimal.self { return Decimal(try double()) as! T }
        if T.self == Date.self { return try date() as! T }
        if T.self == Data.self { return try data() as! T }
        if T.self == Timestamp.self { return try timestamp() as! T }
        if T.self == GeoPoint.self { return try geoPoint() as! T }
        if T.self == VectorValue.self, let vector = value.vectorValue { return vector as! T }
        if T.self == DocumentReference.self { return try documentReference() as! T }
        if T.self == URL.self {
            guard case .string(let s) = value else { throw mismatch("a URL", T.self) }
            guard !s.isEmpty, let url = URL(string: s) else { throw corrupted("expected a URL, found \(value.described)") }
            return url as! T
        }
        if let dictionary = T.self as? any StringKeyedDecodable.Type, !options.keyDecodingStrategy.isDefault {
            return try dictionary.decodeEntries(from: self) as! T
        }
        return try T(from: self)
    }

    private func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        switch value {
        case .integer(let i):
            guard let exact = I(exactly: i) else {
                throw corrupted("expected \(I.self), found the number \(i), which is out of range for \(I.self) (\(I.min)...\(I.max))")
            }
            return exact
        case .double(let d):
            guard d.rounded() == d else {
                throw DecodingError.typeMismatch(I.self, .init(codingPath: codingPath,
                    debugDescription: "expected \(I.self), found the number \(FirestoreValue.text(of: d)), which is not a whole number"))
            }
            guard let exact = I(exactly: d) else {
                // A whole number shown in full (18446744073709551616, not 1.8446744073709552e+19).
                let shown = abs(d) < 1e21 ? String(format: "%.0f", d) : FirestoreValue.text(of: d)
                throw corrupted("expected \(I.self), found the number \(shown), which is out of range for \(I.self) (\(I.min)...\(I.max))")
            }
            return exact
        default:
            throw mismatch("\(I.self)", I.self)
        }
    }

    private func double() throws -> Double {
        switch value {
        case .double(let d): return d
        case .integer(let i): return Double(i)
        case .string(let s):
            if case .convertFromString(let positive, let negative, let nan) = options.nonConformingFloatDecodingStrategy {
                if s == positive { return .infinity }
                if s == negative { return -.infinity }
                if s == nan { return .nan }
            }
            throw mismatch("a number", Double.self)
        default: throw mismatch("a number", Double.self)
        }
    }

    private func date() throws -> Date {
        switch options.dateDecodingStrategy {
        case .timestamp: return try timestamp(for: "Date").dateValue()
        case .deferredToDate: return try Date(from: self)
        case .secondsSince1970: return Date(timeIntervalSince1970: try double())
        case .millisecondsSince1970: return Date(timeIntervalSince1970: try double() / 1000)
        case .iso8601:
            guard case .string(let s) = value else { throw mismatch("Date (an ISO 8601 string)", Date.self) }
            guard let date = ISO8601DateFormatter().date(from: s) else { throw corrupted("expected an ISO 8601 date, found \(value.described)") }
            return date
        case .formatted(let formatter):
            guard case .string(let s) = value else { throw mismatch("Date (a formatted string)", Date.self) }
            guard let date = formatter.date(from: s) else { throw corrupted("expected a date as \(formatter.dateFormat ?? "the formatter's format"), found \(value.described)") }
            return date
        case .custom(let decode): return try decode(self)
        }
    }

    private func data() throws -> Data {
        switch options.dataDecodingStrategy {
        case .blob, .base64:
            if case .bytes(let data) = value { return data }
            guard case .string(let s) = value else { throw mismatch("Data (bytes or a base64 string)", Data.self) }
            guard let data = Data(base64Encoded: s) else { throw corrupted("expected Data as a base64 string, found \(value.described)") }
            return data
        case .deferredToData: return try Data(from: self)
        case .custom(let decode): return try decode(self)
        }
    }

    /// A timestamp, an RFC 3339 string, or Firebase's Codable form `{"seconds", "nanoseconds"}`.
    func timestamp(for typeName: String = "Timestamp") throws -> Timestamp {
        switch value {
        case .timestamp(let timestamp): return timestamp
        case .string(let s):
            guard let timestamp = Timestamp(rfc3339: s) else {
                throw corrupted("expected \(typeName) as a timestamp or an RFC 3339 string such as 2014-09-09T00:00:00Z, found \(value.described)")
            }
            return timestamp
        case .map: return try Timestamp(from: self)
        default: throw mismatch("\(typeName) (a timestamp or an RFC 3339 string)", Timestamp.self)
        }
    }

    private func geoPoint() throws -> GeoPoint {
        switch value {
        case .geoPoint(let point): return point
        case .map: return try GeoPoint(from: self)
        default: throw mismatch("a GeoPoint (or a map of latitude and longitude)", GeoPoint.self)
        }
    }

    private func documentReference() throws -> DocumentReference {
        switch value {
        case .reference(let reference): return reference
        case .string(let s):
            guard let store = reference?.firestore, let path = try? ResourcePath.parse(s, expectDocument: true, rules: store.idRules) else {
                throw mismatch("a DocumentReference", DocumentReference.self)
            }
            return DocumentReference(firestore: store, path: path)
        default: throw mismatch("a DocumentReference", DocumentReference.self)
        }
    }

    /// The stored name of a key, after `keyDecodingStrategy`.
    func storedName(for key: any CodingKey, in fields: Fields) -> String {
        switch options.keyDecodingStrategy {
        case .useDefaultKeys: return key.stringValue
        case .convertFromSnakeCase:
            if fields[key.stringValue] != nil { return key.stringValue }
            return fields.names.first { SnakeCase.toCamelCase($0) == key.stringValue } ?? key.stringValue
        case .custom(let convert):
            return fields.names.first { convert(codingPath + [FieldKey($0)]).stringValue == key.stringValue } ?? key.stringValue
        }
    }

    // MARK: Errors

    /// A wrong type, or null where a value belongs.
    func mismatch(_ expected: String, _ type: Any.Type) -> DecodingError {
        let context = DecodingError.Context(codingPath: codingPath, debugDescription: "expected \(expected), found \(value.described)")
        return value == .null ? .valueNotFound(type, context) : .typeMismatch(type, context)
    }

    func corrupted(_ message: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: codingPath, debugDescription: message))
    }
}

private struct KeyedFields<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: FieldDecoder
    let fields: Fields
    var codingPath: [any CodingKey] { decoder.codingPath }

    var allKeys: [Key] {
        fields.names.compactMap { name in
            switch decoder.options.keyDecodingStrategy {
            case .useDefaultKeys: return Key(stringValue: name)
            case .convertFromSnakeCase: return Key(stringValue: SnakeCase.toCamelCase(name))
            case .custom(let convert): return Key(stringValue: convert(codingPath + [FieldKey(name)]).stringValue)
            }
        }
    }

    private func value(for key: Key) -> FirestoreValue? { fields[decoder.storedName(for: key, in: fields)] }

    func contains(_ key: Key) -> Bool { value(for: key) != nil }

    private func child(for key: Key, expecting type: Any.Type) throws -> FieldDecoder {
        guard let value = value(for: key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "expected \(type), but the field is missing"))
        }
        return decoder.child(value, key)
    }

    func decodeNil(forKey key: Key) throws -> Bool { try child(for: key, expecting: Any.self).value == .null }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        // The id, not a field: a field of the same name is ignored, as in Firebase's SDK since
        // version 10 (older versions threw `FirestoreDecodingError.fieldNameConflict`).
        if let documentID = T.self as? any DocumentIDProtocol.Type {
            return try documentID.init(reference: decoder.reference) as! T
        }
        return try child(for: key, expecting: T.self).decode(T.self)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try child(for: key, expecting: [String: Any].self).container(keyedBy: type)
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(for: key, expecting: [Any].self).unkeyedContainer()
    }
    /// The superclass's fields, under "super" as `superEncoder()` writes them.
    func superDecoder() throws -> any Decoder { decoder.child(fields["super"] ?? .null, FieldKey("super")) }
    func superDecoder(forKey key: Key) throws -> any Decoder { decoder.child(value(for: key) ?? .null, key) }
}

private struct ArrayItems: UnkeyedDecodingContainer {
    let decoder: FieldDecoder
    let items: [FirestoreValue]
    var currentIndex = 0
    var codingPath: [any CodingKey] { decoder.codingPath }

    init(decoder: FieldDecoder, items: [FirestoreValue]) {
        self.decoder = decoder
        self.items = items
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    private mutating func next(expecting type: Any.Type) throws -> FieldDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath + [IndexKey(currentIndex)],
                                                          debugDescription: "expected \(type), but the array has only \(items.count) items"))
        }
        defer { currentIndex += 1 }
        return decoder.child(items[currentIndex], IndexKey(currentIndex))
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, items[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(expecting: T.self).decode(T.self) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next(expecting: [String: Any].self).container(keyedBy: type)
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next(expecting: [Any].self).unkeyedContainer()
    }
    mutating func superDecoder() throws -> any Decoder { try next(expecting: Any.self) }
}

private struct SingleValue: SingleValueDecodingContainer {
    let decoder: FieldDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }
    func decodeNil() -> Bool { decoder.value == .null }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decode(T.self) }
}

/// An array position in a coding path.
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "\(intValue!)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.intValue = intValue }
}

/// A `[String: Value]` dictionary: its keys are data, so the key strategy leaves them alone, as
/// JSONDecoder's and Firebase's do.
protocol StringKeyedDecodable {
    static func decodeEntries(from decoder: FieldDecoder) throws -> Any
}

extension Dictionary: StringKeyedDecodable where Key == String, Value: Decodable {
    static func decodeEntries(from decoder: FieldDecoder) throws -> Any {
        guard case .map(let fields) = decoder.value else { throw decoder.mismatch("a map", [String: Any].self) }
        var entries: [String: Value] = [:]
        entries.reserveCapacity(fields.count)
        for (key, value) in fields {
            entries[key] = try decoder.child(value, FieldKey(key)).decode(Value.self)
        }
        return entries
    }
}

extension Firestore.Decoder.KeyDecodingStrategy {
    var isDefault: Bool {
        if case .useDefaultKeys = self { return true }
        return false
    }
}

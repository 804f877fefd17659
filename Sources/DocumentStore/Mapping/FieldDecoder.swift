import Foundation

/// A `Decoder` over a stored `JSONValue`. Its errors say what was expected and what was found;
/// `Firestore.Decoder` adds the document path and the field path.
final class FieldDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ value: JSONValue, codingPath: [any CodingKey]) {
        self.value = value
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let fields) = value else { throw mismatch("a map", [String: Any].self) }
        return KeyedDecodingContainer(KeyedFields<Key>(fields: fields, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw mismatch("an array", [Any].self) }
        return ArrayItems(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValue(decoder: self) }

    // MARK: Values

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == Bool.self {
            guard case .bool(let b) = value else { throw mismatch("Bool", T.self) }
            return b as! T
        }
        if T.self == String.self {
            guard case .string(let s) = value else { throw mismatch("String", T.self) }
            return s as! T
        }
        if let integerType = T.self as? any FixedWidthInteger.Type {
            return try integer(integerType) as! T
        }
        if T.self == Double.self { return try floatingPoint(Double.self) as! T }
        if T.self == Float.self { return try floatingPoint(Float.self) as! T }
        if T.self == Date.self { return try timestamp(for: "Date", Date.self).dateValue() as! T }
        // Named here, so an error says "Timestamp" or "GeoPoint" rather than what they decode through.
        if T.self == Timestamp.self { return try timestamp(for: "Timestamp", Timestamp.self) as! T }
        if T.self == GeoPoint.self, value.objectValue == nil {
            throw mismatch("a GeoPoint (a map of latitude and longitude)", T.self)
        }
        if T.self == URL.self {
            guard case .string(let s) = value else { throw mismatch("a URL", T.self) }
            guard let url = URL(string: s), !s.isEmpty else { throw corrupted("expected a URL, found \(value.described)") }
            return url as! T
        }
        if T.self == Data.self {
            guard case .string(let s) = value else { throw mismatch("Data (a base64 string)", T.self) }
            guard let data = Data(base64Encoded: s) else { throw corrupted("expected Data as a base64 string, found \(value.described)") }
            return data as! T
        }
        return try T(from: self)
    }

    private func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        guard case .number(let text) = value else { throw mismatch("\(I.self)", I.self) }
        if let exact = I(text) { return exact }
        let isWholeLiteral = !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
        if let double = Double(text), double.rounded() == double {
            if !isWholeLiteral, let converted = I(exactly: double) { return converted }
            throw corrupted("expected \(I.self), found the number \(text), which is out of range for \(I.self) (\(I.min)...\(I.max))")
        }
        throw DecodingError.typeMismatch(I.self, .init(codingPath: codingPath, debugDescription: "expected \(I.self), found the number \(text), which is not a whole number"))
    }

    private func floatingPoint<F: BinaryFloatingPoint & LosslessStringConvertible>(_ type: F.Type) throws -> F {
        guard case .number(let text) = value else { throw mismatch("\(F.self)", F.self) }
        guard let number = F(text), number.isFinite else {
            throw corrupted("expected \(F.self), found the number \(text), which is out of range for \(F.self)")
        }
        return number
    }

    func timestamp(for typeName: String, _ type: Any.Type) throws -> Timestamp {
        guard case .string(let s) = value else { throw mismatch("\(typeName) (an RFC 3339 timestamp string)", type) }
        guard let timestamp = Timestamp(rfc3339: s) else {
            throw corrupted("expected \(typeName) as an RFC 3339 timestamp such as 2014-09-09T00:00:00Z, found \(value.described)")
        }
        return timestamp
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
    let fields: [String: JSONValue]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { fields.keys.compactMap { Key(stringValue: $0) } }
    func contains(_ key: Key) -> Bool { fields[key.stringValue] != nil }

    private func decoder(for key: Key, expecting type: Any.Type) throws -> FieldDecoder {
        guard let value = fields[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "expected \(type), but the field is missing"))
        }
        return FieldDecoder(value, codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool { try decoder(for: key, expecting: Any.self).value == .null }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder(for: key, expecting: T.self).decode(T.self) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder(for: key, expecting: type).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder(for: key, expecting: type).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder(for: key, expecting: type).decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder(for: key, expecting: type).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder(for: key, expecting: type).decode(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder(for: key, expecting: type).decode(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder(for: key, expecting: type).decode(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder(for: key, expecting: type).decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder(for: key, expecting: type).decode(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder(for: key, expecting: type).decode(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder(for: key, expecting: type).decode(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder(for: key, expecting: type).decode(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder(for: key, expecting: type).decode(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder(for: key, expecting: type).decode(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder(for: key, expecting: [String: Any].self).container(keyedBy: type)
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder(for: key, expecting: [Any].self).unkeyedContainer()
    }
    func superDecoder() throws -> any Decoder { FieldDecoder(.object(fields), codingPath: codingPath) }
    func superDecoder(forKey key: Key) throws -> any Decoder {
        FieldDecoder(fields[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }
}

private struct ArrayItems: UnkeyedDecodingContainer {
    let items: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(items: [JSONValue], codingPath: [any CodingKey]) {
        self.items = items
        self.codingPath = codingPath
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    private mutating func next(expecting type: Any.Type) throws -> FieldDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath + [IndexKey(currentIndex)],
                                                          debugDescription: "expected \(type), but the array has only \(items.count) items"))
        }
        defer { currentIndex += 1 }
        return FieldDecoder(items[currentIndex], codingPath: codingPath + [IndexKey(currentIndex)])
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

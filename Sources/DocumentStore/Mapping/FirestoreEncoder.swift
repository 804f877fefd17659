import Foundation

extension Firestore {
    /// Maps `Encodable` values to document data, as Firebase's `Firestore.Encoder`: `Timestamp`,
    /// `GeoPoint`, `DocumentReference` and `FieldValue` pass through as themselves, a `Date`
    /// becomes a `Timestamp` and `Data` becomes bytes (by default), `@DocumentID` is left out,
    /// nil optionals are left out unless `@ExplicitNull`, and a nil `@ServerTimestamp` becomes
    /// `FieldValue.serverTimestamp()`.
    public final class Encoder: @unchecked Sendable {
        public enum DateEncodingStrategy {
            /// What `Date`'s own `encode(to:)` writes: seconds since 2001 as a double.
            case deferredToDate
            case secondsSince1970
            case millisecondsSince1970
            /// An ISO 8601 string.
            case iso8601
            case formatted(DateFormatter)
            case custom((Date, any Swift.Encoder) throws -> Void)
            /// A Firestore timestamp (the default).
            case timestamp
        }

        public enum DataEncodingStrategy {
            /// What `Data`'s own `encode(to:)` writes: an array of byte values.
            case deferredToData
            case base64
            case custom((Data, any Swift.Encoder) throws -> Void)
            /// Firestore bytes (the default).
            case blob
        }

        public enum NonConformingFloatEncodingStrategy {
            /// Infinity and NaN are an error (the default, as Firebase's).
            case `throw`
            case convertToString(positiveInfinity: String, negativeInfinity: String, nan: String)
        }

        public enum KeyEncodingStrategy {
            case useDefaultKeys
            /// `numberOfPages` is written as `number_of_pages`.
            case convertToSnakeCase
            case custom((_ codingPath: [any CodingKey]) -> any CodingKey)
        }

        public var dateEncodingStrategy: DateEncodingStrategy = .timestamp
        public var dataEncodingStrategy: DataEncodingStrategy = .blob
        public var nonConformingFloatEncodingStrategy: NonConformingFloatEncodingStrategy = .throw
        public var keyEncodingStrategy: KeyEncodingStrategy = .useDefaultKeys
        /// Contextual information for the types being encoded.
        public var userInfo: [CodingUserInfoKey: Any] = [:]

        public init() {}

        /// The document data `value` encodes to, as `setData` takes it.
        public func encode<T: Encodable>(_ value: T) throws -> [String: Any] {
            try encodeFields(value).mapValues(\.anyValue)
        }

        /// The fields of `value`, sentinels included, ready for a write. Errors are
        /// `EncodingError`s whose description names `document` (when given) and the field.
        func encodeFields<T: Encodable>(_ value: T, in document: String? = nil) throws -> [String: WriteValue] {
            do {
                return try fields(of: value)
            } catch let error as EncodingError {
                throw Self.locate(error, in: document)
            }
        }

        private func fields<T: Encodable>(of value: T) throws -> [String: WriteValue] {
            let slot = EncodingSlot()
            try ValueEncoder(options: self, slot: slot, codingPath: []).encodeValue(value)
            let encoded = try slot.writeValue(codingPath: { [] })
            guard case .map(let fields) = encoded else {
                let shown: String
                switch encoded {
                case .value(let plain): shown = plain.described
                case .sentinel(let sentinel): shown = "FieldValue.\(sentinel)"
                case .map: shown = "a map"
                }
                throw EncodingError.invalidValue(value, .init(
                    codingPath: [], debugDescription: "a document is a map of fields, but \(T.self) encodes to \(shown)"))
            }
            return fields
        }

        /// Rewrites the error's description to name the document and the field, as the
        /// decoder's errors do: "document books/x, field price: nan is not allowed ...".
        static func locate(_ error: EncodingError, in documentPath: String?) -> EncodingError {
            guard case .invalidValue(let value, let context) = error else { return error }
            let message = context.debugDescription
            if message.hasPrefix("document ") || message.hasPrefix("field ") { return error }
            var place = documentPath.map { "document \($0)" } ?? ""
            if !context.codingPath.isEmpty {
                place += (place.isEmpty ? "" : ", ") + "field " + Firestore.Decoder.fieldPath(context.codingPath)
            }
            return .invalidValue(value, .init(codingPath: context.codingPath,
                                              debugDescription: place.isEmpty ? message : place + ": " + message,
                                              underlyingError: context.underlyingError))
        }
    }
}

/// Where one encoded value is built; containers fill it in place.
final class EncodingSlot {
    enum Content {
        case empty
        case value(FirestoreValue)
        case sentinel(FieldValue)
        case map(MapBox)
        case array(ArrayBox)
    }

    final class MapBox { var slots: [String: EncodingSlot] = [:] }
    final class ArrayBox { var slots: [EncodingSlot] = [] }

    var content: Content = .empty

    /// The finished value. A container nobody wrote to is an empty map, as JSONEncoder makes it.
    /// `codingPath` is made only for an error (every value of every document passes here).
    func writeValue(codingPath: () -> [any CodingKey]) throws -> WriteValue {
        switch content {
        case .empty: return .map([:])
        case .value(let value): return .value(value)
        case .sentinel(let sentinel): return .sentinel(sentinel)
        case .map(let box):
            var fields: [String: WriteValue] = [:]
            fields.reserveCapacity(box.slots.count)
            for (key, slot) in box.slots {
                fields[key] = try slot.writeValue(codingPath: { codingPath() + [FieldKey(key)] })
            }
            return .map(fields)
        case .array(let box):
            var items: [FirestoreValue] = []
            items.reserveCapacity(box.slots.count)
            for (index, slot) in box.slots.enumerated() {
                func path() -> [any CodingKey] { codingPath() + [IndexKey(index)] }
                items.append(try Self.plain(try slot.writeValue(codingPath: path), codingPath: path))
            }
            return .value(.array(items))
        }
    }

    /// Inside an array, where Firestore allows no sentinel.
    private static func plain(_ value: WriteValue, codingPath: () -> [any CodingKey]) throws -> FirestoreValue {
        switch value {
        case .value(let v): return v
        case .sentinel(let sentinel):
            throw EncodingError.invalidValue(sentinel, .init(codingPath: codingPath(),
                debugDescription: "FieldValue.\(sentinel) cannot be used inside an array"))
        case .map(let fields):
            var plain: [String: FirestoreValue] = [:]
            for (key, item) in fields { plain[key] = try Self.plain(item, codingPath: { codingPath() + [FieldKey(key)] }) }
            return .map(Fields(plain))
        }
    }
}

/// A map key in a coding path.
struct FieldKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ key: String) { stringValue = key }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}

/// The `Swift.Encoder` behind `Firestore.Encoder`.
struct ValueEncoder: Swift.Encoder {
    let options: Firestore.Encoder
    let slot: EncodingSlot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .map(let box) = slot.content {
            return KeyedEncodingContainer(KeyedSlots<Key>(encoder: self, box: box))
        }
        let box = EncodingSlot.MapBox()
        slot.content = .map(box)
        return KeyedEncodingContainer(KeyedSlots<Key>(encoder: self, box: box))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array(let box) = slot.content { return ArraySlots(encoder: self, box: box) }
        let box = EncodingSlot.ArrayBox()
        slot.content = .array(box)
        return ArraySlots(encoder: self, box: box)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleSlot(encoder: self) }

    /// An encoder for a child value at `key`.
    func child(_ slot: EncodingSlot, _ key: any CodingKey) -> ValueEncoder {
        ValueEncoder(options: options, slot: slot, codingPath: codingPath + [key])
    }

    /// The value of the types Codable's code encodes most, known by their metatype (a
    /// comparison, where `encodeValue` casts to a dozen types in turn): no child encoder, no
    /// coding path. Nil for every other type, and for a double that is not finite.
    static func plainValue<T>(_ value: T) -> FirestoreValue? {
        // unsafeBitCast: T is the type it is cast to.
        if T.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
        if T.self == Int.self { return .integer(Int64(unsafeBitCast(value, to: Int.self))) }
        if T.self == Bool.self { return .boolean(unsafeBitCast(value, to: Bool.self)) }
        if T.self == Double.self {
            let double = unsafeBitCast(value, to: Double.self)
            return double.isFinite ? .double(double) : nil
        }
        return nil
    }

    /// Encodes `value` into this encoder's slot, passing Firestore's own types through.
    func encodeValue<T: Encodable>(_ value: T) throws {
        if let plain = Self.plainValue(value) {
            slot.content = .value(plain)
            return
        }
        switch value {
        case let timestamp as Timestamp: slot.content = .value(.timestamp(timestamp))
        case let point as GeoPoint: slot.content = .value(.geoPoint(point))
        case let vector as VectorValue: slot.content = .value(.vector(vector.data))
        case let reference as DocumentReference: slot.content = .value(.reference(reference))
        case let sentinel as FieldValue: slot.content = .sentinel(sentinel)
        case let date as Date: try encodeDate(date)
        case let data as Data: try encodeData(data)
        case let url as URL: slot.content = .value(.string(url.absoluteString))
        case let decimal as Decimal: slot.content = .value(.double(NSDecimalNumber(decimal: decimal).doubleValue))
        case let double as Double: slot.content = .value(try floatingPoint(double))
        case let float as Float: slot.content = .value(try floatingPoint(Double(float)))
        case let string as String: slot.content = .value(.string(string))
        case let bool as Bool: slot.content = .value(.boolean(bool))
        case let integer as any FixedWidthInteger: slot.content = .value(try self.integer(integer))
        case let dictionary as any StringKeyedEncodable where !options.keyEncodingStrategy.isDefault:
            try dictionary.encodeEntries(into: self)
        default: try value.encode(to: self)
        }
    }

    func integer(_ value: some FixedWidthInteger) throws -> FirestoreValue {
        guard let exact = Int64(exactly: value) else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath,
                debugDescription: "\(value) is out of range for a 64-bit integer, the only integer Firestore stores"))
        }
        return .integer(exact)
    }

    func floatingPoint(_ value: Double) throws -> FirestoreValue {
        guard !value.isFinite else { return .double(value) }
        guard case .convertToString(let positive, let negative, let nan) = options.nonConformingFloatEncodingStrategy else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath,
                debugDescription: "\(value) is not allowed by nonConformingFloatEncodingStrategy .throw; use .convertToString, or store it through setData"))
        }
        return .string(value.isNaN ? nan : value < 0 ? negative : positive)
    }

    private func encodeDate(_ date: Date) throws {
        switch options.dateEncodingStrategy {
        case .timestamp: slot.content = .value(.timestamp(Timestamp(date: date)))
        case .deferredToDate: try date.encode(to: self)
        case .secondsSince1970: slot.content = .value(.double(date.timeIntervalSince1970))
        case .millisecondsSince1970: slot.content = .value(.double(date.timeIntervalSince1970 * 1000))
        case .iso8601: slot.content = .value(.string(ISO8601DateFormatter().string(from: date)))
        case .formatted(let formatter): slot.content = .value(.string(formatter.string(from: date)))
        case .custom(let encode): try encode(date, self)
        }
    }

    private func encodeData(_ data: Data) throws {
        switch options.dataEncodingStrategy {
        case .blob: slot.content = .value(.bytes(data))
        case .base64: slot.content = .value(.string(data.base64EncodedString()))
        case .deferredToData: try data.encode(to: self)
        case .custom(let encode): try encode(data, self)
        }
    }

    /// The key as written, after `keyEncodingStrategy`.
    func name(for key: any CodingKey) -> String {
        switch options.keyEncodingStrategy {
        case .useDefaultKeys: return key.stringValue
        case .convertToSnakeCase: return SnakeCase.from(camelCase: key.stringValue)
        case .custom(let convert): return convert(codingPath + [key]).stringValue
        }
    }
}

/// A `[String: Value]` dictionary: its keys are data, not property names, so the key strategy
/// leaves them as they are, as JSONEncoder's and Firebase's do.
protocol StringKeyedEncodable {
    func encodeEntries(into encoder: ValueEncoder) throws
}

extension Dictionary: StringKeyedEncodable where Key == String, Value: Encodable {
    func encodeEntries(into encoder: ValueEncoder) throws {
        let box = EncodingSlot.MapBox()
        encoder.slot.content = .map(box)
        for (key, value) in self {
            let slot = EncodingSlot()
            box.slots[key] = slot
            try encoder.child(slot, FieldKey(key)).encodeValue(value)
        }
    }
}

extension Firestore.Encoder.KeyEncodingStrategy {
    var isDefault: Bool {
        if case .useDefaultKeys = self { return true }
        return false
    }
}

private struct KeyedSlots<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ValueEncoder
    let box: EncodingSlot.MapBox
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func slot(for key: any CodingKey) -> EncodingSlot {
        let slot = EncodingSlot()
        box.slots[encoder.name(for: key)] = slot
        return slot
    }

    mutating func encodeNil(forKey key: Key) throws { slot(for: key).content = .value(.null) }

    /// `@DocumentID` is left out: the id is the document's name, not one of its fields.
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if let plain = ValueEncoder.plainValue(value) {
            slot(for: key).content = .value(plain)
            return
        }
        if value is any DocumentIDProtocol { return }
        try encoder.child(slot(for: key), key).encodeValue(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        encoder.child(slot(for: key), key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder.child(slot(for: key), key).unkeyedContainer()
    }

    /// The superclass's fields go under "super", as with JSONEncoder and Firebase.
    mutating func superEncoder() -> any Swift.Encoder { encoder.child(slot(for: FieldKey("super")), FieldKey("super")) }
    mutating func superEncoder(forKey key: Key) -> any Swift.Encoder { encoder.child(slot(for: key), key) }
}

private struct ArraySlots: UnkeyedEncodingContainer {
    let encoder: ValueEncoder
    let box: EncodingSlot.ArrayBox
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { box.slots.count }

    private func next() -> (EncodingSlot, IndexKey) {
        let slot = EncodingSlot()
        box.slots.append(slot)
        return (slot, IndexKey(box.slots.count - 1))
    }

    mutating func encodeNil() throws { next().0.content = .value(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let (slot, key) = next()
        if let plain = ValueEncoder.plainValue(value) {
            slot.content = .value(plain)
            return
        }
        try encoder.child(slot, key).encodeValue(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let (slot, key) = next()
        return encoder.child(slot, key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let (slot, key) = next()
        return encoder.child(slot, key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Swift.Encoder {
        let (slot, key) = next()
        return encoder.child(slot, key)
    }
}

private struct SingleSlot: SingleValueEncodingContainer {
    let encoder: ValueEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.slot.content = .value(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws { try encoder.encodeValue(value) }
}

/// camelCase and snake_case, as JSONEncoder's key strategies convert them.
enum SnakeCase {
    static func from(camelCase key: String) -> String {
        guard !key.isEmpty else { return key }
        var words: [String] = []
        var current = ""
        var previousWasUpper = false
        let characters = Array(key)
        for (index, character) in characters.enumerated() {
            let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
            if character.isUppercase && !current.isEmpty && (!previousWasUpper || nextIsLower) {
                words.append(current)
                current = ""
            }
            current.append(character)
            previousWasUpper = character.isUppercase
        }
        words.append(current)
        return words.map { $0.lowercased() }.joined(separator: "_")
    }

    static func toCamelCase(_ key: String) -> String {
        guard key.contains("_") else { return key }
        let leading = key.prefix(while: { $0 == "_" })
        let trailing = String(key.reversed().prefix(while: { $0 == "_" }))
        let core = key.dropFirst(leading.count).dropLast(trailing.count)
        let parts = core.split(separator: "_")
        guard let first = parts.first else { return key }
        let camel = first.lowercased() + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }.joined()
        return leading + camel + trailing
    }
}

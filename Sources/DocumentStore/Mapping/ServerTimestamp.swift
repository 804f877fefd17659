import Foundation

/// Types a `@ServerTimestamp` property can hold, as Firebase declares them. Conform your own
/// types (say, a `Date` wrapper) to store them as Firestore timestamps.
public protocol ServerTimestampWrappable {
    /// The value for a timestamp read from a document.
    static func wrap(_ timestamp: Timestamp) throws -> Self
    /// The timestamp to write for a value.
    static func unwrap(_ value: Self) throws -> Timestamp
}

extension Date: ServerTimestampWrappable {
    public static func wrap(_ timestamp: Timestamp) throws -> Date { timestamp.dateValue() }
    public static func unwrap(_ value: Date) throws -> Timestamp { Timestamp(date: value) }
}

extension Timestamp: ServerTimestampWrappable {
    public static func wrap(_ timestamp: Timestamp) throws -> Timestamp { timestamp }
    public static func unwrap(_ value: Timestamp) throws -> Timestamp { value }
}

/// nil is written as `FieldValue.serverTimestamp()`: the time of the write, the same instant for
/// every field of one commit. A value is written as it is. Handy for `createdAt` and `updatedAt`.
@propertyWrapper
public struct ServerTimestamp<Value: ServerTimestampWrappable & Codable>: Codable {
    public var wrappedValue: Value?

    public init(wrappedValue value: Value?) { wrappedValue = value }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try Value.wrap(container.decode(Timestamp.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value = wrappedValue {
            try container.encode(Value.unwrap(value))
        } else {
            try container.encode(FieldValue.serverTimestamp())
        }
    }
}

extension ServerTimestamp: Equatable where Value: Equatable {}
extension ServerTimestamp: Hashable where Value: Hashable {}
extension ServerTimestamp: Sendable where Value: Sendable {}

extension KeyedDecodingContainer {
    /// A missing field reads as nil rather than failing.
    public func decode<Value>(_ type: ServerTimestamp<Value>.Type, forKey key: Key) throws -> ServerTimestamp<Value> {
        try decodeIfPresent(type, forKey: key) ?? ServerTimestamp(wrappedValue: nil)
    }
}

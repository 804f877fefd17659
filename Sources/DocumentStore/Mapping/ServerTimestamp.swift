import Foundation

/// Types a `@ServerTimestamp` property can hold.
public protocol ServerTimestampWrappable: Codable {
    static func wrap(_ timestamp: Timestamp) -> Self
}

extension Date: ServerTimestampWrappable {
    public static func wrap(_ timestamp: Timestamp) -> Date { timestamp.dateValue() }
}

extension Timestamp: ServerTimestampWrappable {
    public static func wrap(_ timestamp: Timestamp) -> Timestamp { timestamp }
}

/// nil is written as the time of the write (the same instant for every field of one write);
/// a value is kept as it is. Handy for `createdAt` and `lastUpdatedAt`.
@propertyWrapper
public struct ServerTimestamp<Value: ServerTimestampWrappable>: Codable {
    public var wrappedValue: Value?

    public init(wrappedValue value: Value?) { wrappedValue = value }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue ?? Value.wrap(MappingContext.writeTime ?? Timestamp()))
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

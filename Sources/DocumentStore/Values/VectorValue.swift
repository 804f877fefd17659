import Foundation

/// Firestore's vector type, as Firebase's `VectorValue`: a list of doubles stored as one value
/// (for embeddings), which sorts after arrays and before maps. An `NSObject`, as Firebase's, so
/// two equal vectors compare equal inside dictionaries `as NSDictionary`.
public final class VectorValue: NSObject, Codable, @unchecked Sendable {  // immutable
    private let values: [Double]

    public init(_ doubles: [Double]) {
        values = doubles
    }

    /// Firebase's initializer for its Codable conformance.
    public convenience init(__nsNumbers numbers: [NSNumber]) {
        self.init(numbers.map(\.doubleValue))
    }

    /// The vector's numbers.
    public var data: [Double] { values }

    /// Firebase's refined accessor of `data`.
    public func __toNSArray() -> [NSNumber] { values.map { NSNumber(value: $0) } }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? VectorValue else { return false }
        return values == other.values
    }

    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(values)
        return hasher.finalize()
    }

    public override var description: String { "VectorValue(\(values))" }

    // Codable as Firebase's: a keyed container holding the numbers under "data". Through
    // Firestore's own coders a vector passes as itself (Firestore's vector type).

    private enum CodingKeys: String, CodingKey { case data }

    public convenience init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(try container.decode([Double].self, forKey: .data))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(values, forKey: .data)
    }
}

extension FieldValue {
    /// A vector of these numbers, stored as Firestore's vector type.
    public static func vector(_ array: [Double]) -> VectorValue { VectorValue(array) }
    public static func vector(_ array: [Float]) -> VectorValue { VectorValue(array.map(Double.init)) }
    /// Firebase's refined name of `vector(_:)`.
    public static func __vector(with array: [NSNumber]) -> VectorValue { VectorValue(__nsNumbers: array) }
}

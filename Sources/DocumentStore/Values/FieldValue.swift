import Foundation

/// Sentinel values for writes, as Firestore's: the server's time, deleting a field, and
/// transforms applied to what is stored when the write is committed. Encodable, so a model can
/// carry one; Equatable and Hashable, so that two dictionaries holding the same sentinels compare
/// equal `as NSDictionary`, as Firebase's `NSObject`s do.
public struct FieldValue: Hashable, @unchecked Sendable, CustomStringConvertible {
    enum Operation {
        case serverTimestamp
        case delete
        case increment(FirestoreValue)
        case minimum(FirestoreValue)
        case maximum(FirestoreValue)
        case arrayUnion([Any])
        case arrayRemove([Any])
    }

    let operation: Operation

    /// The time of the write, the same for every field of one write.
    public static func serverTimestamp() -> FieldValue { FieldValue(operation: .serverTimestamp) }
    /// Removes the field (in `updateData` or a merging `setData`).
    public static func delete() -> FieldValue { FieldValue(operation: .delete) }
    /// Adds to the stored number (integers saturate at the 64-bit limits); a field that is not a
    /// number becomes `by`.
    public static func increment(_ by: Int64) -> FieldValue { FieldValue(operation: .increment(.integer(by))) }
    public static func increment(_ by: Double) -> FieldValue { FieldValue(operation: .increment(.double(by))) }
    /// The smaller of the stored number and `value`; a field that is not a number becomes `value`.
    public static func minimum(_ value: Int64) -> FieldValue { FieldValue(operation: .minimum(.integer(value))) }
    public static func minimum(_ value: Double) -> FieldValue { FieldValue(operation: .minimum(.double(value))) }
    /// The larger of the stored number and `value`; a field that is not a number becomes `value`.
    public static func maximum(_ value: Int64) -> FieldValue { FieldValue(operation: .maximum(.integer(value))) }
    public static func maximum(_ value: Double) -> FieldValue { FieldValue(operation: .maximum(.double(value))) }
    /// Adds each element not already present.
    public static func arrayUnion(_ elements: [Any]) -> FieldValue { FieldValue(operation: .arrayUnion(elements)) }
    /// Removes every occurrence of each element.
    public static func arrayRemove(_ elements: [Any]) -> FieldValue { FieldValue(operation: .arrayRemove(elements)) }

    /// Whether a commit's `transform_results` carry the value this transform left: Firestore
    /// (Google's emulator, measured) answers null for `arrayUnion` and `arrayRemove`.
    var answersResult: Bool {
        switch operation {
        case .arrayUnion, .arrayRemove: return false
        default: return true
        }
    }

    public var description: String {
        switch operation {
        case .serverTimestamp: return "serverTimestamp()"
        case .delete: return "delete()"
        case .increment(let by): return "increment(\(by.described))"
        case .minimum(let value): return "minimum(\(value.described))"
        case .maximum(let value): return "maximum(\(value.described))"
        case .arrayUnion(let elements): return "arrayUnion(\(elements.count) elements)"
        case .arrayRemove(let elements): return "arrayRemove(\(elements.count) elements)"
        }
    }

    public static func == (a: FieldValue, b: FieldValue) -> Bool {
        func values(_ elements: [Any]) -> [FirestoreValue]? {
            try? elements.map { element throws(DocumentStoreError) in try FirestoreValue(any: element, field: "", document: "") }
        }
        switch (a.operation, b.operation) {
        case (.serverTimestamp, .serverTimestamp), (.delete, .delete): return true
        case let (.increment(x), .increment(y)), let (.minimum(x), .minimum(y)), let (.maximum(x), .maximum(y)): return x == y
        case let (.arrayUnion(x), .arrayUnion(y)), let (.arrayRemove(x), .arrayRemove(y)):
            guard let x = values(x), let y = values(y) else { return false }
            return x == y
        default: return false
        }
    }

    /// The kind of sentinel only: equal values are of one kind (arrays compare by converted value).
    public func hash(into hasher: inout Hasher) {
        switch operation {
        case .serverTimestamp: hasher.combine(0)
        case .delete: hasher.combine(1)
        case .increment: hasher.combine(2)
        case .minimum: hasher.combine(3)
        case .maximum: hasher.combine(4)
        case .arrayUnion: hasher.combine(5)
        case .arrayRemove: hasher.combine(6)
        }
    }
}

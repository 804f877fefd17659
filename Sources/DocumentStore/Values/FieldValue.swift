/// Sentinel values for `setData`, `updateData` and `addDocument(data:)`, as in Firestore.
public struct FieldValue: @unchecked Sendable {
    enum Operation {
        case serverTimestamp
        case delete
        case increment(Double, isInteger: Bool)
        case arrayUnion([Any])
        case arrayRemove([Any])
    }

    let operation: Operation

    /// The time of the write, the same for every field of one write.
    public static func serverTimestamp() -> FieldValue { FieldValue(operation: .serverTimestamp) }
    /// Removes the field (in `updateData` or a merging `setData`).
    public static func delete() -> FieldValue { FieldValue(operation: .delete) }
    public static func increment(_ by: Int64) -> FieldValue { FieldValue(operation: .increment(Double(by), isInteger: true)) }
    public static func increment(_ by: Double) -> FieldValue { FieldValue(operation: .increment(by, isInteger: false)) }
    /// Adds each element not already present.
    public static func arrayUnion(_ elements: [Any]) -> FieldValue { FieldValue(operation: .arrayUnion(elements)) }
    /// Removes every occurrence of each element.
    public static func arrayRemove(_ elements: [Any]) -> FieldValue { FieldValue(operation: .arrayRemove(elements)) }
}

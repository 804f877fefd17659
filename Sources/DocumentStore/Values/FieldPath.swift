import Foundation

/// A path to a field, as Firebase's `FieldPath`: `FieldPath(["cover", "small"])` is the field
/// `small` of the map `cover`; a name may contain dots. `FieldPath.documentID()` stands for the
/// document's id.
public final class FieldPath: Hashable, CustomStringConvertible, @unchecked Sendable {
    package let segments: [String]
    /// Kept, not derived: queries ask on every step of a sort.
    package let isDocumentID: Bool

    public init(_ fieldNames: [String]) {
        segments = fieldNames
        isDocumentID = fieldNames.count == 1 && fieldNames[0].utf8.elementsEqual("__name__".utf8)
    }

    /// The id of the document, where a query or an order takes a field.
    public static func documentID() -> FieldPath { FieldPath(["__name__"]) }

    /// Firestore's server format (`serverFormat`), as requests and messages write it.
    public var description: String { serverFormat }

    public static func == (a: FieldPath, b: FieldPath) -> Bool {
        a.segments.count == b.segments.count && zip(a.segments, b.segments).allSatisfy { $0.utf8.elementsEqual($1.utf8) }
    }

    public func hash(into hasher: inout Hasher) {
        for segment in segments { hasher.combine(Array(segment.utf8)) }
    }

    /// A dotted string as the API takes it ("cover.small"), or a `FieldPath`; anything else, an
    /// empty part, or one of the characters Firestore reserves in dotted paths is an error that
    /// names it.
    static func from(_ key: Any, document: String) throws(DocumentStoreError) -> FieldPath {
        if let path = key as? FieldPath {
            guard !path.segments.isEmpty, !path.segments.contains(where: \.isEmpty) else {
                throw .invalidValue(path: document, field: path.description, reason: "a field path cannot be empty or have empty parts")
            }
            return path
        }
        let text: String
        if let string = key as? String { text = string }
        else if let hashable = key as? AnyHashable, let string = hashable.base as? String { text = string }
        else { throw .invalidValue(path: document, field: "\(key)", reason: "a field path must be a String or a FieldPath") }
        if let reserved = text.first(where: { "~*/[]".contains($0) }) {
            throw .invalidValue(path: document, field: text, reason: "a dotted field path cannot contain '\(reserved)' (none of '~', '*', '/', '[', ']'); use FieldPath([...]) for such names")
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !parts.contains(where: \.isEmpty) else {
            throw .invalidValue(path: document, field: text, reason: "a field path cannot be empty or have empty parts (as in \"a..b\" or \".a\")")
        }
        return FieldPath(parts)
    }

    func isPrefix(of other: FieldPath) -> Bool {
        segments.count <= other.segments.count && zip(segments, other.segments).allSatisfy { $0.utf8.elementsEqual($1.utf8) }
    }
}
